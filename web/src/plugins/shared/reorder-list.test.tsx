import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { moveItem, ReorderList } from './reorder-list';

describe('moveItem', () => {
  it('moves one item and keeps the others in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b'], 1, 9)).toEqual(['a', 'b']);
  });
});

function Chapters() {
  const [items, setItems] = useState(['One', 'Two', 'Three']);
  return (
    <ReorderList
      ns="books"
      items={items}
      getKey={(item) => item}
      itemName={(item) => item}
      label="Chapters"
      onReorder={setItems}
      renderItem={(item) => <button type="button">{item}</button>}
    />
  );
}

const order = () =>
  within(screen.getByRole('list', { name: 'Chapters' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('ReorderList', () => {
  it('moves items with their buttons and with Alt+arrows, and announces each move', () => {
    render(<Chapters />);
    fireEvent.click(screen.getByRole('button', { name: 'Move Three up' }));
    expect(order()).toEqual(['One', 'Three', 'Two']);
    expect(screen.getByText('Three moved to position 2 of 3.')).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('button', { name: 'One' }), { key: 'ArrowDown', altKey: true });
    expect(order()).toEqual(['Three', 'One', 'Two']);
    // Without Alt the arrows stay the browser's.
    fireEvent.keyDown(screen.getByRole('button', { name: 'Two' }), { key: 'ArrowUp' });
    expect(order()).toEqual(['Three', 'One', 'Two']);
    expect((screen.getByRole('button', { name: 'Move Three up' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('moves an item dropped on another', () => {
    render(<Chapters />);
    const items = within(screen.getByRole('list', { name: 'Chapters' })).getAllByRole('listitem');
    const handle = items[2].querySelector('.reorder-handle') as HTMLElement;
    fireEvent.dragStart(handle, { dataTransfer: { setData: () => {}, effectAllowed: '' } });
    fireEvent.dragOver(items[0]);
    fireEvent.drop(items[0]);
    expect(order()).toEqual(['Three', 'One', 'Two']);
  });
});
