// One process's first PDF, and how long its event loop stalled meanwhile (issue 50): run by
// bench/hardening.ts (part 4) as a fresh process per mode, so that playwright-core is not loaded
// yet. `thread`: the server's printer (PrinterThread: the browser driven from a thread of its
// own); `inline`: the Printer on this thread, as the server printed before (the baseline);
// `none`: no PDF, the watch alone for as long as `thread` took (what the machine's load alone
// stalls: the first argument after the mode, in ms). The
// export HTML is made before the watch starts (the server makes it in an export worker). Prints
// one JSON line: the longest stall and the p99 of the loop's delay (monitorEventLoopDelay), the
// number of loop turns of a 5 ms timer that ran late by more than 50 ms, the wall time, and this
// process's resident memory once the PDF is made (the browser's own processes not counted).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fixturePaper } from '@scriptorium/common/export/fixture-paper';
import { prepareDocument } from '@scriptorium/common/export/model';
import { loadCsl } from '../../server/src/modules/documents/export/csl-files';
import { Printer, PrinterThread } from '../../server/src/modules/documents/export/printer';
import { typesetHtml } from '../../server/src/modules/documents/export/typeset-html';

const mode = (['inline', 'none'] as const).find((name) => name === process.argv[2]) ?? 'thread';
const config = {
  pdfPrints: 1,
  pdfTimeLimitMs: 300_000,
  pdfMaxPages: 1_000,
  workerStartLimitMs: 300_000,
  heavyWorkNiceness: 10,
};
const paper = fixturePaper({ sections: 4, equations: 4, citations: 8, figures: 2, paragraphs: 4 });
paper.input.csl = await loadCsl('apa', 'en-US');
const { html, metadata } = typesetHtml(prepareDocument(paper.input));
// The inline mode's module is loaded before the watch too: only playwright-core is left to load.
const { typesetPdf } = await import('../../server/src/modules/documents/export/typeset');

const delay = monitorEventLoopDelay({ resolution: 5 });
let last = performance.now();
let lateTurns = 0;
const ticker = setInterval(() => {
  const now = performance.now();
  if (now - last > 55) lateTurns++;
  last = now;
}, 5);
delay.enable();
const started = performance.now();
let bytes = 0;
let rssMiB = 0;
const resident = () => process.memoryUsage().rss / 2 ** 20;
if (mode === 'none') {
  await new Promise((resolve) => setTimeout(resolve, Number(process.argv[3] || 5_000)));
  delay.disable();
  rssMiB = resident();
} else if (mode === 'thread') {
  const printer = new PrinterThread(config);
  bytes = (await printer.typeset(config.pdfMaxPages, html, metadata)).byteLength;
  delay.disable();
  rssMiB = resident();
  await printer.close();
} else {
  const printer = new Printer(config);
  bytes = (await typesetPdf(printer, config.pdfMaxPages, html, metadata)).byteLength;
  delay.disable();
  rssMiB = resident();
  await printer.close();
}
const wallMs = performance.now() - started;
clearInterval(ticker);
console.log(
  JSON.stringify({
    mode,
    bytes,
    maxStallMs: delay.max / 1e6,
    p99Ms: delay.percentile(99) / 1e6,
    lateTurns,
    wallMs,
    rssMiB,
  }),
);
