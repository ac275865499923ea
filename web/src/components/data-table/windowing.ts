export interface WindowInput {
  /** Number of rows in the whole list. */
  count: number;
  /** Fixed height of one row in px. */
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  /** Extra rows rendered above and below, so fast scrolling does not show gaps. */
  overscan?: number;
}

export interface RowWindow {
  /** First rendered row index. */
  start: number;
  /** One past the last rendered row index. */
  end: number;
  /** Height in px of the spacer standing in for the rows before `start`. */
  before: number;
  /** Height in px of the spacer standing in for the rows from `end` on. */
  after: number;
}

/** Which rows of a long list of equal-height rows are (nearly) visible in a scrolled viewport. */
export function computeWindow({
  count,
  rowHeight,
  scrollTop,
  viewportHeight,
  overscan = 10,
}: WindowInput): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, before: 0, after: 0 };
  const firstVisible = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visibleCount = Math.ceil(Math.max(viewportHeight, rowHeight) / rowHeight) + 1;
  const start = Math.min(count, Math.max(0, firstVisible - overscan));
  const end = Math.min(count, firstVisible + visibleCount + overscan);
  return { start, end, before: start * rowHeight, after: (count - end) * rowHeight };
}

/** The scrollTop that brings row `index` fully into view, or the current one when it already is. */
export function scrollTopToReveal(
  index: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}
