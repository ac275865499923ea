import type { AcademicPanelId } from './academic-actions';
import { BrokenReferencesDialog } from './dialogs/broken-references-dialog';
import { CitationDialog } from './dialogs/citation-dialog';
import { CitationStyleDialog } from './dialogs/citation-style-dialog';
import { CrossReferenceDialog } from './dialogs/cross-reference-dialog';
import { FigureDialog } from './dialogs/figure-dialog';
import { MathDialog } from './dialogs/math-dialog';
import type { DialogProps } from './dialogs/shared';
import { TableCaptionDialog } from './dialogs/table-caption-dialog';
import { UpdateFromLibraryDialog } from './dialogs/update-from-library-dialog';

/** The dialog of an academic panel; each dialog is a file of its own in dialogs/. */
export function AcademicDialog({
  panel,
  view,
  onClose,
  citationAt,
}: DialogProps & { panel: AcademicPanelId; citationAt: { from: number; to: number } | null }) {
  switch (panel) {
    case 'math':
      return <MathDialog view={view} onClose={onClose} display={false} />;
    case 'displayMath':
      return <MathDialog view={view} onClose={onClose} display />;
    case 'citation':
      return <CitationDialog view={view} onClose={onClose} replace={citationAt} />;
    case 'figure':
      return <FigureDialog view={view} onClose={onClose} />;
    case 'crossReference':
      return <CrossReferenceDialog view={view} onClose={onClose} />;
    case 'tableCaption':
      return <TableCaptionDialog view={view} onClose={onClose} />;
    case 'citationStyle':
      return <CitationStyleDialog view={view} onClose={onClose} />;
    case 'brokenReferences':
      return <BrokenReferencesDialog view={view} onClose={onClose} />;
    case 'updateFromLibrary':
      return <UpdateFromLibraryDialog view={view} onClose={onClose} />;
  }
}
