import { type AppMessage, BASE_SERVER_APP_SCHEMAS } from '@scriptorium/common/ws/messages';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/dialog/dialog';
import { type ConnectionStatus, type SocketFactory, WebSocketConnector } from './connector';
import './live-connection.css';

const LiveConnectionContext = createContext<WebSocketConnector | null>(null);

type LiveListener = (message: AppMessage) => void;
/** Who listens to the app-wide socket's messages (system messages are the connection's own). */
const LiveListenersContext = createContext<Set<LiveListener> | null>(null);

/**
 * Calls `handler` with every message of `type` that arrives on the app-wide connection while the
 * component is mounted (e.g. the overview's live document titles). Nothing outside LiveConnection.
 */
export function useLiveMessage<Message extends AppMessage>(
  type: Message['type'],
  handler: (message: Message) => void,
) {
  const listeners = useContext(LiveListenersContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  }, [handler]);
  useEffect(() => {
    if (!listeners) return;
    const listener: LiveListener = (message) => {
      if (message.type === type) latest.current(message as Message);
    };
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, [listeners, type]);
}

/** The app-wide connector, for components that send over it; null until it is created. */
export function useLiveConnection(): WebSocketConnector | null {
  return useContext(LiveConnectionContext);
}

export interface LiveConnectionProps {
  /** ws_url_base from the configuration. */
  wsUrlBase: string;
  /** The failed-auth handler; by default the browser goes to /. */
  onAccessDenied?(): void;
  /** Tests hand in fake sockets; the browser's WebSocket otherwise. */
  createSocket?: SocketFactory;
  children?: ReactNode;
}

/**
 * The logged-in app's connection to ${ws_url_base}/base/: one connector for as long as this is
 * mounted. It tells the user when the connection is lost (spec section 8) and shows the system
 * messages staff send.
 */
export function LiveConnection({ wsUrlBase, onAccessDenied, createSocket, children }: LiveConnectionProps) {
  const { t } = useTranslation('ws');
  const [connector, setConnector] = useState<WebSocketConnector | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>({ state: 'connecting', unsent: 0 });
  const [systemMessages, setSystemMessages] = useState<string[]>([]);
  const [listeners] = useState(() => new Set<LiveListener>());
  // The handler may change on every render; the connector must not be rebuilt for that.
  const accessDenied = useRef(onAccessDenied);
  useEffect(() => {
    accessDenied.current = onAccessDenied;
  }, [onAccessDenied]);

  useEffect(() => {
    // Made and opened in a task of its own: the first screen's effects all run in one task, and
    // the connector's start (its random session id, the WebSocket) was 8 ms of its 31 here;
    // Lighthouse's phone counts every task at 4x, less 50 ms (issue 23).
    let created: WebSocketConnector | null = null;
    const opening = setTimeout(() => {
      created = new WebSocketConnector({
        serverMessages: BASE_SERVER_APP_SCHEMAS,
        wsUrlBase,
        createSocket,
        onStatus: setStatus,
        onMessage: (message) => {
          const text = message.message;
          if (message.type === 'system_message' && typeof text === 'string') {
            setSystemMessages((waiting) => [...waiting, text]);
          }
          for (const listener of listeners) listener(message);
        },
        onAccessDenied: () => {
          if (accessDenied.current) accessDenied.current();
          else window.location.assign('/');
        },
      });
      created.open();
      setConnector(created);
    });
    return () => {
      clearTimeout(opening);
      created?.close();
      setConnector(null);
    };
  }, [wsUrlBase, createSocket, listeners]);

  // Spec 2.1: leaving while something is unsaved asks first.
  const unsaved = status.unsent > 0;
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const dismiss = () => setSystemMessages((waiting) => waiting.slice(1));

  return (
    <LiveConnectionContext.Provider value={connector}>
      <LiveListenersContext.Provider value={listeners}>
        {/* Always present, so that screen readers announce the notice when it appears. */}
        <div role="status" aria-label={t('connectionStatus')}>
          {status.state === 'disconnected' ? (
            <p className="live-connection-notice" data-unsaved={unsaved}>
              {unsaved ? t('unsavedWarning') : t('disconnected')}
            </p>
          ) : null}
        </div>
        {systemMessages.length ? (
          // The dialog's own close button (and Escape) dismisses it; the next waiting message follows.
          <Dialog title={t('systemMessageTitle')} onClose={dismiss}>
            <p className="system-message-text">{systemMessages[0]}</p>
          </Dialog>
        ) : null}
        {children}
      </LiveListenersContext.Provider>
    </LiveConnectionContext.Provider>
  );
}
