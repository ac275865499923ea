import type { EditorView } from 'prosemirror-view';
import { ReturnFocusContext } from '../../components/dialog/focus-return';
import { isAcademicPanel } from './academic/academic-actions';
import { AcademicDialog } from './academic/academic-dialogs';
import type { PanelId } from './editor-action-spec';
import {
  ContributorDialog,
  FaqDialog,
  LinkDialog,
  SettingsDialog,
  ShortcutsDialog,
  WordCountDialog,
} from './editor-panels';
import { HistoryDialog, SaveRevisionDialog } from './review/review-history';
import type { ReviewStore } from './review/review-store';
import { TableSizeDialog } from './tables/table-size-picker';

export interface EditorDialogsProps {
  /** The open dialog, if any. */
  panel: PanelId | null;
  view: EditorView | null;
  review: ReviewStore;
  /** The contributor the contributor dialog edits (null: a new one). */
  authorIndex: number | null;
  /** A range the citation picker replaces (null: it inserts at the selection). */
  citationAt: { from: number; to: number } | null;
  /** The history dialog may restore a revision (the text may be changed freely). */
  canRestore: boolean;
  onClose(): void;
  notify(text: string): void;
}

/** The editor's dialogs, one at a time: the one the panel names. */
export function EditorDialogs(props: EditorDialogsProps) {
  const { panel, view, review, onClose, notify } = props;
  if (panel === 'shortcuts') return <ShortcutsDialog onClose={onClose} />;
  if (panel === 'faq') return <FaqDialog onClose={onClose} />;
  if (panel === 'saveRevision')
    return <SaveRevisionDialog store={review} onClose={onClose} notify={notify} />;
  if (!view) return null;
  switch (panel) {
    case 'settings':
      return <SettingsDialog view={view} onClose={onClose} />;
    case 'wordCount':
      return <WordCountDialog view={view} onClose={onClose} />;
    case 'link':
      return (
        <ReturnFocusContext.Provider value={() => view.focus()}>
          <LinkDialog view={view} onClose={onClose} />
        </ReturnFocusContext.Provider>
      );
    case 'tableSize':
      return <TableSizeDialog view={view} onClose={onClose} />;
    case 'history':
      return (
        <HistoryDialog
          store={review}
          current={() => view.state.doc}
          canRestore={props.canRestore}
          onClose={onClose}
          notify={notify}
        />
      );
    case 'author':
      return <ContributorDialog view={view} index={props.authorIndex} onClose={onClose} />;
  }
  if (isAcademicPanel(panel))
    return (
      // Writing goes on in the text, also when the dialog was opened from a menu.
      <ReturnFocusContext.Provider value={() => view.focus()}>
        <AcademicDialog panel={panel} view={view} citationAt={props.citationAt} onClose={onClose} />
      </ReturnFocusContext.Provider>
    );
  return null;
}
