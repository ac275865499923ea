import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';

/** Narrowest a column gets by resizing: its header's sort mark and a few letters. */
export const MIN_COLUMN_WIDTH = 48;
/** One arrow key press; Shift makes it a bigger step. */
export const RESIZE_STEP = 16;
const RESIZE_BIG_STEP = 64;
/** Widest a column gets (the separator's aria-valuemax). */
export const MAX_COLUMN_WIDTH = 1600;

interface ColumnResizerProps {
  /** 'Resize column Title'. */
  label: string;
  /** The width the user gave the column; undefined: as laid out. */
  width: number | undefined;
  onResize(width: number): void;
}

/**
 * The handle at a column header's end (the window-splitter pattern): drag it, or focus it and
 * press the left and right arrow keys, to make the column narrower or wider.
 */
export function ColumnResizer({ label, width, onResize }: ColumnResizerProps) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const handle = useRef<HTMLDivElement>(null);
  // The laid-out width until the user picks one: the separator's value must say it. Read after
  // the paint, when the layout is there already (in the commit it would force one).
  const [laidOut, setLaidOut] = useState<number>(MIN_COLUMN_WIDTH);
  useEffect(() => {
    if (width !== undefined || !handle.current) return;
    setLaidOut(Math.round(handle.current.parentElement?.getBoundingClientRect().width ?? MIN_COLUMN_WIDTH));
  }, [width]);

  // Without a width of its own the column starts from what the layout gave it.
  const currentWidth = (element: HTMLElement) =>
    width ?? Math.round(element.parentElement?.getBoundingClientRect().width ?? MIN_COLUMN_WIDTH);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? RESIZE_BIG_STEP : RESIZE_STEP;
    // Enter and Space on the handle do not sort its column.
    if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
    const direction = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (direction === 0) return;
    event.preventDefault();
    event.stopPropagation();
    onResize(Math.min(MAX_COLUMN_WIDTH, currentWidth(event.currentTarget) + direction * step));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    // A drag on the handle is not a press on its (sortable) header.
    event.stopPropagation();
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, width: currentWidth(event.currentTarget) };
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    onResize(Math.min(MAX_COLUMN_WIDTH, Math.round(drag.current.width + event.clientX - drag.current.x)));
  };

  const endDrag = () => {
    drag.current = null;
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is the window-splitter pattern; <hr> cannot take focus
    <div
      ref={handle}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width ?? laidOut}
      aria-valuemin={MIN_COLUMN_WIDTH}
      aria-valuemax={MAX_COLUMN_WIDTH}
      tabIndex={0}
      className="data-table-resizer"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onClick={(event) => event.stopPropagation()}
    />
  );
}
