import { insertTable } from '@scriptorium/common/editor/commands';
import type { EditorView } from 'prosemirror-view';
import { type CSSProperties, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/dialog';

/** The largest table the picker offers, as Google Docs' grid: 10 columns by 8 rows. */
export const PICKER_COLUMNS = 10;
export const PICKER_ROWS = 8;

interface Size {
  columns: number;
  rows: number;
}

/** The size after an arrow key, kept inside the grid; null for another key. */
export function movedSize(size: Size, key: string): Size | null {
  const clamp = (value: number, max: number) => Math.min(max, Math.max(1, value));
  switch (key) {
    case 'ArrowRight':
      return { ...size, columns: clamp(size.columns + 1, PICKER_COLUMNS) };
    case 'ArrowLeft':
      return { ...size, columns: clamp(size.columns - 1, PICKER_COLUMNS) };
    case 'ArrowDown':
      return { ...size, rows: clamp(size.rows + 1, PICKER_ROWS) };
    case 'ArrowUp':
      return { ...size, rows: clamp(size.rows - 1, PICKER_ROWS) };
    case 'Home':
      return { columns: 1, rows: 1 };
    case 'End':
      return { columns: PICKER_COLUMNS, rows: PICKER_ROWS };
    default:
      return null;
  }
}

/**
 * Insert > Table and the toolbar's Table button: a grid of sizes (issue 55). Pointing or the arrow
 * keys choose a size (each cell is a button named "columns × rows"), a click or Enter inserts the
 * table there (its first row a header row) and writing goes on in its first cell.
 */
export function TableSizeDialog({ view, onClose }: { view: EditorView; onClose(): void }) {
  const { t } = useTranslation('tables');
  const [size, setSize] = useState<Size>({ columns: 1, rows: 1 });
  const grid = useRef<HTMLDivElement>(null);
  const label = (chosen: Size) => t('picker.size', { columns: chosen.columns, rows: chosen.rows });

  // The focus follows the chosen cell (one tab stop: the arrow keys move inside the grid).
  useEffect(() => {
    grid.current
      ?.querySelector<HTMLButtonElement>(`[data-size="${size.columns}x${size.rows}"]`)
      ?.focus({ preventScroll: true });
  }, [size]);

  const insert = (chosen: Size) => {
    onClose();
    // After the dialog has handed the focus back: into the new table's first cell.
    requestAnimationFrame(() => {
      view.focus();
      insertTable(chosen.rows, chosen.columns)(view.state, view.dispatch);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const moved = movedSize(size, event.key);
    if (!moved) return;
    event.preventDefault();
    setSize(moved);
  };

  const cells = [];
  for (let rows = 1; rows <= PICKER_ROWS; rows++)
    for (let columns = 1; columns <= PICKER_COLUMNS; columns++) {
      const here = { columns, rows };
      const current = columns === size.columns && rows === size.rows;
      cells.push(
        <button
          key={`${columns}x${rows}`}
          type="button"
          className="table-size-cell"
          data-size={`${columns}x${rows}`}
          data-chosen={columns <= size.columns && rows <= size.rows}
          aria-label={label(here)}
          tabIndex={current ? 0 : -1}
          onPointerEnter={(event) => {
            if (event.pointerType === 'mouse') setSize(here);
          }}
          onClick={() => insert(here)}
        />,
      );
    }

  return (
    <Dialog title={t('picker.title')} onClose={onClose} width={380}>
      <p className="table-size-hint">{t('picker.hint')}</p>
      {/* biome-ignore lint/a11y/useSemanticElements: a grid of buttons, not a form's fieldset */}
      <div
        ref={grid}
        className="table-size-grid"
        role="group"
        aria-label={t('picker.grid')}
        style={{ '--table-columns': PICKER_COLUMNS } as CSSProperties}
        onKeyDown={onKeyDown}
      >
        {cells}
      </div>
      <p className="table-size-label" aria-live="polite">
        {label(size)}
      </p>
    </Dialog>
  );
}
