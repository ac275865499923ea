/**
 * The DOM side of the tables' grid pattern (data-table.tsx): which element of a row or of the
 * header row takes the focus, and which row a typed prefix finds.
 */

/** What can take the focus inside a cell: a title's link, a row's button, the selection box. */
const CONTROLS = 'a[href], button, input, select, textarea, [tabindex]';

/** Fields where the arrow keys and typed letters are the field's own. */
const FIELDS = 'input:not([type="checkbox"]), select, textarea, [contenteditable="true"]';

/** Whether the event comes from a control of its own inside the row (a link, a button, a field). */
export function isInteractive(target: EventTarget | null, row: Element | null): boolean {
  for (
    let node = target instanceof HTMLElement ? target : null;
    node && node !== row;
    node = node.parentElement
  ) {
    if (
      node.matches('a, button, input, select, textarea, label, [role="button"], [contenteditable="true"]')
    ) {
      return true;
    }
  }
  return false;
}

/** Whether keys typed on this element belong to it (a text field inside a cell). */
export function isField(element: Element): boolean {
  return element.matches(FIELDS);
}

/** A row's controls, in their order: the arrow keys move along them. */
export function rowControls(row: Element): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(CONTROLS)].filter(
    (control) => !control.matches(':disabled') && control.closest('tr') === row,
  );
}

/**
 * The header row's stops for the arrow keys: the select-all box while it is enabled, and every
 * sortable header (the resize handles are Tab stops of their own, with their own arrows).
 */
export function headerStops(table: HTMLTableElement | null): HTMLElement[] {
  return [
    ...(table?.querySelectorAll<HTMLElement>(
      'thead th.data-table-select input:enabled, thead th.data-table-sortable',
    ) ?? []),
  ];
}

/**
 * The controls inside the rows leave the Tab order to the grid, which is one Tab stop (its current
 * row): the arrow keys reach them from their row.
 */
export function keepControlsOutOfTabOrder(body: HTMLElement | null): void {
  for (const control of body?.querySelectorAll<HTMLElement>(`tr[data-row-id] :is(${CONTROLS})`) ?? []) {
    if (control.tabIndex !== -1) control.tabIndex = -1;
  }
}

/**
 * Type-ahead: the index of the first row after `from` (wrapping round) whose name starts with the
 * typed text; a longer text may stay on the row it found. -1: none.
 */
export function findByPrefix(names: readonly string[], text: string, from: number, stay: boolean): number {
  const prefix = text.toLocaleLowerCase();
  for (let step = stay ? 0 : 1; step <= names.length; step++) {
    const index = (from + step + names.length) % names.length;
    if (names[index]?.toLocaleLowerCase().startsWith(prefix)) return index;
  }
  return -1;
}
