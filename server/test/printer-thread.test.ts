import { createRequire } from 'node:module';
import path from 'node:path';
import { documentsApi } from '@scriptorium/common/api/endpoints/documents';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { describe, expect, it } from 'vitest';
import { printerFor } from '../src/modules/documents/export/printer';
import { ENGINES, useServer } from './harness';

/**
 * Issue 50: loading playwright-core blocked the event loop some 1.4 s at a process's first PDF
 * export (it is loaded on first use, issue 52), and every request waited. The server's printer
 * now drives the browser from a thread of its own: this thread, the event loop's, never loads
 * playwright-core, however many PDFs it answers (the stall itself: bench/hardening.ts, part 4).
 */

const PAPER = fixturePaper(
  { sections: 1, equations: 1, citations: 2, figures: 0, paragraphs: 1 },
  'First paper',
);

/** The files of playwright-core this thread has loaded. */
function playwrightHere(): string[] {
  const marker = `${path.sep}playwright-core${path.sep}`;
  return Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes(marker));
}

describe.each(ENGINES)('the first PDF export of a process (%s)', (engine) => {
  const server = useServer(engine);

  it('prints without loading playwright-core on the event loop’s thread', async () => {
    expect(playwrightHere()).toEqual([]);
    const { browser } = await server().loggedInUser();
    const id = (await browser.call(documentsApi.create, {})).json<{ id: number }>().id;
    await server()
      .ctx.db.updateTable('documents')
      .set({
        content: JSON.stringify(PAPER.doc.toJSON()),
        content_version: 0,
        version: 0,
        title: 'First paper',
      })
      .where('id', '=', id)
      .execute();
    const answer = await browser.call(documentsApi.export, { id: String(id), format: 'pdf' });
    expect(answer.status, answer.text).toBe(200);
    expect(new TextDecoder().decode(answer.bytes.slice(0, 5))).toBe('%PDF-');
    // The printer's thread printed it and told its state: nothing printing, no context open.
    expect(printerFor(server().ctx.config).load).toEqual({ printing: 0, waiting: 0 });
    expect(printerFor(server().ctx.config).contexts).toBe(0);
    expect(playwrightHere()).toEqual([]);
  }, 120_000);
});
