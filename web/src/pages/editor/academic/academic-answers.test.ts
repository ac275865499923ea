// @vitest-environment jsdom
import { DEFAULT_LAYOUT } from '@scriptorium/common/bibliography/layout';
import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CitationAnswer, CitationRequest } from './citation-worker';
import { citeBook } from './testing';

/** The citation worker, as the editor page sees it: requests are kept, answers are sent by the test. */
class FakeWorker extends EventTarget {
  static current: FakeWorker | null = null;
  readonly requests: CitationRequest[] = [];
  constructor() {
    super();
    FakeWorker.current = this;
  }
  postMessage(request: CitationRequest) {
    this.requests.push(request);
  }
  answer(request: CitationRequest, citation: string) {
    const data: CitationAnswer = {
      requestId: request.requestId,
      ok: true,
      styleClass: 'in-text',
      citations: request.clusters.map(() => citation),
      bibliography: [`Entry of ${citation}`],
      authors: request.clusters.map(() => ''),
      layout: DEFAULT_LAYOUT,
    };
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  vi.stubGlobal('Worker', FakeWorker);
});
const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

async function citedEditor() {
  const plugin = await import('./academic-plugin');
  const doc = createDocument(schema, standardArticle, { title: 'T', language: 'en-US' });
  let start = 0;
  doc.forEach((node, offset) => {
    if (node.attrs.id === 'body') start = offset + 2;
  });
  const state = EditorState.create({ doc, plugins: plugin.academicPlugins() });
  const view = new EditorView(document.body.appendChild(document.createElement('div')), {
    state: state.apply(state.tr.setSelection(TextSelection.create(doc, start))),
  });
  views.push(view);
  citeBook(view, '7-1');
  await vi.advanceTimersByTimeAsync(200);
  const worker = FakeWorker.current as FakeWorker;
  const request = worker.requests.at(-1) as CitationRequest;
  expect(request.requestId).toBeGreaterThan(0);
  const shown = () => plugin.academicKey.getState(view.state)?.rendered?.citations ?? [];
  return { view, worker, request, shown, pause: plugin.TYPING_PAUSE_MS };
}

describe("the citation worker's answers", () => {
  it('are shown at once when nobody types', async () => {
    const { worker, request, shown } = await citedEditor();
    worker.answer(request, '(T, n.d.)');
    expect(shown()).toEqual(['(T, n.d.)']);
  });

  it('wait while the user types, and are shown once the typing pauses', async () => {
    const { view, worker, request, shown, pause } = await citedEditor();
    view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    worker.answer(request, '(T, n.d.)');
    expect(shown()).toEqual([]);
    await vi.advanceTimersByTimeAsync(pause / 2);
    view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true }));
    await vi.advanceTimersByTimeAsync(pause - 10);
    expect(shown()).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(shown()).toEqual(['(T, n.d.)']);
  });

  it('are shown after two seconds however long the typing goes on', async () => {
    const { view, worker, request, shown } = await citedEditor();
    view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    worker.answer(request, '(T, n.d.)');
    for (let elapsed = 0; elapsed < 1900; elapsed += 100) {
      view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(shown()).toEqual([]);
    view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    await vi.advanceTimersByTimeAsync(300);
    expect(shown()).toEqual(['(T, n.d.)']);
  });

  it('are made ahead for a state made before its view, not for one made while a view shows it', async () => {
    const { view, worker } = await citedEditor();
    const { academicPlugins } = await import('./academic-plugin');
    const warmUps = () => worker.requests.filter((request) => request.requestId === 0).length;
    const before = warmUps();
    EditorState.create({ doc: view.state.doc, plugins: academicPlugins() });
    expect(warmUps()).toBe(before);
    view.destroy();
    EditorState.create({ doc: view.state.doc, plugins: academicPlugins() });
    expect(warmUps()).toBe(before + 1);
    expect(worker.requests.at(-1)?.clusters).toEqual([
      {
        format: 'autocite',
        references: [{ id: '7-1', prefix: '', locator: '' }],
        footnotes: 0,
        inFootnote: false,
      },
    ]);
  });
});
