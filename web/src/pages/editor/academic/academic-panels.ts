/**
 * The dialogs of the academic actions (issue 17), by panel id: below the action table
 * (editor-action-spec.ts names them among the editor's panels) and the dialogs that draw them.
 */

export type AcademicPanelId =
  | 'math'
  | 'displayMath'
  | 'citation'
  | 'figure'
  | 'crossReference'
  | 'tableCaption'
  | 'citationStyle'
  | 'brokenReferences'
  | 'updateFromLibrary';

export const ACADEMIC_PANELS: readonly AcademicPanelId[] = [
  'math',
  'displayMath',
  'citation',
  'figure',
  'crossReference',
  'tableCaption',
  'citationStyle',
  'brokenReferences',
  'updateFromLibrary',
];

export function isAcademicPanel(panel: string | null): panel is AcademicPanelId {
  return (ACADEMIC_PANELS as readonly string[]).includes(panel ?? '');
}
