import { newThreadId } from '@scriptorium/common/editor/track-changes';
import type { EditorView } from 'prosemirror-view';
import { type RefObject, useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Action } from '../../actions/registry';
import { useActionRegistry, useActions } from '../../actions/use-actions';
import { API_REFERENCE_PATH } from '../api-reference/api-reference-path';
import type { DocumentConnection } from './document-connection';
import type { EditorActionSpec, PanelId } from './editor-action-spec';
import { EDITOR_ACTIONS } from './editor-actions';
import { isEnabled } from './editor-menus';
import { readDomSelection } from './editor-plugins';
import { ExportRefused, runExport } from './export/run-export';
import type { PendingComment } from './review/review-margin';

/** What the actions do to the page around the text. */
export interface EditorActionTargets {
  documentId: number;
  connection: DocumentConnection;
  viewRef: RefObject<EditorView | null>;
  view: EditorView | null;
  openPanel(panel: PanelId): void;
  toggleSidePanel(panel: 'search' | 'outline'): void;
  startComment(pending: PendingComment): void;
  notify(text: string): void;
  setExporting(busy: boolean): void;
  close(): void;
}

export interface EditorActions {
  /** Whether this user may use an action now (by the abilities doc_data sent). */
  may(action: EditorActionSpec): boolean;
  /** Runs an action of the table (menus, toolbar, palette, keys): stable from render to render. */
  run(action: EditorActionSpec): void;
}

/**
 * The editor's actions for this page: who may use each (the abilities), what running one does,
 * and the same actions in the app's registry, where the palette lists them and their keys work
 * outside the text.
 */
export function useEditorActions(targets: EditorActionTargets): EditorActions {
  const { t } = useTranslation('editor');
  const { t: tReview } = useTranslation('review');
  const { connection, view } = targets;
  const { load, abilities: can } = connection;
  // What each right may use: comments for every right that comments, accepting only for write.
  // Stable between keystrokes (the menu bar is memoised): changes only with the abilities.
  const may = useCallback(
    (action: EditorActionSpec): boolean => {
      if (load !== 'ready') return false;
      if (action.need === 'comment') return can.comment;
      if (action.need === 'history') return can.seeComments;
      if (action.need === 'write') return can.decideSuggestions;
      return can.edit || !action.writes;
    },
    [load, can],
  );
  const runLatest = useRef<(action: EditorActionSpec) => void>(() => {});
  const run = useCallback((action: EditorActionSpec) => runLatest.current(action), []);
  runLatest.current = (action: EditorActionSpec) => {
    const current = targets.viewRef.current;
    if (!current) return;
    readDomSelection(current);
    if (action.panel === 'comment') {
      const { from, to, empty } = current.state.selection;
      if (empty) targets.notify(tReview('selectFirst'));
      else {
        targets.startComment({ id: newThreadId(), from, to });
        targets.notify('');
      }
    } else if (action.command) {
      // Focus first: a command may move the focus on (a new note opens its own editor).
      current.focus();
      action.command(current.state, current.dispatch, current);
    } else if (action.panel === 'search' || action.panel === 'outline') {
      targets.toggleSidePanel(action.panel);
    } else if (action.panel) {
      targets.openPanel(action.panel);
    } else if (action.special === 'export' && action.exportFormat) {
      targets.setExporting(true);
      targets.notify('');
      runExport({
        format: action.exportFormat,
        documentId: targets.documentId,
        doc: current.state.doc,
        threads: connection.review.threads.values(),
      })
        .catch((error: unknown) =>
          targets.notify(error instanceof ExportRefused ? error.message : t('export:failed')),
        )
        .finally(() => targets.setExporting(false));
    } else if (action.special === 'print') window.print();
    else if (action.special === 'close') targets.close();
    else if (action.special === 'apiReference') window.open(API_REFERENCE_PATH, '_blank', 'noopener');
  };

  const registry = useActionRegistry();
  // Idempotent: the editor's scope must exist before its actions register.
  registry.defineScope('editor', { priority: 20, modal: false });
  // The same objects from keystroke to keystroke: enabled and checked are asked when used.
  const registered: Action[] = useMemo(
    () =>
      view
        ? EDITOR_ACTIONS.filter(may).map((action) => ({
            id: action.id,
            scope: 'editor',
            title: action.title,
            ns: 'editor',
            label: t(action.title, action.titleOptions),
            keys: action.keymapOnly ? undefined : action.keys,
            enabled: () => isEnabled(action, view),
            checked: action.active ? () => Boolean(action.active?.(view.state)) : undefined,
            // Mod+K is the palette elsewhere: it is the link action only while the text has the focus.
            when: action.id === 'editor.link' ? () => view.hasFocus() : undefined,
            run: () => run(action),
          }))
        : [],
    [view, may, run, t],
  );
  useActions(registered);
  return { may, run };
}
