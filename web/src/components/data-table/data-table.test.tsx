import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { chooseOption, optionsOf, shownChoice } from '../form/select-testing';
import { renderWithI18n } from '../test-i18n';
import { type Column, DataTable, type DataTableProps, type SortState } from './data-table';

interface Person {
  id: number;
  name: string;
  email: string;
  added: Date;
}

function people(count: number): Person[] {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Person ${String(index + 1).padStart(5, '0')}`,
    email: `p${index + 1}@example.org`,
    added: new Date(2024, 0, 1 + ((index * 7) % 30)),
  }));
}

const columns: Column<Person>[] = [
  { id: 'id', header: 'Id', cell: (row) => row.id, hidden: true },
  { id: 'name', header: 'Name', cell: (row) => row.name, sortValue: (row) => row.name },
  { id: 'email', header: 'E-mail address', cell: (row) => row.email },
  {
    id: 'actions',
    header: '',
    headerLabel: 'Actions',
    cell: (row) => (
      <button type="button" aria-label={`Remove ${row.name}`}>
        x
      </button>
    ),
  },
];

type Props = Partial<DataTableProps<Person>> & { rows: Person[] };

const nameAscending: SortState = { columnId: 'name', direction: 'ascending' };

/** Keeps the selection like a real screen does. */
function Harness(props: Props) {
  const [selected, setSelected] = useState(new Set<string>());
  return (
    <DataTable<Person>
      columns={columns}
      getRowId={(row) => String(row.id)}
      label="Contacts"
      emptyMessage="No contacts available"
      noMatchMessage="No contacts found"
      searchText={(row) => `${row.name} ${row.email}`}
      rowLabel={(row) => row.name}
      selectable
      selected={selected}
      onSelectedChange={setSelected}
      {...props}
    />
  );
}

function bodyRows(): HTMLElement[] {
  const groups = screen.getAllByRole('rowgroup');
  return within(groups[1])
    .queryAllByRole('row')
    .filter((row) => row.hasAttribute('data-row-id'));
}

function names(): string[] {
  return bodyRows().map(
    (row) => row.querySelectorAll('td')[row.querySelector('input') ? 1 : 0].textContent ?? '',
  );
}

describe('DataTable', () => {
  it('is a labelled grid with visible columns only', () => {
    renderWithI18n(<Harness rows={people(3)} />);
    const grid = screen.getByRole('grid', { name: 'Contacts' });
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((header) => header.getAttribute('aria-label') ?? header.textContent);
    expect(headers).toEqual(['', 'Name', 'E-mail address', 'Actions']);
    const selectHeader = within(grid).getAllByRole('columnheader')[0];
    expect(within(selectHeader).getByRole('checkbox', { name: 'Select all rows' })).not.toBeNull();
    expect(bodyRows()).toHaveLength(3);
  });

  it('tells an empty list from a search without results', () => {
    const view = renderWithI18n(<Harness rows={[]} />);
    expect(screen.getByRole('grid').textContent).toContain('No contacts available');
    view.rerender(<Harness rows={people(3)} search="nobody" />);
    expect(screen.getByRole('grid').textContent).toContain('No contacts found');
    expect(screen.getByRole('grid').textContent).not.toContain('No contacts available');
  });

  it('while its first rows load, is a busy grid with its headers and grey lines for the rows', () => {
    const loadingMessage = 'Loading…';
    const view = renderWithI18n(
      <Harness rows={[]} loading loadingMessage={loadingMessage} sort={nameAscending} />,
    );
    const grid = screen.getByRole('grid', { name: 'Contacts', busy: true });
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['', 'Name', 'E-mail address', 'Actions']);
    expect(within(grid).getByRole('checkbox', { name: 'Select all rows' })).toHaveProperty('disabled', true);
    expect(grid.querySelectorAll('.skeleton-bar')).toHaveLength(4);
    expect(within(grid).getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    expect(screen.getByRole('status').textContent).toBe(loadingMessage);

    view.rerender(<Harness rows={people(2)} sort={nameAscending} />);
    expect(screen.getByRole('grid', { name: 'Contacts' }).getAttribute('aria-busy')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(names()).toEqual(['Person 00001', 'Person 00002']);
  });

  it('keeps its grid when a later load of an empty list is under way', () => {
    const view = renderWithI18n(<Harness rows={[]} />);
    view.rerender(<Harness rows={[]} loading />);
    const grid = screen.getByRole('grid', { name: 'Contacts' });
    expect(grid.getAttribute('aria-busy')).toBe('true');
    expect(grid.querySelectorAll('.skeleton-bar')).toHaveLength(4);
  });

  it('filters by the search text, all terms, ignoring case', () => {
    renderWithI18n(<Harness rows={people(30)} search="P12@EXAMPLE" paged={false} />);
    expect(names()).toEqual(['Person 00012']);
  });

  it('sorts by a sortable column and shows it with aria-sort', () => {
    renderWithI18n(<Harness rows={people(3)} />);
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'E-mail address' }).getAttribute('aria-sort')).toBeNull();
    fireEvent.click(nameHeader);
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(names()).toEqual(['Person 00001', 'Person 00002', 'Person 00003']);
    fireEvent.click(nameHeader);
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(names()).toEqual(['Person 00003', 'Person 00002', 'Person 00001']);
  });

  it('keeps its sort when the rows are refreshed', () => {
    const view = renderWithI18n(<Harness rows={people(3)} />);
    fireEvent.click(screen.getByRole('columnheader', { name: /Name/ }));
    fireEvent.click(screen.getByRole('columnheader', { name: /Name/ }));
    view.rerender(<Harness rows={people(4)} />);
    expect(names()).toEqual(['Person 00004', 'Person 00003', 'Person 00002', 'Person 00001']);
  });

  it('lets the caller own the sort', () => {
    const onSortChange = vi.fn();
    const sort: SortState = { columnId: 'name', direction: 'descending' };
    renderWithI18n(<Harness rows={people(3)} sort={sort} onSortChange={onSortChange} />);
    expect(names()).toEqual(['Person 00003', 'Person 00002', 'Person 00001']);
    fireEvent.click(screen.getByRole('columnheader', { name: /Name/ }));
    expect(onSortChange).toHaveBeenCalledWith({ columnId: 'name', direction: 'ascending' });
    // Controlled: nothing changes until the caller passes the new sort.
    expect(names()).toEqual(['Person 00003', 'Person 00002', 'Person 00001']);
  });

  it('pages by 10 by default with page sizes 5/10/15/20/25', () => {
    renderWithI18n(<Harness rows={people(23)} />);
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('Showing 1 to 10 of 23 entries')).not.toBeNull();
    expect(screen.getByText('Page 1 of 3')).not.toBeNull();
    expect(optionsOf('Rows per page')).toEqual(['5', '10', '15', '20', '25']);
    expect(shownChoice('Rows per page')).toBe('10');
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(names()).toEqual(['Person 00021', 'Person 00022', 'Person 00023']);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);

    chooseOption('Rows per page', '25');
    expect(shownChoice('Rows per page')).toBe('25');
    expect(bodyRows()).toHaveLength(23);
    expect(screen.getByText('Page 1 of 1')).not.toBeNull();
  });

  it('goes back to the first page when the search changes', () => {
    const view = renderWithI18n(<Harness rows={people(23)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    view.rerender(<Harness rows={people(23)} search="person" />);
    expect(screen.getByText('Page 1 of 3')).not.toBeNull();
  });

  it('shows every row without a pager when unpaged', () => {
    renderWithI18n(<Harness rows={people(23)} paged={false} />);
    expect(bodyRows()).toHaveLength(23);
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
  });

  it('selects rows with their checkboxes and all rows with the header checkbox', () => {
    renderWithI18n(<Harness rows={people(3)} />);
    const grid = screen.getByRole('grid');
    expect(grid.getAttribute('aria-multiselectable')).toBe('true');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Person 00002' }));
    expect(bodyRows().map((row) => row.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false']);
    const all = screen.getByRole('checkbox', { name: 'Select all rows' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);
    fireEvent.click(all);
    expect(bodyRows().every((row) => row.getAttribute('aria-selected') === 'true')).toBe(true);
    expect(all.checked).toBe(true);
    fireEvent.click(all);
    expect(bodyRows().every((row) => row.getAttribute('aria-selected') === 'false')).toBe(true);
  });

  it('toggles a row once when its box is pressed, by pointer or by Space, not again through the row', () => {
    renderWithI18n(<Harness rows={people(2)} />);
    const box = screen.getByRole('checkbox', { name: 'Select Person 00001' }) as HTMLInputElement;
    const selection = () => bodyRows().map((row) => row.getAttribute('aria-selected'));
    fireEvent.pointerDown(box);
    fireEvent.mouseDown(box);
    fireEvent.pointerUp(box);
    fireEvent.mouseUp(box);
    fireEvent.click(box);
    expect(selection()).toEqual(['true', 'false']);
    expect(box.checked).toBe(true);
    // Space: the browser's own activation is the keyup's click.
    fireEvent.keyDown(box, { key: ' ' });
    fireEvent.keyUp(box, { key: ' ' });
    fireEvent.click(box);
    expect(selection()).toEqual(['false', 'false']);
    expect(box.checked).toBe(false);
  });

  it('selects a row clicked anywhere but on a control of its own', () => {
    renderWithI18n(<Harness rows={people(2)} />);
    fireEvent.click(screen.getByText('p1@example.org'));
    expect(bodyRows().map((row) => row.getAttribute('aria-selected'))).toEqual(['true', 'false']);
    const remove = screen.getByRole('button', { name: 'Remove Person 00002' });
    fireEvent.pointerDown(remove);
    fireEvent.mouseDown(remove);
    fireEvent.click(remove);
    expect(bodyRows().map((row) => row.getAttribute('aria-selected'))).toEqual(['true', 'false']);
  });

  it('works from the keyboard: arrows move, Space selects, Enter activates, Delete deletes', () => {
    const onActivate = vi.fn();
    const onDelete = vi.fn();
    renderWithI18n(<Harness rows={people(3)} onActivate={onActivate} onDelete={onDelete} />);
    const [first, second] = bodyRows();
    act(() => first.focus());
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second, { key: ' ' });
    fireEvent.keyUp(second, { key: ' ' });
    expect(bodyRows()[1].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(second, { key: ' ' });
    fireEvent.keyUp(second, { key: ' ' });
    expect(bodyRows()[1].getAttribute('aria-selected')).toBe('false');
    fireEvent.keyDown(second, { key: 'Enter' });
    expect(onActivate).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
    fireEvent.keyDown(second, { key: 'Delete' });
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
    fireEvent.keyDown(second, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(first);
    // Up from the first row is the header row: the select-all box, then the sortable headers.
    fireEvent.keyDown(first, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select all rows' }));
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowRight' });
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    expect(document.activeElement).toBe(nameHeader);
    fireEvent.keyDown(nameHeader, { key: 'Enter' });
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.keyDown(nameHeader, { key: ' ' });
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
    fireEvent.keyDown(nameHeader, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toContain('Person 00001');
  });

  it("is one Tab stop, its current row; a row's controls are reached with the arrows", () => {
    renderWithI18n(<Harness rows={people(3)} />);
    const rows = bodyRows();
    expect(rows.map((row) => row.tabIndex)).toEqual([0, -1, -1]);
    act(() => rows[1].focus());
    expect(bodyRows().map((row) => row.tabIndex)).toEqual([-1, 0, -1]);
    const box = screen.getByRole('checkbox', { name: 'Select Person 00002' });
    const remove = screen.getByRole('button', { name: 'Remove Person 00002' });
    expect([box.tabIndex, remove.tabIndex]).toEqual([-1, -1]);
    fireEvent.keyDown(rows[1], { key: 'ArrowRight' });
    expect(document.activeElement).toBe(box);
    fireEvent.keyDown(box, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(remove);
    fireEvent.keyDown(remove, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(remove);
    fireEvent.keyDown(remove, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[2]);
    act(() => remove.focus());
    fireEvent.keyDown(remove, { key: 'ArrowLeft' });
    fireEvent.keyDown(box, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(rows[1]);
  });

  it("on a row's control, Home and End go to the ends of the row, with Ctrl to the first and last row", () => {
    renderWithI18n(<Harness rows={people(3)} />);
    const rows = bodyRows();
    const box = screen.getByRole('checkbox', { name: 'Select Person 00002' });
    const remove = screen.getByRole('button', { name: 'Remove Person 00002' });
    act(() => box.focus());
    fireEvent.keyDown(box, { key: 'End' });
    expect(document.activeElement).toBe(remove);
    fireEvent.keyDown(remove, { key: 'Home' });
    expect(document.activeElement).toBe(rows[1]);
    act(() => remove.focus());
    fireEvent.keyDown(remove, { key: 'End', ctrlKey: true });
    expect(document.activeElement).toBe(bodyRows()[2]);
    act(() => box.focus());
    fireEvent.keyDown(box, { key: 'Home', ctrlKey: true });
    expect(document.activeElement).toBe(bodyRows()[0]);
  });

  it('selects all with Ctrl+A, clears with Escape, extends with Shift and an arrow or a click', () => {
    renderWithI18n(<Harness rows={people(5)} />);
    const selection = () => bodyRows().map((row) => row.getAttribute('aria-selected') === 'true');
    const rows = bodyRows();
    act(() => rows[0].focus());
    fireEvent.keyDown(rows[0], { key: 'a', ctrlKey: true });
    expect(selection()).toEqual([true, true, true, true, true]);
    fireEvent.keyDown(rows[0], { key: 'Escape' });
    expect(selection()).toEqual([false, false, false, false, false]);
    fireEvent.keyDown(rows[0], { key: ' ' });
    fireEvent.keyDown(rows[0], { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(bodyRows()[1], { key: 'ArrowDown', shiftKey: true });
    expect(selection()).toEqual([true, true, true, false, false]);
    fireEvent.click(screen.getByText('p5@example.org'), { shiftKey: true });
    expect(selection()).toEqual([true, true, true, true, true]);
  });

  it('extends from the row the first Shift+arrow leaves when nothing was toggled before', () => {
    renderWithI18n(<Harness rows={people(4)} />);
    const rows = bodyRows();
    act(() => rows[1].focus());
    fireEvent.keyDown(rows[1], { key: 'ArrowDown', shiftKey: true });
    expect(bodyRows().map((row) => row.getAttribute('aria-selected') === 'true')).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('finds a row by the first letters of its name', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const rows = ['Ada', 'Bea', 'Ben', 'Cleo'].map((name, index) => ({
      ...people(1)[0],
      id: index + 1,
      name,
    }));
    renderWithI18n(<Harness rows={rows} />);
    const type = (key: string) => fireEvent.keyDown(document.activeElement as HTMLElement, { key });
    act(() => bodyRows()[0].focus());
    type('b');
    expect(document.activeElement?.textContent).toContain('Bea');
    vi.advanceTimersByTime(300);
    type('e');
    type('n');
    expect(document.activeElement?.textContent).toContain('Ben');
    // After a pause, a new name; a space typed within a name is part of it, not a selection.
    vi.advanceTimersByTime(1000);
    type('c');
    type(' ');
    expect(document.activeElement?.textContent).toContain('Cleo');
    expect(bodyRows().every((row) => row.getAttribute('aria-selected') === 'false')).toBe(true);
    vi.useRealTimers();
  });

  it('keeps the focus in its place when the focused row goes', () => {
    const view = renderWithI18n(<Harness rows={people(3)} />);
    act(() => bodyRows()[1].focus());
    view.rerender(<Harness rows={people(3).filter((person) => person.id !== 2)} />);
    expect(document.activeElement?.textContent).toContain('Person 00003');
  });

  it('leaves keys typed on a control inside a row to that control', () => {
    const onActivate = vi.fn();
    renderWithI18n(<Harness rows={people(2)} onActivate={onActivate} />);
    const remove = screen.getByRole('button', { name: 'Remove Person 00001' });
    fireEvent.keyDown(remove, { key: 'Enter' });
    fireEvent.keyDown(remove, { key: ' ' });
    expect(onActivate).not.toHaveBeenCalled();
    expect(bodyRows()[0].getAttribute('aria-selected')).toBe('false');
  });

  it('moves on to the next page when the arrow leaves the current one', () => {
    renderWithI18n(<Harness rows={people(12)} pageSize={5} />);
    const rows = bodyRows();
    act(() => rows[4].focus());
    fireEvent.keyDown(rows[4], { key: 'ArrowDown' });
    expect(screen.getByText('Page 2 of 3')).not.toBeNull();
    expect(document.activeElement?.tagName).toBe('TR');
    expect(document.activeElement?.textContent).toContain('Person 00006');
  });

  it('scrolls within the window height minus 360 px, at least 100 px, updated 250 ms after a resize', () => {
    vi.useFakeTimers();
    window.innerHeight = 768;
    const view = renderWithI18n(<Harness rows={people(3)} />);
    const scroller = view.container.querySelector<HTMLElement>('.data-table-scroll');
    expect(scroller?.style.maxHeight).toBe('408px');
    window.innerHeight = 400;
    fireEvent(window, new Event('resize'));
    act(() => vi.advanceTimersByTime(249));
    expect(scroller?.style.maxHeight).toBe('408px');
    act(() => vi.advanceTimersByTime(1));
    expect(scroller?.style.maxHeight).toBe('100px');
    window.innerHeight = 768;
  });

  it('renders only the rows in view of a long unpaged list', () => {
    const view = renderWithI18n(<Harness rows={people(5000)} paged={false} rowHeight={40} />);
    expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('5001');
    const firstBatch = bodyRows();
    expect(firstBatch.length).toBeGreaterThan(5);
    expect(firstBatch.length).toBeLessThan(60);
    expect(firstBatch[0].getAttribute('aria-rowindex')).toBe('2');

    const scroller = view.container.querySelector<HTMLElement>('.data-table-scroll');
    if (!scroller) throw new Error('no scroller');
    scroller.scrollTop = 40 * 3000;
    fireEvent.scroll(scroller);
    expect(names()).toContain('Person 03001');
    expect(names()).not.toContain('Person 00001');
    const spacers = view.container.querySelectorAll<HTMLElement>('.data-table-spacer');
    expect(spacers).toHaveLength(2);
  });

  it('keeps keyboard focus on rows that scroll into a long list', () => {
    renderWithI18n(<Harness rows={people(5000)} paged={false} rowHeight={40} />);
    const [first] = bodyRows();
    act(() => first.focus());
    fireEvent.keyDown(first, { key: 'End' });
    expect(document.activeElement?.tagName).toBe('TR');
    expect(document.activeElement?.textContent).toContain('Person 05000');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Home' });
    expect(document.activeElement?.textContent).toContain('Person 00001');
  });
});
