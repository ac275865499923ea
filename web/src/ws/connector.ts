// The browser binding of the live connection: the connector itself is platform-neutral (common),
// so that server tests and benchmarks drive the very same client code as the browser.
export {
  type ConnectionStatus,
  nativeSocket as browserSocket,
  type SocketFactory,
  type SocketLike,
  WebSocketConnector,
  type WebSocketConnectorOptions,
} from '@scriptorium/common/ws/connector';
