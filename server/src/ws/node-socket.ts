import { type SocketFactory, type SocketLike, socketWrapper } from '@scriptorium/common/ws/connector';
import { WebSocket } from 'ws';

/**
 * A `ws` client shaped like the browser's WebSocket, so that Node code (API tests, benchmarks)
 * drives the same WebSocketConnector the browser runs. Headers carry what a browser would send
 * by itself: the session cookie and the page's Origin.
 */
export function nodeSocketFactory(headers: Record<string, string> = {}): SocketFactory {
  return (url) => nodeSocket(url, headers);
}

export function nodeSocket(url: string, headers: Record<string, string> = {}): SocketLike {
  const socket = new WebSocket(url, { headers });
  const wrapper = socketWrapper(socket);
  socket.on('open', () => wrapper.onopen?.());
  socket.on('message', (data, isBinary) => wrapper.onmessage?.({ data: isBinary ? data : data.toString() }));
  socket.on('close', (code, reason) => wrapper.onclose?.({ code, reason: reason.toString() }));
  // A refused upgrade or a reset connection: 'close' follows, which is what the connector acts on.
  socket.on('error', () => wrapper.onerror?.());
  return wrapper;
}
