import { reviewStepsAllowed, trackTransaction, UNTRACKED } from '@scriptorium/common/editor/track-changes';
import { isHistoryTransaction } from 'prosemirror-history';
import { type EditorState, Selection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AcademicPanelId } from './academic/academic-panels';
import { academicNodeViews } from './academic/academic-views';
import type { PanelId } from './editor-action-spec';
import { nestedEditorPlugins, readDomSelectionBeforeRedraw } from './editor-plugins';
import { featureNodeViews } from './features';
import { partNodeViews } from './part-views';
import { printedNotes } from './printed-notes';
import { keepSelectionFromReact } from './react-selection';
import { isSuggesting } from './review/review-plugin';
import type { DocumentCollab } from './use-document-collab';

export interface EditorViewOptions {
  collab: DocumentCollab;
  mount: RefObject<HTMLDivElement | null>;
  viewRef: RefObject<EditorView | null>;
  labels: RefObject<(key: string) => string>;
  activeThread: number | null;
  /** Opens a panel of the page (a part's contributor, an academic element's dialog). */
  openPanel(panel: PanelId, options?: { authorIndex?: number | null }): void;
  notify(text: string): void;
}

/**
 * The ProseMirror view of the page: created once the first document arrived, following the
 * session's state after that, redrawn when what its decorations read changed (carets, rights,
 * highlighted threads, language); printed with its notes at the end. Null until created.
 */
export function useEditorView(options: EditorViewOptions): EditorView | null {
  const { collab, mount, viewRef } = options;
  const { t, i18n } = useTranslation('editor');
  const [view, setView] = useState<EditorView | null>(null);
  const viewInputs = useRef('');
  const latest = useRef(options);
  latest.current = options;
  const { connection, caretsRef, canWriteRef, reviewRef } = collab;
  // What the view's decorations and editability read besides its state.
  const inputsKey = () =>
    JSON.stringify([
      caretsRef.current,
      canWriteRef.current,
      [...reviewRef.current.highlighted],
      reviewRef.current.active,
      connection.mustSuggest,
      i18n.language,
    ]);
  /**
   * Carets, rights, highlighted threads or the language changed: redraw decorations and
   * editability (not on every frame: a redraw walks the decorations of the whole document).
   * The document's language and paper size go on the editor's element.
   */
  const follow = (current: EditorView, state: EditorState) => {
    const inputs = inputsKey();
    if (inputs !== viewInputs.current) {
      if (viewInputs.current) {
        readDomSelectionBeforeRedraw(current, state);
        current.setProps({});
      }
      viewInputs.current = inputs;
    }
    // Set only when changed: setting the editor's lang, even to the same value, may make the
    // browser recompute the style of the whole document on every keystroke.
    setChanged(current.dom, 'lang', String(state.doc.attrs.language));
    setChanged(current.dom, 'data-paper', String(state.doc.attrs.paper_size));
  };
  const followLatest = useRef(follow);
  followLatest.current = follow;
  useLayoutEffect(() => {
    const state = connection.session.state;
    if (!state || !mount.current) return;
    let current = viewRef.current;
    if (!current) {
      current = createView(mount.current, state, latest, t);
      keepSelectionFromReact(current.dom);
      viewRef.current = current;
      setView(current);
      // Ready to write on arrival, as in a word processor: the caret at the start, i.e. in the
      // title of a new document. (Typing before this went to the page and scrolled it.)
      if (canWriteRef.current) {
        current.dispatch(current.state.tr.setSelection(Selection.atStart(current.state.doc)));
        current.focus();
      }
    } else if (current.state !== state) {
      current.updateState(state);
    }
    follow(current, current.state);
  });
  // The page does not render on a keystroke or a co-author's caret: after each painted frame
  // that changed anything, the view follows here what it reads besides its state.
  useEffect(() => {
    let seen = connection.getVersion();
    return connection.subscribe(() => {
      const version = connection.getVersion();
      const current = viewRef.current;
      if (version === seen || !current || current.isDestroyed) return;
      seen = version;
      latest.current.collab.readInputs();
      followLatest.current(current, current.state);
    });
  }, [connection, viewRef]);
  usePrintedNotes(viewRef, mount);
  return view;
}

type Translate = (key: string, options?: Record<string, unknown>) => unknown;

/** The view over the session's state, its node views and its dispatch (suggestion mode, carets). */
function createView(
  mount: HTMLDivElement,
  state: EditorState,
  latest: RefObject<EditorViewOptions>,
  t: Translate,
): EditorView {
  const { connection, canWriteRef, reviewer } = latest.current.collab;
  const session = connection.session;
  const translate = (key: string, options?: Record<string, unknown>) => String(t(key, options));
  const partContext = {
    t: translate,
    editable: () => canWriteRef.current,
    editContributor: (index: number | null) => latest.current.openPanel('author', { authorIndex: index }),
  };
  const notTrackable = () => latest.current.notify(latest.current.labels.current('review:notTrackable'));
  return new EditorView(mount, {
    state,
    editable: () => canWriteRef.current,
    attributes: { class: 'editor-document', spellcheck: 'true' },
    nodeViews: {
      ...featureNodeViews({
        t: translate,
        editable: () => canWriteRef.current,
        innerViews: () => academicNodeViews({ t: translate, edit: () => {} }),
        nestedPlugins: nestedEditorPlugins,
      }),
      ...partNodeViews(partContext),
      ...academicNodeViews({
        t: translate,
        edit: (kind: AcademicPanelId) => latest.current.openPanel(kind),
      }),
    },
    dispatchTransaction(this: EditorView, original) {
      let tr = original;
      // Suggestion mode records the change as tracked-change marks; what marks cannot record is
      // not applied (and said so). Undo and redo replay steps that must still be suggestions.
      const state = this.state;
      if (tr.docChanged && !tr.getMeta(UNTRACKED) && (connection.mustSuggest || isSuggesting(state))) {
        if (isHistoryTransaction(tr)) {
          const full = connection.abilities.editFreely;
          if (
            !full &&
            !reviewStepsAllowed(tr.steps, tr.before, reviewer.id, { comments: true, suggestions: true })
          ) {
            notTrackable();
            return;
          }
        } else {
          const tracked = trackTransaction(tr, state, reviewer);
          if (!tracked) {
            notTrackable();
            return;
          }
          tr = tracked;
        }
      }
      // The view must hold the new state before dispatch returns (ProseMirror reads it at once).
      session.apply(tr);
      if (session.state) this.updateState(session.state);
      if (tr.selectionSet || tr.docChanged) connection.caretMoved();
    },
  });
}

/**
 * When the browser prints the editor (File > Print, a PDF while offline), the notes' paragraphs
 * follow the text; on screen they open beside their numbers.
 */
function usePrintedNotes(viewRef: RefObject<EditorView | null>, mount: RefObject<HTMLDivElement | null>) {
  const { t } = useTranslation('editor');
  useEffect(() => {
    let notes: ReturnType<typeof printedNotes> | null = null;
    const translate = (key: string) => String(t(key));
    const before = () => {
      const current = viewRef.current;
      if (!current || !mount.current) return;
      notes = printedNotes(
        current,
        translate('academic.notes'),
        academicNodeViews({ t: translate, edit: () => {} }),
      );
      mount.current.append(notes.section);
    };
    const after = () => {
      notes?.destroy();
      notes = null;
    };
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
      after();
    };
  }, [t, viewRef, mount]);
}

function setChanged(element: HTMLElement, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}
