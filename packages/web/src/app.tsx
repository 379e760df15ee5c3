import { IdentityMenu } from './identity-menu.js';
import { Link, useLocation } from './router.js';
import { contextRoute } from './routes.js';
import { ContextView, isTab } from './views/context-view.js';
import { ContextsList } from './views/contexts-list.js';

/** Routes: `/` lists contexts; `/contexts/:id/:tab` shows one context at one tab. */
export function App() {
  const { path } = useLocation();
  const route = contextRoute(path);
  const contextId = route?.contextId ?? null;
  const tab = route?.tab;
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
