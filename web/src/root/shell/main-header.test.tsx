// The screens behind the links are stand-ins: these tests are about the header.
import '../../app/testing/stub-screens';
import { userApi } from '@scriptorium/common/api/endpoints/user';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { anonymousConfiguration, json, route, userConfiguration } from '../../app/testing/fake-fetch';
import { startApp } from '../testing/start-app';

async function openApp(plugins: ('templates' | 'books')[] = ['templates']) {
  const server = startApp([json(userConfiguration({ plugins })), json(anonymousConfiguration)], {
    [route(userApi.logout)]: json({ ok: true }),
  });
  const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
  // The screen behind the address loads as its own chunk; once it shows, the shell has settled
  // (a screen arriving later would take the focus from a menu opened before it).
  await screen.findByRole('heading', { name: / screen$/ });
  return { server, nav };
}

function link(name: string) {
  return screen.getByRole('link', { name });
}

function altKey(code: string, key: string, target: Element = document.body) {
  return fireEvent.keyDown(target, { code, key, altKey: true });
}

describe('logged-in header (spec 2.2)', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('lists the sections in order, plugin items only when enabled, and marks the current one', async () => {
    const { nav } = await openApp(['templates', 'books']);
    expect(
      within(nav)
        .getAllByRole('link')
        .map((item) => [item.textContent, item.getAttribute('href')]),
    ).toEqual([
      ['Documents', '/'],
      ['Bibliography', '/bibliography/'],
      ['Images', '/usermedia/'],
      ['Templates', '/templates/'],
      ['Books', '/books/'],
    ]);
    expect(link('Documents').getAttribute('aria-current')).toBe('page');
    expect(link('Bibliography').getAttribute('aria-current')).toBeNull();
    expect(link('Bibliography').getAttribute('aria-keyshortcuts')).toBe('Alt+B');
    expect(link('Scriptorium').getAttribute('href')).toBe('/');

    fireEvent.click(link('Images'));
    expect(window.location.pathname).toBe('/usermedia/');
    expect(await screen.findByRole('heading', { name: 'usermedia screen' })).toBeTruthy();
    expect(link('Images').getAttribute('aria-current')).toBe('page');
    expect(link('Documents').getAttribute('aria-current')).toBeNull();
  });

  it('hides plugin items that are not enabled', async () => {
    const { nav } = await openApp([]);
    expect(
      within(nav)
        .getAllByRole('link')
        .map((item) => item.textContent),
    ).toEqual(['Documents', 'Bibliography', 'Images']);
  });

  it('navigates with Alt-d/b/m/t by physical key, also on other layouts and from text fields', async () => {
    await openApp(['templates']);
    altKey('KeyB', 'b');
    expect(window.location.pathname).toBe('/bibliography/');
    // A Mac layout reports Alt-m as "µ": the physical key still decides.
    altKey('KeyM', 'µ');
    expect(window.location.pathname).toBe('/usermedia/');
    altKey('KeyT', '†');
    expect(window.location.pathname).toBe('/templates/');

    const input = document.createElement('input');
    document.body.append(input);
    input.focus();
    fireEvent.keyDown(input, { code: 'KeyD', key: 'd' });
    expect(window.location.pathname).toBe('/templates/');
    altKey('KeyD', 'd', input);
    expect(window.location.pathname).toBe('/');
    input.remove();

    // Books is not enabled: Alt-o does nothing.
    altKey('KeyO', 'o');
    expect(window.location.pathname).toBe('/');
    // Ctrl+Alt belongs to the browser or AltGr characters.
    fireEvent.keyDown(document.body, { code: 'KeyB', key: 'b', altKey: true, ctrlKey: true });
    expect(window.location.pathname).toBe('/');
  });

  it('keeps the Alt shortcuts quiet while a dialog is open', async () => {
    await openApp(['templates']);
    fireEvent.keyDown(document.body, { code: 'KeyK', key: 'k', ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
    altKey('KeyB', 'b', within(dialog).getByRole('searchbox'));
    expect(window.location.pathname).toBe('/');
    fireEvent.keyDown(within(dialog).getByRole('searchbox'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    altKey('KeyB', 'b');
    expect(window.location.pathname).toBe('/bibliography/');
  });

  it("lists the screen's actions in the command palette (Ctrl+K) and runs the chosen one", async () => {
    await openApp(['templates']);
    fireEvent.keyDown(document.body, { code: 'KeyK', key: 'k', ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
    const list = within(dialog).getByRole('menu', { name: 'Command palette' });
    // The screen's own actions would come first (scope 'page'); this stand-in screen has none.
    expect(
      within(list)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Profile',
      'Contacts',
      'Log out',
      'DocumentsAlt-d',
      'BibliographyAlt-b',
      'ImagesAlt-m',
      'TemplatesAlt-t',
    ]);
    const search = within(dialog).getByRole('searchbox', { name: 'Search commands' });
    fireEvent.change(search, { target: { value: 'TEMPL' } });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('menuitem')
          .map((item) => item.textContent),
      ).toEqual(['TemplatesAlt-t']),
    );
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'Enter' });
    await waitFor(() => expect(window.location.pathname).toBe('/templates/'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('moves between header items with the arrow keys, Home and End', async () => {
    await openApp(['templates']);
    const userButton = screen.getByRole('button', { name: 'Ada Lovelace' });
    link('Documents').focus();
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(link('Bibliography'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement).toBe(userButton);
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(link('Documents'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(userButton);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Home' });
    expect(document.activeElement).toBe(link('Documents'));
  });

  it('opens the user menu with the arrow key, moves with arrows, closes with Escape back to the trigger', async () => {
    await openApp();
    const trigger = screen.getByRole('button', { name: 'Ada Lovelace' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('true');
    act(() => trigger.focus());
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    fireEvent.keyUp(trigger, { key: 'ArrowDown' });
    // The menu is labelled by its trigger, the user's name.
    const menu = await screen.findByRole('menu', { name: 'Ada Lovelace' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Profile', 'Contacts', 'Log out']);
    await waitFor(() => expect(document.activeElement).toBe(items[0]));

    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(items[1]));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowUp' });
    await waitFor(() => expect(document.activeElement).toBe(items[0]));

    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    // react-aria gives focus back a frame after the menu closes.
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('opens profile and contacts from the user menu with Enter', async () => {
    await openApp();
    const trigger = screen.getByRole('button', { name: 'Ada Lovelace' });
    act(() => trigger.focus());
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    const menu = await screen.findByRole('menu', { name: 'Ada Lovelace' });
    const contacts = within(menu).getByRole('menuitem', { name: 'Contacts' });
    await waitFor(() => expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[0]));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(contacts);
    fireEvent.keyDown(contacts, { key: 'Enter' });
    fireEvent.keyUp(contacts, { key: 'Enter' });
    expect(window.location.pathname).toBe('/user/contacts/');
    expect(await screen.findByRole('heading', { name: 'contacts screen' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    const profile = within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Profile' });
    await waitFor(() => expect(document.activeElement).toBe(profile));
    fireEvent.keyDown(profile, { key: 'Enter' });
    fireEvent.keyUp(profile, { key: 'Enter' });
    expect(window.location.pathname).toBe('/user/profile/');
    expect(await screen.findByRole('heading', { name: 'profile screen' })).toBeTruthy();
  });

  it('logs out: ends the session on the server and goes to the logo target as a visitor', async () => {
    window.history.replaceState(null, '', '/bibliography/');
    const { server } = await openApp();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Ada Lovelace' }), { key: 'ArrowDown' });
    const logout = within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Log out' });
    fireEvent.keyDown(logout, { key: 'Enter' });
    fireEvent.keyUp(logout, { key: 'Enter' });
    expect(await screen.findByLabelText('Username or e-mail')).toBeTruthy();
    expect(server.count(route(userApi.logout))).toBe(1);
    expect(window.location.pathname).toBe('/');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });
});
