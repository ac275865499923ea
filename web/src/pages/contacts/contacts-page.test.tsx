import type { Contact } from '@scriptorium/common/api/contacts';
import { contactsApi } from '@scriptorium/common/api/endpoints/contacts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CONFIGURATION,
  fakeFetch,
  json,
  route,
  type SentRequest,
  userConfiguration,
} from '../../app/testing/fake-fetch';
import { App } from '../../root/app';

const LIST = route(contactsApi.list);
const ADD = route(contactsApi.invite);
const ACCEPT = route(contactsApi.accept);
const DELETE = route(contactsApi.delete);

const bob: Contact = { id: 11, type: 'user', name: 'Bob Builder', email: 'bob@example.org' };
const carol: Contact = { id: 5, type: 'to_userinvite', name: 'Carol Chen', email: 'carol@example.org' };
const dan: Contact = { id: 6, type: 'userinvite', name: 'dan@example.net', email: 'dan@example.net' };

async function openContacts(routes: Parameters<typeof fakeFetch>[0]) {
  const server = fakeFetch({ [CONFIGURATION]: json(userConfiguration()), ...routes });
  render(<App />);
  // The page is its own chunk: the first import in a test run takes a while.
  // The table is there at once with skeleton rows; the rows are in when it is no longer busy.
  await screen.findByRole('grid', { name: 'Contacts', busy: false }, { timeout: 10000 });
  return server;
}

function row(name: string): HTMLElement {
  const [cell] = screen.getAllByText(name, { selector: 'td, td *' });
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
}

function field(request: SentRequest | undefined, name: string): unknown {
  const value = request?.body?.get(name);
  return value ? JSON.parse(value) : undefined;
}

