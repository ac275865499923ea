import { ArrowDown, ArrowUp, GripVertical } from 'lucide-react';
import { type DragEvent, type KeyboardEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The list with `from` moved to position `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}

export interface ReorderListProps<T> {
  /** The plugin namespace holding reorder.up, reorder.down, reorder.handle and reorder.moved. */
  ns: 'templates' | 'books';
  items: readonly T[];
  getKey(item: T): string;
  /** The item's name in labels and announcements. */
  itemName(item: T): string;
  label: string;
  onReorder(next: T[]): void;
  renderItem(item: T, index: number): ReactNode;
  /** Read-only: no handles, no buttons. */
  readOnly?: boolean;
  className?: string;
}

/**
 * An ordered list whose items move by drag and drop (the grip), by their up and down buttons, or
 * with Alt+ArrowUp / Alt+ArrowDown while the focus is inside an item. Each move is announced.
 */
export function ReorderList<T>(props: ReorderListProps<T>) {
  const { ns, items, getKey, itemName, label, onReorder, renderItem, readOnly = false } = props;
  const { t } = useTranslation(ns);
  const [dragging, setDragging] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    setAnnouncement(
      t('reorder.moved', { name: itemName(items[from]), position: to + 1, count: items.length }),
    );
    onReorder(moveItem(items, from, to));
  };

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (readOnly || !event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    move(index, event.key === 'ArrowUp' ? index - 1 : index + 1);
    // Keep the focus on the moved item's same control once React has redrawn the list.
    const active = document.activeElement as HTMLElement | null;
    requestAnimationFrame(() => active?.focus());
  };

  const onDrop = (event: DragEvent, index: number) => {
    event.preventDefault();
    if (dragging !== null) move(dragging, index);
    setDragging(null);
  };

  return (
    <>
      <ol className={`reorder-list stack-list ${props.className ?? ''}`} aria-label={label}>
        {items.map((item, index) => (
          <li
            key={getKey(item)}
            className={`reorder-item${dragging === index ? ' reorder-item-dragging' : ''}`}
            data-testid="reorder-item"
            onKeyDown={(event) => onKeyDown(event, index)}
            onDragOver={readOnly ? undefined : (event) => event.preventDefault()}
            onDrop={readOnly ? undefined : (event) => onDrop(event, index)}
          >
            {readOnly ? null : (
              // biome-ignore lint/a11y/noStaticElementInteractions: a pointer-only drag grip; the keyboard moves items with the buttons and Alt+arrows
              <span
                className="reorder-handle"
                draggable
                title={t('reorder.handle')}
                onDragStart={(event) => {
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', getKey(item));
                  setDragging(index);
                }}
                onDragEnd={() => setDragging(null)}
              >
                <GripVertical aria-hidden="true" />
              </span>
            )}
            <div className="reorder-body">{renderItem(item, index)}</div>
            {readOnly ? null : (
              <span className="reorder-buttons">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('reorder.up', { name: itemName(item) })}
                  aria-keyshortcuts="Alt+ArrowUp"
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                >
                  <ArrowUp aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('reorder.down', { name: itemName(item) })}
                  aria-keyshortcuts="Alt+ArrowDown"
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  <ArrowDown aria-hidden="true" />
                </button>
              </span>
            )}
          </li>
        ))}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}
