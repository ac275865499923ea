import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { startConfigurationLoad } from './app/configuration/load-configuration';
import { AriaLocaleProvider } from './i18n/aria-locale';
import { detectLanguage, initI18n, VISITOR_NAMESPACES } from './i18n/i18n';
import { registerServiceWorker } from './offline/service-worker';
import { App } from './root/app';
import { FULL_ROUTE_TABLE, routeFor } from './root/routes/route-table';
import { preloadPage } from './root/routes/route-view';
import { loadLoggedInShell, probablyLoggedIn, startNamespaces } from './root/shell/session-hint';
import 'virtual:font-faces.css';
import './styles/tokens.css';
import './styles/base.css';
import './app/app.css';
import { applyStoredTheme } from './styles/theme';

applyStoredTheme();
// The interface's regular face, asked for right after the first paint: the boot shell draws no
// text in it, so the browser would fetch it only once React first draws body text, and the
// footer's text, drawn in the fallback font meanwhile, moved when the face came (Lighthouse's
// layout shift, issue 23). Not before that paint (nor preloaded from index.html): the first paint
// would then wait for it on a slow network.
requestAnimationFrame(() =>
  setTimeout(() => void document.fonts?.load('400 1em "Source Sans 3"').catch(() => {})),
);
registerServiceWorker();
startConfigurationLoad();
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// In a transition React renders the first screen in slices of a few milliseconds, yielding to the
// browser between them, instead of in one task that blocks input for the whole first render (on a
// phone the logged-in shell and the overview took one task of about 1 s; issue 23).
// The root is made here, not while this module is evaluated: react-dom's listeners on every event
// type took 8 ms of that evaluation, one long task already.
const render = () => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <AriaLocaleProvider>
          <App />
        </AriaLocaleProvider>
      </StrictMode>,
    ),
  );
};
// All this in a task after the one that evaluated this module and its imports (40 ms here, the
// start's longest task): i18next's setup and the route's lookup were 8-12 ms of it (issue 23).
setTimeout(() => {
  const firstRoute = routeFor(FULL_ROUTE_TABLE, window.location.pathname);
  // The screen's chunk loads while the language's texts do, not after them; a login-only screen
  // and the logged-in shell only for a browser that was logged in (a visitor gets the login page).
  // In tasks of their own, the shell's and the screen's apart: adding the modulepreload links of
  // both took one task of 20-40 ms after the evaluation of this module's imports, and Lighthouse
  // counts a task's time over 50 ms at 4× (issue 23). A logged-in start at '/' has them in the page
  // already (the server's first-screen preloads), so nothing is added then.
  setTimeout(() => {
    if (probablyLoggedIn()) {
      void loadLoggedInShell();
      setTimeout(() => preloadPage(firstRoute.page));
    } else if (!firstRoute.loginRequired) {
      preloadPage(firstRoute.page);
    }
  });
  // The first paint waits for the texts (no flash of keys), but only for those of the first screen
  // (a phone's requests queue six at a time); if they cannot load (offline), the app still starts
  // and its offline page says so.
  initI18n(detectLanguage(), probablyLoggedIn() ? startNamespaces(firstRoute.page) : VISITOR_NAMESPACES).then(
    render,
    render,
  );
});
