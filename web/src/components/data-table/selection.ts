/** Whether every visible row is selected (and there is one): the "select all" box is ticked. */
export function allVisibleSelected(selected: ReadonlySet<string>, visibleIds: readonly string[]): boolean {
  return visibleIds.length > 0 && visibleIds.every((id) => selected.has(id));
}

/**
 * The selection after "select all" is ticked or cleared: the visible rows join or leave it;
 * selected rows hidden by a search or filter stay as they are.
 */
export function selectVisible(
  selected: ReadonlySet<string>,
  visibleIds: readonly string[],
  checked: boolean,
): Set<string> {
  const next = new Set(selected);
  for (const id of visibleIds) {
    if (checked) next.add(id);
    else next.delete(id);
  }
  return next;
}
