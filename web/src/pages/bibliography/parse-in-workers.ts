import { mergeParts, splitForParallelParse } from '@scriptorium/common/bibliography/import-bibtex';
import {
  detectFormat,
  explainEmptyImport,
  type ImportReport,
} from '@scriptorium/common/bibliography/import-entries';

type WorkerAnswer = { ok: true; result: ImportReport } | { ok: false; message: string };

/** Below this a file is one part: a worker's start-up would cost more than it saves. */
const PART_SIZE = 250_000;
const MAX_PARTS = 32;

function parseOne(worker: Worker, text: string): Promise<ImportReport> {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      if (event.data.ok) resolve(event.data.result);
      else reject(new Error(event.data.message));
    };
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage({ text });
  });
}

/**
 * Reads a bibliography file off the main thread (a 10,000-entry file must not freeze the page).
 * A large BibTeX file is cut into parts at entry boundaries (see splitForParallelParse) that a
 * pool of workers, one per core, parses in parallel; `onProgress` gets the share of the file
 * read so far (0 to 1) after each part. Other formats are read whole, with no steps to report.
 */
export async function parseInWorkers(
  text: string,
  onProgress: (fraction: number) => void,
): Promise<ImportReport> {
  const cores = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  const wanted = Math.min(MAX_PARTS, Math.max(cores, Math.ceil(text.length / PART_SIZE)));
  // The head tells the format; sniffing the whole of a large JSON file would parse it twice.
  const isBibtex = detectFormat(text.slice(0, 50_000)).format === 'biblatex';
  const parts = isBibtex ? splitForParallelParse(text, wanted) : [{ text, lineOffset: 0 }];
  const workers = Array.from(
    { length: Math.min(cores, parts.length) },
    () => new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module' }),
  );
  try {
    if (parts.length === 1) return await parseOne(workers[0], text);
    const results: ImportReport[] = new Array(parts.length);
    let next = 0;
    let readChars = 0;
    const total = parts.reduce((sum, part) => sum + part.text.length, 0);
    await Promise.all(
      workers.map(async (worker) => {
        while (next < parts.length) {
          const index = next++;
          results[index] = await parseOne(worker, parts[index].text);
          readChars += parts[index].text.length;
          onProgress(readChars / total);
        }
      }),
    );
    // A part may hold no entry (only @string macros): only the whole file can be "empty".
    return explainEmptyImport({ format: 'biblatex', ...mergeParts(results, parts) });
  } finally {
    for (const worker of workers) worker.terminate();
  }
}
