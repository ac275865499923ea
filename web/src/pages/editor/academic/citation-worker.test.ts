import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CslJson } from '@scriptorium/common/bibliography/citation-render';
import { renderDocumentCitations } from '@scriptorium/common/bibliography/cluster-render';
import { type CompactNode, expandNode } from '@scriptorium/common/bibliography/csl-compact';
import type { EntryData } from '@scriptorium/common/bibliography/types';
import { describe, expect, it, vi } from 'vitest';
import { type CitationAnswer, type CitationRequest, citationMessageHandler } from './citation-worker';

// The worker's style files come from web/public/csl, as the browser would fetch them.
vi.mock('../../bibliography/csl/load-csl', () => {
  const asset = (name: string) =>
    JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, `../../../../public/csl/${name}.json`), 'utf8'),
    );
  return {
    loadStyleAndLocales: async (style: string) => ({
      style: expandNode(asset(`styles/${style}`) as CompactNode) as unknown as CslJson,
      locales: { 'en-US': asset('locale-data/en-US') },
    }),
  };
});
vi.mock('@scriptorium/common/bibliography/cluster-render', async (importOriginal) => {
  const real = await importOriginal<typeof import('@scriptorium/common/bibliography/cluster-render')>();
  return { ...real, renderDocumentCitations: vi.fn(real.renderDocumentCitations) };
});

const posted: CitationAnswer[] = [];
const handle = citationMessageHandler((answer) => posted.push(answer));
const worker = {
  onmessage: (event: { data: CitationRequest }) => handle(event as MessageEvent<CitationRequest>),
};

const entry = (family: string, title: string): EntryData =>
  ({
    bib_type: 'book',
    fields: {
      author: [{ family: [{ type: 'text', text: family }], given: [{ type: 'text', text: 'A.' }] }],
      title: [{ type: 'text', text: title }],
      date: '1990',
    },
    cats: [],
  }) as unknown as EntryData;

function request(requestId: number, ids: string[]): CitationRequest {
  return {
    requestId,
    style: 'apa',
    locale: 'en-US',
    entries: JSON.stringify([
      ['7-1', JSON.stringify(entry('Lovelace', 'Notes'))],
      ['7-2', JSON.stringify(entry('Babbage', 'Engines'))],
    ]),
    clusters: ids.map((id) => ({ format: 'autocite', references: [{ id }] })),
  };
}

async function answers(count: number): Promise<CitationAnswer[]> {
  await vi.waitFor(() => expect(posted.length).toBeGreaterThanOrEqual(count));
  return posted.splice(0);
}

describe('the editor citation worker', () => {
  it('answers nothing to a warm-up and answers the same request after it from the warm-up', async () => {
    const render = vi.mocked(renderDocumentCitations);
    render.mockClear();
    worker.onmessage({ data: request(0, ['7-1', '7-2']) });
    worker.onmessage({ data: request(5, ['7-1', '7-2']) });
    const [answer] = await answers(1);
    expect(answer).toEqual({
      requestId: 5,
      ok: true,
      styleClass: 'in-text',
      citations: ['(Lovelace, 1990)', '(Babbage, 1990)'],
      bibliography: [expect.stringContaining('Babbage, A. (1990).'), expect.stringContaining('Lovelace, A.')],
      authors: ['', ''],
      layout: { hangingIndent: true, secondFieldAlign: null, lineSpacing: 2, entrySpacing: 0, maxOffset: 0 },
    });
    expect(render).toHaveBeenCalledTimes(1);
    expect(posted).toEqual([]);
  });

  it('renders a request that differs from the warm-up', async () => {
    const render = vi.mocked(renderDocumentCitations);
    render.mockClear();
    worker.onmessage({ data: request(0, ['7-1']) });
    worker.onmessage({ data: request(6, ['7-2']) });
    const [answer] = await answers(1);
    expect(answer).toMatchObject({ requestId: 6, ok: true, citations: ['(Babbage, 1990)'] });
    expect(render).toHaveBeenCalledTimes(2);
  });
});
