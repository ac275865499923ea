import { fireEvent, screen, within } from '@testing-library/react';

/** Unit tests: the button of a Select found by its label (its name is "<choice> <label>"). */
export function selectButton(label: string, scope: HTMLElement = document.body): HTMLElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return within(scope).getByRole('button', { name: new RegExp(`(^|\\s)${escaped}$`) });
}

/** The choice a Select shows. */
export function shownChoice(label: string, scope?: HTMLElement): string {
  return selectButton(label, scope).querySelector('.select-value')?.textContent ?? '';
}

/** The option texts of a Select, read by opening it (Escape closes it again). */
export function optionsOf(label: string, scope?: HTMLElement): string[] {
  const button = selectButton(label, scope);
  fireEvent.click(button);
  const names = screen.getAllByRole('option').map((option) => option.textContent ?? '');
  fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
  return names;
}

/** Opens the Select labelled `label` and chooses the option named `option`. */
export function chooseOption(label: string, option: string, scope?: HTMLElement) {
  fireEvent.click(selectButton(label, scope));
  fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}
