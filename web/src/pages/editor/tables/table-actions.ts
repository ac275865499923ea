import { inHeaderRow, type TableCommandName, tableCommand } from '@scriptorium/common/editor/table-commands';
import type { EditorActionSpec } from '../editor-action-spec';

/**
 * The Table menu (issue 55): the same commands as the cell's context menu (table-context-menu.tsx),
 * each enabled only inside a table. Texts in the `tables` namespace.
 */

function tableAction(name: TableCommandName, group: string, id = name): EditorActionSpec {
  return {
    id: `editor.${id}`,
    title: `tables:action.${name}`,
    menu: 'table',
    group,
    writes: true,
    command: tableCommand[name],
    ...(name === 'toggleHeaderRow' ? { active: inHeaderRow } : {}),
  };
}

export const TABLE_ACTIONS: readonly EditorActionSpec[] = [
  tableAction('addRowBefore', 'rows'),
  tableAction('addRowAfter', 'rows'),
  tableAction('addColumnBefore', 'columns'),
  tableAction('addColumnAfter', 'columns'),
  tableAction('deleteRow', 'delete'),
  tableAction('deleteColumn', 'delete'),
  tableAction('deleteTable', 'delete'),
  tableAction('mergeCells', 'cells'),
  tableAction('splitCell', 'cells'),
  tableAction('toggleHeaderRow', 'cells'),
];
