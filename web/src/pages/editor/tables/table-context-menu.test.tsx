import { schema } from '@scriptorium/common/editor/schema';
import { createDocument, standardArticle } from '@scriptorium/common/editor/templates';
import { withBody } from '@scriptorium/common/editor/testing';
import { act, render, screen } from '@testing-library/react';
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import type { EditorActionSpec } from '../editor-actions';
import { opensContextMenu, TableContextMenu } from './table-context-menu';
import { movedSize, PICKER_COLUMNS, PICKER_ROWS } from './table-size-picker';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

/** An editor whose body holds a 2 × 2 table, the caret in its first cell. */
function tableEditor(editable = true): EditorView {
  const cell = (text: string) =>
    schema.nodes.table_cell.create(null, schema.nodes.paragraph.create(null, schema.text(text)));
  const table = schema.nodes.table.create(null, [
    schema.nodes.table_row.create(null, [cell('a'), cell('b')]),
    schema.nodes.table_row.create(null, [cell('c'), cell('d')]),
  ]);
  const doc = withBody(createDocument(schema, standardArticle, { title: 'T' }), [table]);
  let inside = 0;
  doc.descendants((node, pos) => {
    if (!inside && node.isText && node.text === 'a') inside = pos;
  });
  const view = new EditorView(document.body.appendChild(document.createElement('div')), {
    state: EditorState.create({ doc, selection: TextSelection.create(doc, inside) }),
    editable: () => editable,
  });
  views.push(view);
  return view;
}

function rightClick(view: EditorView): MouseEvent {
  const event = new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: 1, clientY: 1 });
  act(() => {
    view.dom.querySelector('td')?.dispatchEvent(event);
  });
  return event;
}

const everyone = () => true;
const nobody = (action: EditorActionSpec) => !action.writes;

describe('the table cell context menu', () => {
  // jsdom has no layout: where the pointer is, the caret is already (the click does not move it).
  document.elementFromPoint = () => null;

  it('opens on a right-click in a cell with the table commands, instead of the browser menu', async () => {
    const view = tableEditor();
    render(<TableContextMenu view={view} may={everyone} run={() => {}} />);
    expect(rightClick(view).defaultPrevented).toBe(true);
    const menu = await screen.findByRole('menu', { name: 'Table commands' });
    expect([...menu.querySelectorAll('[role="menuitem"]')].map((item) => item.textContent)).toEqual([
      'Insert row above',
      'Insert row below',
      'Insert column left',
      'Insert column right',
      'Delete row',
      'Delete column',
      'Delete table',
      'Merge cells',
      'Split cell',
      'Header row',
    ]);
  });

  it('stays the browser menu for those who may not write, and in a read-only editor', () => {
    const view = tableEditor();
    render(<TableContextMenu view={view} may={nobody} run={() => {}} />);
    expect(rightClick(view).defaultPrevented).toBe(false);
    expect(screen.queryByRole('menu')).toBeNull();
    const readOnly = tableEditor(false);
    render(<TableContextMenu view={readOnly} may={everyone} run={() => {}} />);
    expect(rightClick(readOnly).defaultPrevented).toBe(false);
  });

  it('opens from the keyboard with the context-menu key or Shift+F10, and not with F10 alone', () => {
    const keys = { shiftKey: false, ctrlKey: false, altKey: false, metaKey: false };
    expect(opensContextMenu({ ...keys, key: 'ContextMenu' })).toBe(true);
    expect(opensContextMenu({ ...keys, key: 'F10', shiftKey: true })).toBe(true);
    expect(opensContextMenu({ ...keys, key: 'F10' })).toBe(false);
    expect(opensContextMenu({ ...keys, key: 'F10', shiftKey: true, ctrlKey: true })).toBe(false);
  });
});

describe('the table size picker keys', () => {
  it('moves with the arrows inside the 10 × 8 grid; Home and End go to its corners', () => {
    expect(movedSize({ columns: 1, rows: 1 }, 'ArrowRight')).toEqual({ columns: 2, rows: 1 });
    expect(movedSize({ columns: 2, rows: 1 }, 'ArrowDown')).toEqual({ columns: 2, rows: 2 });
    expect(movedSize({ columns: 1, rows: 1 }, 'ArrowLeft')).toEqual({ columns: 1, rows: 1 });
    expect(movedSize({ columns: PICKER_COLUMNS, rows: PICKER_ROWS }, 'ArrowDown')).toEqual({
      columns: 10,
      rows: 8,
    });
    expect(movedSize({ columns: 4, rows: 3 }, 'End')).toEqual({ columns: 10, rows: 8 });
    expect(movedSize({ columns: 4, rows: 3 }, 'Home')).toEqual({ columns: 1, rows: 1 });
    expect(movedSize({ columns: 4, rows: 3 }, 'a')).toBeNull();
  });
});
