// First: starts loading the page's data while the modules below are evaluated.
import './boot.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider } from './api/api-context.js';
import { App } from './app.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/conversations.css';
import './styles/feed.css';
import './styles/overview.css';
import 'highlight.js/styles/github.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <ApiProvider>
      <App />
    </ApiProvider>
  </StrictMode>,
);
