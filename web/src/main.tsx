import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage } from './app/router/route-view';
import { resolveRoute } from './app/router/routes';
import { initI18n } from './i18n/i18n';
import './app/app.css';

initI18n();
// The screen's chunk loads while the configuration does, not after it.
preloadPage(resolveRoute(window.location.pathname).page);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
