import { describe, expect, it } from 'vitest';
import { contactsDeleteRequest, inviteAddRequest, invitesAnswerRequest } from './contacts';
import { encodeForm } from './form';

function asForm(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(encodeForm(payload));
}

describe('contacts API schemas', () => {
  it('reads the contacts to delete from a JSON form field', () => {
    const body = asForm({ contacts: [{ id: 3, type: 'user' }] });
    // encodeForm sends arrays as name[]; the delete call sends the list as one JSON string.
    expect(Object.keys(body)).toEqual(['contacts[]']);
    const parsed = contactsDeleteRequest.parse({ contacts: JSON.stringify([{ id: 3, type: 'user' }]) });
    expect(parsed.contacts).toEqual([{ id: 3, type: 'user' }]);
  });

  it('rejects unknown types, empty lists and broken JSON', () => {
    expect(contactsDeleteRequest.safeParse({ contacts: '[{"id":3,"type":"friend"}]' }).success).toBe(false);
    expect(contactsDeleteRequest.safeParse({ contacts: '[]' }).success).toBe(false);
    expect(contactsDeleteRequest.safeParse({ contacts: '[{' }).success).toBe(false);
  });

  it('accepts whole contact objects as invites and keeps only their ids', () => {
    const parsed = invitesAnswerRequest.parse({
      invites: JSON.stringify([{ id: 5, type: 'to_userinvite', name: 'Ann', email: 'a@example.org' }]),
    });
    expect(parsed.invites).toEqual([{ id: 5 }]);
  });

  it('trims the user string and requires one', () => {
    expect(inviteAddRequest.parse({ user_string: '  ann ' }).user_string).toBe('ann');
    expect(inviteAddRequest.safeParse({ user_string: '   ' }).success).toBe(false);
  });
});
