import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test-i18n';
import { Tabs } from './tabs';

const TABS = [
  { id: 'metadata', label: 'Metadata', content: <input aria-label="Author" defaultValue="" /> },
  { id: 'settings', label: 'Settings', content: <p>Paper size</p> },
];

describe('Tabs', () => {
  it('is a named tab list with one panel shown, named by its tab', () => {
    renderWithI18n(<Tabs label="Book" tabs={TABS} />);
    expect(screen.getByRole('tablist', { name: 'Book' })).not.toBeNull();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Metadata', 'Settings']);
    expect(tabs.map((tab) => tab.getAttribute('aria-selected'))).toEqual(['true', 'false']);
    const panel = screen.getByRole('tabpanel', { name: 'Metadata' });
    expect(panel.querySelector('input')).not.toBeNull();
    expect(screen.queryByText('Paper size')).toBeNull();
  });

  it('shows another panel on a click and with the arrow keys', () => {
    const onSelectionChange = vi.fn();
    renderWithI18n(<Tabs label="Book" tabs={TABS} onSelectionChange={onSelectionChange} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.getByRole('tabpanel', { name: 'Settings' }).textContent).toBe('Paper size');
    expect(onSelectionChange).toHaveBeenLastCalledWith('settings');
    const settings = screen.getByRole('tab', { name: 'Settings' });
    act(() => settings.focus());
    fireEvent.keyDown(settings, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Metadata' }));
    expect(screen.getByRole('tabpanel', { name: 'Metadata' })).not.toBeNull();
    expect(onSelectionChange).toHaveBeenLastCalledWith('metadata');
  });

  it('keeps hidden panels and what was typed in them when asked to', () => {
    renderWithI18n(<Tabs label="Book" tabs={TABS} keepMounted defaultSelectedId="settings" />);
    const author = screen.getByLabelText('Author') as HTMLInputElement;
    fireEvent.change(author, { target: { value: 'Ada' } });
    // Hidden and out of reach (inert) until its tab is chosen.
    expect(screen.queryByRole('tabpanel', { name: 'Metadata' })).toBeNull();
    expect(author.closest('.tabs-panel')?.hasAttribute('inert')).toBe(true);
    fireEvent.click(screen.getByRole('tab', { name: 'Metadata' }));
    expect((screen.getByLabelText('Author') as HTMLInputElement).value).toBe('Ada');
    expect(screen.getByRole('tabpanel', { name: 'Metadata' }).contains(author)).toBe(true);
    expect(screen.getByText('Paper size').closest('.tabs-panel')?.hasAttribute('inert')).toBe(true);
  });

  it('follows a controlled selection', () => {
    const view = renderWithI18n(<Tabs label="Book" tabs={TABS} selectedId="settings" />);
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    view.rerender(<Tabs label="Book" tabs={TABS} selectedId="metadata" />);
    expect(screen.getByRole('tab', { name: 'Metadata' }).getAttribute('aria-selected')).toBe('true');
  });
});