// Each test loads the app and its page chunk; the first load in a run is slow.
describe('contacts page (spec 2.4)', { timeout: 30000 }, () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/user/contacts/');
  });

  it('lists contacts and invites with name, type and e-mail, without paging', async () => {
    await openContacts({ [LIST]: json({ contacts: [bob, carol, dan] }) });
    const table = screen.getByRole('grid', { name: 'Contacts' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    // The action column's header shows no text; it is named for screen readers.
    expect(headers).toEqual(['', 'Name', 'Type', 'E-mail address', 'Actions']);
    expect(within(row('Bob Builder')).getByText('Contact')).toBeTruthy();
    expect(within(row('Carol Chen')).getByText('Invitation received')).toBeTruthy();
    expect(within(row('Carol Chen')).getByRole('button', { name: /Respond/ })).toBeTruthy();
    expect(within(row('Bob Builder')).queryByRole('button', { name: /Respond/ })).toBeNull();
    expect(screen.queryByText(/Rows per page/)).toBeNull();
    expect(document.title).toBe('Contacts - Scriptorium');
  });

  it("says 'No contacts available' when there are none", async () => {
    await openContacts({ [LIST]: json({ contacts: [] }) });
    expect(await screen.findByText('No contacts available')).toBeTruthy();
  });

  it("says 'No contacts found' when the search leaves none", async () => {
    await openContacts({ [LIST]: json({ contacts: [bob] }) });
    await screen.findByText('Bob Builder');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'zzz' } });
    expect(await screen.findByText('No contacts found')).toBeTruthy();
  });

  it("shows 'Could not obtain contacts list' when the list cannot load", async () => {
    await openContacts({ [LIST]: json({ error: 'server_error', message: 'x' }, 500) });
    expect(await screen.findByText('Could not obtain contacts list')).toBeTruthy();
  });

  it('invites each piece of the box one at a time and warns under each failed entry', async () => {
    const server = await openContacts({
      [LIST]: json({ contacts: [] }),
      [ADD]: (request) => {
        const entry = request.body?.get('user_string');
        if (entry === 'ada') return json({ error: 1, message: 'x' }, 400);
        if (entry === 'bob') return json({ error: 2, message: 'x' }, 409);
        return json({ error: 3, message: 'x' }, 400);
      },
    });
    await screen.findByText('No contacts available');
    fireEvent.keyDown(window, { key: 'i', code: 'KeyI', altKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Invite contact' });
    const box = within(dialog).getByPlaceholderText('e-mail address or username');
    fireEvent.change(box, { target: { value: ' ada,, bob;\nnot-an@address ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));

    expect(await within(dialog).findByText('You cannot add yourself to your contacts!')).toBeTruthy();
    expect(within(dialog).getByText('This person is already in your contacts!')).toBeTruthy();
    expect(within(dialog).getByText('Invalid email!')).toBeTruthy();
    const entries = within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(entries).toEqual([
      'adaYou cannot add yourself to your contacts!',
      'bobThis person is already in your contacts!',
      'not-an@addressInvalid email!',
    ]);
    expect(
      server.requests.filter((r) => `${r.method} ${r.url}` === ADD).map((r) => r.body?.get('user_string')),
    ).toEqual(['ada', 'bob', 'not-an@address']);
    // Nothing was added: the dialog stays open.
    expect(screen.getByRole('dialog', { name: 'Invite contact' })).toBeTruthy();
  });

  it('closes the dialog and shows the new invites once contacts were added', async () => {
    await openContacts({
      [LIST]: json({ contacts: [] }),
      [ADD]: json({ contact: dan }, 201),
    });
    await screen.findByText('No contacts available');
    fireEvent.click(screen.getByRole('button', { name: 'Invite contact' }));
    const dialog = await screen.findByRole('dialog');
    const modal = document.querySelector<HTMLElement>('.dialog-modal');
    expect([
      modal?.style.getPropertyValue('--dialog-width'),
      modal?.style.getPropertyValue('--dialog-height'),
    ]).toEqual(['350px', '250px']);
    fireEvent.change(within(dialog).getByPlaceholderText('e-mail address or username'), {
      target: { value: 'dan@example.net' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(row('dan@example.net')).getByText('Invitation sent')).toBeTruthy();
  });

  it('accepts a received invite through Respond', async () => {
    const carolAsContact: Contact = { id: 42, type: 'user', name: 'Carol Chen', email: 'carol@example.org' };
    const server = await openContacts({
      [LIST]: json({ contacts: [carol] }),
      [ACCEPT]: json({ contacts: [carolAsContact] }),
    });
    await screen.findByText('Carol Chen');
    fireEvent.click(within(row('Carol Chen')).getByRole('button', { name: /Respond/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Accept' }));
    await waitFor(() => expect(within(row('Carol Chen')).getByText('Contact')).toBeTruthy());
    expect(
      field(
        server.requests.find((r) => r.url === contactsApi.accept.path),
        'invites',
      ),
    ).toEqual([{ id: 5 }]);
  });

  it('toggles the selection with Space and Enter, and deletes the row contact with Delete', async () => {
    const server = await openContacts({
      [LIST]: json({ contacts: [bob, dan] }),
      [DELETE]: json({ ok: true }),
    });
    await screen.findByText('Bob Builder');
    const bobRow = row('Bob Builder');
    fireEvent.keyDown(bobRow, { key: ' ' });
    expect(bobRow.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(bobRow, { key: 'Enter' });
    expect(bobRow.getAttribute('aria-selected')).toBe('false');
    fireEvent.keyDown(bobRow, { key: 'Enter' });
    expect(bobRow.getAttribute('aria-selected')).toBe('true');

    fireEvent.keyDown(bobRow, { key: 'Delete' });
    const dialog = await screen.findByRole('dialog', { name: 'Delete contacts' });
    expect(within(dialog).getByText('Do you really want to delete 1 entry from your contacts?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Bob Builder')).toBeNull());
    expect(
      field(
        server.requests.find((r) => r.url === contactsApi.delete.path),
        'contacts',
      ),
    ).toEqual([{ id: 11, type: 'user' }]);
    expect(screen.getByText('dan@example.net', { selector: 'td' })).toBeTruthy();
  });

  it('deletes the selected rows with the bulk action Delete selected', async () => {
    const server = await openContacts({
      [LIST]: json({ contacts: [bob, dan] }),
      [DELETE]: json({ ok: true }),
    });
    await screen.findByText('Bob Builder');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Actions for the selected entries' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete contacts' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No contacts available')).toBeTruthy();
    const sent = field(
      server.requests.find((r) => r.url === contactsApi.delete.path),
      'contacts',
    );
    expect(sent).toEqual(
      expect.arrayContaining([
        { id: 11, type: 'user' },
        { id: 6, type: 'userinvite' },
      ]),
    );
  });
});
