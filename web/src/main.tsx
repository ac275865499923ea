import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage } from './app/router/route-view';
import { resolveRoute } from './app/router/routes';
import { initI18n } from './i18n/i18n';
import './app/app.css';

// The screen's chunk loads while the language's texts do, not after them.
preloadPage(resolveRoute(window.location.pathname).page);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
const render = () =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// The first paint waits for the texts (no flash of keys); if they cannot load (offline), the app
// still starts and its offline page says so.
initI18n().then(render, render);
