import { schema } from '@scriptorium/common/editor/schema';
import { PRINT_DATA_PATH, type PrintPayload } from '@scriptorium/common/export/print-page';
import { isLanguage, negotiateLanguage } from '@scriptorium/common/i18n/languages';
import i18next from 'i18next';
import { EditorState, type Plugin } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { initI18n } from '../i18n/i18n';
import { academicKey, academicPlugins } from '../pages/editor/academic/academic-plugin';
import { academicNodeViews } from '../pages/editor/academic/academic-views';
import { partLabelPlugin, tocPlugin } from '../pages/editor/editor-plugins';
import { partNodeViews } from '../pages/editor/part-views';
import { footnoteMarkerView, printedNotes } from '../pages/editor/printed-notes';
import 'virtual:font-faces.css';
import '../styles/tokens.css';
import '../styles/base.css';
import 'prosemirror-view/style/prosemirror.css';
import 'prosemirror-tables/style/tables.css';
import '../pages/editor/editor.css';
import '../pages/editor/academic/academic.css';
import './print.css';

/**
 * The print page (issue 19): the server's PDF export opens web/print.html in Chromium and prints
 * it, so that the PDF is the editor's own rendering of the document: the same schema views, node
 * views, numbering, citeproc worker and styles, read-only and without the editor's chrome.
 *
 * The server answers every request of this page itself (server/.../export/print-page.ts):
 * PRINT_DATA_PATH with the document, the app's files from the build, the figures' images from the
 * export's input. Nothing else is reachable. When everything is drawn (citations rendered, images
 * decoded, fonts loaded) the page sets `data-print-ready` on <html>; the server prints then.
 */

/** A citation style that cannot load leaves its citations as keys, as in the editor; print then. */
const CITATIONS_WAIT_MS = 15_000;

function documentLanguage(tag: string) {
  const lower = tag.toLowerCase();
  return isLanguage(lower) ? lower : negotiateLanguage(tag);
}

async function main(): Promise<void> {
  const payload = (await (await fetch(PRINT_DATA_PATH)).json()) as PrintPayload;
  const doc = schema.nodeFromJSON(payload.doc);
  // The document's texts (part labels, "Notes") in its own language, not a reader's.
  const language = documentLanguage(String(doc.attrs.language || 'en-US'));
  await initI18n(language);
  document.documentElement.lang = String(doc.attrs.language || language);
  const t = i18next.getFixedT(language, 'editor');
  const translate = (key: string, options?: Record<string, unknown>) => String(t(key, options));
  const partContext = { t: translate, editable: () => false, editContributor: () => {} };
  const academicViews = academicNodeViews({ t: translate, edit: () => {} });

  let citationsDrawn: () => void = () => {};
  const citations = new Promise<void>((resolve) => {
    citationsDrawn = resolve;
  });
  const plugins: Plugin[] = [
    ...academicPlugins(),
    partLabelPlugin({ carets: () => [], label: (key) => translate(key) }),
    tocPlugin(),
  ];
  const root = document.getElementById('print-root');
  if (!root) throw new Error('print.html has no #print-root');
  const paper = root.appendChild(document.createElement('div'));
  paper.className = 'editor-paper print-paper';
  const view = new EditorView(paper, {
    state: EditorState.create({ doc, plugins }),
    editable: () => false,
    attributes: { class: 'editor-document' },
    nodeViews: {
      footnote: footnoteMarkerView,
      ...partNodeViews(partContext),
      ...academicViews,
    },
    dispatchTransaction(this: EditorView, tr) {
      this.updateState(this.state.apply(tr));
      const academic = academicKey.getState(this.state);
      if (academic?.rendered?.signature === academic?.signature) citationsDrawn();
    },
  });

  await Promise.race([citations, new Promise((resolve) => setTimeout(resolve, CITATIONS_WAIT_MS))]);
  // Footnotes read at the end, numbered as in the text (CSS counters number the markers).
  paper.append(printedNotes(view, translate('academic.notes'), academicViews).section);
  await Promise.all(
    [...document.images].map((image) => image.decode().catch(() => undefined /* shown as broken */)),
  );
  await document.fonts.ready;
  document.title = doc.firstChild?.textContent || document.title;
  document.documentElement.dataset.printReady = 'true';
}

main().catch((error: unknown) => {
  // The server waits for one of the two marks; this one makes the export fail with the reason.
  document.documentElement.dataset.printError = error instanceof Error ? error.message : String(error);
});
