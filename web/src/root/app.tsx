import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { ActionRegistry } from '../actions/registry';
import { ActionsProvider } from '../actions/use-actions';
import {
  AppContextProvider,
  type AppContextValue,
  useAppContext,
  useAppLoader,
} from '../app/configuration/app-context';
import { DisconnectedPage } from '../app/error-pages/disconnected-page';
import { OfflinePage } from '../app/error-pages/offline-page';
import { UpdatePage } from '../app/error-pages/update-page';
import { interceptLinks } from '../app/router/navigation';
import { NewVersionNotice } from '../components/online/new-version-notice';
import { ToastProvider } from '../components/toast/toast';
import { WaitOverlay } from '../components/wait-overlay/wait-overlay';
import { LoginPage } from '../pages/login/login-page';
import { routeTable } from './routes/route-table';
import { RouteView } from './routes/route-view';
import { useRoute } from './routes/use-route';
import { BootShell } from './shell/boot-shell';
import { PreLoginShell } from './shell/pre-login-shell';
import { loadLoggedInShell, rememberLoggedIn } from './shell/session-hint';

/** Its own chunk: the login page does not wait for the menus, dialogs and live connection. */
const LoggedInShell = lazy(() => loadLoggedInShell().then((module) => ({ default: module.LoggedInShell })));

/** The same frame as index.html's first paint, so the page never turns blank while the app starts. */
function StartingUp() {
  return (
    <>
      <BootShell />
      <WaitOverlay active />
    </>
  );
}

/** Page selection once the configuration is known (spec 2.1). */
function Screen() {
  const { configuration, user } = useAppContext();
  // The plugins that are off have no rows in the table: their addresses are unknown (404).
  const table = routeTable(configuration.plugins);
  const route = useRoute(table);

  if (user) {
    return (
      <Suspense fallback={<StartingUp />}>
        <LoggedInShell user={user} configuration={configuration} route={route} table={table} />
      </Suspense>
    );
  }
  // The login page is shown at the address asked for, so after logging in the user lands there.
  if (route.loginRequired) {
    return (
      <PreLoginShell contactEmail={configuration.contact_email}>
        <LoginPage />
      </PreLoginShell>
    );
  }
  return (
    <PreLoginShell contactEmail={configuration.contact_email}>
      <RouteView route={route} table={table} />
    </PreLoginShell>
  );
}

function Root() {
  const { state, reload, showDisconnected } = useAppLoader();
  const context = useMemo<AppContextValue | null>(() => {
    if (state.status !== 'ready') return null;
    const { configuration } = state;
    const user = configuration.user.is_authenticated ? configuration.user : null;
    rememberLoggedIn(user !== null);
    return { configuration, user, reloadConfiguration: reload, showDisconnected };
  }, [state, reload, showDisconnected]);

  switch (state.status) {
    case 'loading':
      return <StartingUp />;
    case 'offline':
      return (
        <PreLoginShell showLogin={false} showLanguage={false}>
          <OfflinePage onRetry={() => void reload()} />
        </PreLoginShell>
      );
    case 'update':
      // Spec 2.1: no language selection and no feedback tab while the server is updated.
      return (
        <PreLoginShell showLogin={false} showLanguage={false}>
          <UpdatePage />
        </PreLoginShell>
      );
    case 'disconnected':
      return (
        <PreLoginShell showLogin={false} showLanguage={false}>
          <DisconnectedPage />
        </PreLoginShell>
      );
    case 'ready':
      return (
        <AppContextProvider value={context}>
          <Screen />
        </AppContextProvider>
      );
  }
}

/** The whole web application: toasts, start-up, shell and router. */
export function App() {
  useEffect(() => interceptLinks(), []);
  const [actions] = useState(() => new ActionRegistry());
  return (
    <ToastProvider>
      <ActionsProvider registry={actions}>
        <Root />
        <NewVersionNotice />
      </ActionsProvider>
    </ToastProvider>
  );
}
