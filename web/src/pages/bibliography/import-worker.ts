/// <reference lib="webworker" />
import { importBibliography } from '@scriptorium/common/bibliography/import-entries';

/** Parses a dropped, chosen or pasted file off the main thread: a large .bib never freezes the tab. */
self.onmessage = (event: MessageEvent<{ text: string }>) => {
  try {
    const result = importBibliography(event.data.text);
    self.postMessage({ ok: true, result });
  } catch (error) {
    self.postMessage({ ok: false, message: String(error) });
  }
};
