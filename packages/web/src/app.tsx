import { IdentityMenu } from './identity-menu.js';
import { Link, useLocation } from './router.js';
import { ContextView, isTab } from './views/context-view.js';
import { ContextsList } from './views/contexts-list.js';

/** Routes: `/` lists contexts; `/contexts/:id/:tab` shows one context at one tab. */
export function App() {
  const { path } = useLocation();
  const match = /^\/contexts\/([^/]+)(?:\/([a-z]+))?\/?$/.exec(path);
  const contextId = match?.[1] ? decodeURIComponent(match[1]) : null;
  const tab = match?.[2];
  return (
    <div className="app">
      <header className="app-header">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          baton
        </Link>
        <span className="spacer" />
        <IdentityMenu />
      </header>
      <main className="app-main">
        {contextId === null ? (
          path === '/' ? (
            <ContextsList />
          ) : (
            <p className="empty">
              Nothing here. <Link to="/">Back to the contexts</Link>
            </p>
          )
        ) : (
          <ContextView key={contextId} contextId={contextId} tab={tab && isTab(tab) ? tab : 'overview'} />
        )}
      </main>
    </div>
  );
}
