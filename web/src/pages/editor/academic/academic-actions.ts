import { BookOpenText, Crosshair, Image, Sigma } from 'lucide-react';
import type { EditorActionSpec } from '../editor-action-spec';

export { ACADEMIC_PANELS, type AcademicPanelId, isAcademicPanel } from './academic-panels';

/**
 * The academic actions of the editor (issue 17), joined to the one action table of
 * editor-actions.ts: they open the dialogs of academic-dialogs.tsx.
 */

export const ACADEMIC_ACTIONS: readonly EditorActionSpec[] = [
  {
    id: 'editor.citationStyle',
    title: 'academic.action.citationStyle',
    menu: 'file',
    group: 'document',
    writes: true,
    panel: 'citationStyle',
  },
  {
    id: 'editor.updateFromLibrary',
    title: 'academic.action.updateFromLibrary',
    menu: 'file',
    group: 'document',
    writes: true,
    panel: 'updateFromLibrary',
  },
  {
    id: 'editor.equation',
    title: 'academic.action.equation',
    keys: 'Mod+E',
    menu: 'insert',
    group: 'academic',
    icon: Sigma,
    writes: true,
    panel: 'math',
  },
  {
    id: 'editor.displayEquation',
    title: 'academic.action.displayEquation',
    menu: 'insert',
    group: 'academic',
    writes: true,
    panel: 'displayMath',
  },
  {
    id: 'editor.citation',
    title: 'academic.action.citation',
    keys: 'Mod+Alt+C',
    menu: 'insert',
    group: 'academic',
    icon: BookOpenText,
    writes: true,
    panel: 'citation',
  },
  {
    id: 'editor.figure',
    title: 'academic.action.figure',
    menu: 'insert',
    group: 'academic',
    icon: Image,
    writes: true,
    panel: 'figure',
  },
  {
    id: 'editor.crossReference',
    title: 'academic.action.crossReference',
    menu: 'insert',
    group: 'academic',
    icon: Crosshair,
    writes: true,
    panel: 'crossReference',
  },
  {
    id: 'editor.tableCaption',
    title: 'academic.action.tableCaption',
    menu: 'insert',
    group: 'table',
    writes: true,
    panel: 'tableCaption',
  },
  {
    id: 'editor.brokenReferences',
    title: 'academic.action.brokenReferences',
    menu: 'tools',
    group: 'tools',
    writes: false,
    panel: 'brokenReferences',
  },
];
