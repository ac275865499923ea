import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DeferredSelect } from './deferred-select';
import { selectButton, shownChoice } from './select-testing';

const THEMES: { value: string; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

function Theme({ onChange = () => {} }: { onChange?: (value: string) => void }) {
  return <DeferredSelect<string> label="Theme" inline value="light" options={THEMES} onChange={onChange} />;
}

/** react-aria marks the elements it renders; the stand-in has no such mark. */
const isReactAria = (element: HTMLElement) => element.hasAttribute('data-rac');

// One file, one module instance: the tests run in order, from "never loaded" to "loaded".
describe('DeferredSelect', () => {
  it('stands in for the closed select, named and showing the choice as it would, without loading it', () => {
    render(<Theme />);
    const button = selectButton('Theme');
    expect(button.getAttribute('aria-haspopup')).toBe('listbox');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(shownChoice('Theme')).toBe('Light');
    expect(screen.getByText('Theme').className).toBe('select-label');
    expect(isReactAria(button)).toBe(false);
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('opens the real list when pressed, focused in it; Escape gives the focus to the real button', async () => {
    const onChange = vi.fn();
    render(<Theme onChange={onChange} />);
    fireEvent.click(selectButton('Theme'));
    const list = await screen.findByRole('listbox');
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Light', 'Dark']);
    expect(list.contains(document.activeElement)).toBe(true);

    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(selectButton('Theme')));
    expect(isReactAria(selectButton('Theme'))).toBe(true);

    fireEvent.click(selectButton('Theme'));
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Dark' }));
    expect(onChange).toHaveBeenCalledWith('dark');
  });

  it('is the real select at once when mounted after the load (nothing left to defer)', () => {
    render(<Theme />);
    expect(isReactAria(selectButton('Theme'))).toBe(true);
  });
});

describe('DeferredSelect from the keyboard', () => {
  it('opens with an arrow key on the stand-in', async () => {
    vi.resetModules();
    const { DeferredSelect: Fresh } = await import('./deferred-select');
    render(<Fresh<string> label="Theme" inline value="light" options={THEMES} onChange={() => {}} />);
    expect(isReactAria(selectButton('Theme'))).toBe(false);
    fireEvent.keyDown(selectButton('Theme'), { key: 'ArrowDown' });
    expect(await screen.findByRole('listbox')).toBeTruthy();
  });
});
