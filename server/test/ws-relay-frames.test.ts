import type { Counters } from '@scriptorium/common/ws/messages';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { useDocumentEditors } from './document-editors';
import { ENGINES, type TestClient, useServer } from './harness';
import { bodyParagraphStart, cookieHeader, waitFor, wsUrlBase } from './ws-support';

/** Frames the server stamps with counters but does not count (the others raise s by one). */
const UNCOUNTED = new Set(['ack', 'pong', 'request_resend', 'restart', 'access_denied', 'redirect']);
/** The per-socket envelope at the end of a counted frame. */
const ENVELOPE = /,"c":(\d+),"s":(\d+)\}$/;

/**
 * A document socket driven by hand that keeps every frame as the bytes that came, and counts as
 * a client does: what it sent (c) and the server's counted frames it took in order (s).
 */
class RawViewer {
  readonly texts: string[] = [];
  sent = 0;
  received = 0;
  private wake: (() => void) | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      expect(isBinary).toBe(false);
      const text = data.toString();
      const frame = JSON.parse(text) as { type: string } & Counters;
      // Every new counted frame of the server is the next one, no gap (a replay repeats one taken).
      if (!UNCOUNTED.has(frame.type) && frame.s > this.received) {
        expect(frame.s).toBe(this.received + 1);
        this.received = frame.s;
      }
      this.texts.push(text);
      this.wake?.();
    });
  }

  static async open(url: string, headers: Record<string, string>): Promise<RawViewer> {
    const socket = new WebSocket(url, { headers });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new RawViewer(socket);
  }

  send(body: Record<string, unknown>, counted = true): void {
    if (counted) this.sent += 1;
    this.socket.send(JSON.stringify({ ...body, c: this.sent, s: this.received }));
  }

  /** The first frame from index `from` on whose text matches. */
  async frame(match: (text: string) => boolean, from = 0): Promise<{ text: string; index: number }> {
    for (;;) {
      const index = this.texts.findIndex((text, at) => at >= from && match(text));
      if (index >= 0) return { text: this.texts[index], index };
      if (this.socket.readyState !== WebSocket.OPEN) throw new Error('socket closed');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

describe.each(ENGINES)('relayed frames: one body for every socket (%s)', (engine) => {
  const server = useServer(engine);
  const { user, createDocument, open } = useDocumentEditors(server);

  async function viewer(browser: TestClient, id: number, session: string): Promise<RawViewer> {
    const raw = await RawViewer.open(`${wsUrlBase(server().baseUrl)}/document/${id}/`, {
      cookie: cookieHeader(browser),
      origin: server().baseUrl,
    });
    await raw.frame((text) => text.includes('"type":"welcome"'));
    raw.send({ type: 'subscribe', session, seen: 0, next: 1 });
    await raw.frame((text) => text.includes('"type":"doc_data"'));
    return raw;
  }

  it('sends every socket the same bytes of a relayed diff, each with its own counters, and takes each its acks', async () => {
    const owner = await user();
    const id = await createDocument(owner.browser, 'Relayed');
    const writer = await open(owner.browser, id);
    const viewers: RawViewer[] = [];
    for (let index = 0; index < 3; index++) {
      const raw = await viewer(owner.browser, id, `relay-viewer-${index}`);
      // Counters that differ from socket to socket: viewer i has sent i more counted frames
      // (catch_up at the current version: nothing to answer), and the earlier viewers got one
      // participants message more for each later one.
      for (let extra = 0; extra < index; extra++) raw.send({ type: 'catch_up', v: 0 });
      viewers.push(raw);
    }

    const relayed = async (word: string, from: number[]) =>
      Promise.all(viewers.map((raw, index) => raw.frame((text) => text.includes(word), from[index])));
    writer.edit((tr) => tr.insertText('Shared', bodyParagraphStart(tr.doc)));
    await writer.settled();
    const first = await relayed('Shared', [0, 0, 0]);

    const bodies = new Set(first.map(({ text }) => text.replace(ENVELOPE, '}')));
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0])).toMatchObject({ type: 'diff', v: 0 });
    const counters = first.map(({ text }) => JSON.parse(text) as Counters);
    counters.forEach((frame, index) => {
      expect(first[index].text).toMatch(ENVELOPE);
      // c: what this socket sent; s: this socket's counted frames (checked in order on arrival).
      expect(frame.c).toBe(viewers[index].sent);
      expect(frame.s).toBe(viewers[index].received);
    });
    expect(new Set(counters.map((frame) => frame.s)).size).toBe(3);

    // A resend of the relayed frame (asked for as after a lost frame) is the same bytes again.
    const resent = viewers[0];
    resent.socket.send(JSON.stringify({ type: 'request_resend', from: counters[0].s - 1 }));
    const again = await resent.frame((text) => text.includes('Shared'), first[0].index + 1);
    expect(again.text).toBe(first[0].text);

    // Each socket acknowledges on its own counters; the next relay goes on from there, and a
    // wrong acknowledgement would have broken the socket (restart, close).
    for (const raw of viewers) raw.send({ type: 'ack' }, false);
    writer.edit((tr) => tr.insertText('Second', bodyParagraphStart(tr.doc)));
    await writer.settled();
    const second = await relayed(
      'Second',
      first.map(({ index }) => index + 1),
    );
    expect(new Set(second.map(({ text }) => text.replace(ENVELOPE, '}'))).size).toBe(1);
    second.forEach(({ text }, index) => {
      expect((JSON.parse(text) as Counters).s).toBe(counters[index].s + 1);
    });
    for (const raw of viewers) {
      expect(raw.texts.some((text) => text.includes('"type":"restart"'))).toBe(false);
      expect(raw.socket.readyState).toBe(WebSocket.OPEN);
      raw.socket.close();
    }
    await waitFor(() => viewers.every((raw) => raw.socket.readyState === WebSocket.CLOSED), 'viewers closed');
  });
});
