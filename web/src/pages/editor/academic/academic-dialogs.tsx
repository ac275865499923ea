import { lazy, Suspense } from 'react';
import type { AcademicPanelId } from './academic-actions';
import type { DialogProps } from './dialogs/shared';

/**
 * Each dialog is a chunk of its own, fetched when first opened: the citation dialog brings the
 * entry importer (biblatex-csl-converter, xregexp's Unicode tables), the style dialog the style
 * finder; in the editor's first load they cost a phone about a second of script (Lighthouse).
 */
const MathDialog = lazy(() => import('./dialogs/math-dialog').then((m) => ({ default: m.MathDialog })));
const CitationDialog = lazy(() =>
  import('./dialogs/citation-dialog').then((m) => ({ default: m.CitationDialog })),
);
const FigureDialog = lazy(() => import('./dialogs/figure-dialog').then((m) => ({ default: m.FigureDialog })));
const CrossReferenceDialog = lazy(() =>
  import('./dialogs/cross-reference-dialog').then((m) => ({ default: m.CrossReferenceDialog })),
);
const TableCaptionDialog = lazy(() =>
  import('./dialogs/table-caption-dialog').then((m) => ({ default: m.TableCaptionDialog })),
);
const CitationStyleDialog = lazy(() =>
  import('./dialogs/citation-style-dialog').then((m) => ({ default: m.CitationStyleDialog })),
);
const BrokenReferencesDialog = lazy(() =>
  import('./dialogs/broken-references-dialog').then((m) => ({ default: m.BrokenReferencesDialog })),
);
const UpdateFromLibraryDialog = lazy(() =>
  import('./dialogs/update-from-library-dialog').then((m) => ({ default: m.UpdateFromLibraryDialog })),
);

/** The dialog of an academic panel; each dialog is a file of its own in dialogs/. */
export function AcademicDialog(
  props: DialogProps & { panel: AcademicPanelId; citationAt: { from: number; to: number } | null },
) {
  return (
    <Suspense fallback={null}>
      <PanelDialog {...props} />
    </Suspense>
  );
}

function PanelDialog({
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
