import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodeRequest, endpoint, endpointPath } from './endpoint';
import { contactsApi } from './endpoints/contacts';
import { userApi } from './endpoints/user';
import { usermediaApi } from './endpoints/usermedia';
import { jsonField } from './form';

describe('endpoint descriptions', () => {
  it('fills path parameters, URL-encoded, and leaves them out of the body', () => {
    expect(endpointPath(userApi.confirmEmail, { key: 'a/b c' })).toBe('/api/user/confirm-email/a%2Fb%20c/');
    const encoded = encodeRequest(userApi.passwordResetSet, { key: 'k1', password1: 'x', password2: 'y' });
    expect(encoded).toMatchObject({ method: 'POST', url: '/api/account/password/reset/key/k1/' });
    expect(String(encoded.body)).toBe('password1=x&password2=y');
  });

  it('sends a JSON field as one JSON text and other arrays as name[] (spec 7)', () => {
    const encoded = encodeRequest(contactsApi.delete, { contacts: [{ id: 3, type: 'user' }] });
    expect([...(encoded.body as URLSearchParams)]).toEqual([['contacts', '[{"id":3,"type":"user"}]']]);
    const plain = endpoint({
      method: 'POST',
      path: '/api/x/',
      request: z.object({ ids: z.array(z.number()), cats: z._default(jsonField(z.array(z.number())), []) }),
      response: z.object({}),
    });
    const body = encodeRequest(plain, { ids: [1, 2], cats: [7] }).body as URLSearchParams;
    expect([...body]).toEqual([
      ['ids[]', '1'],
      ['ids[]', '2'],
      ['cats', '[7]'],
    ]);
  });

  it('puts the fields of a GET into the query', () => {
    const search = endpoint({
      method: 'GET',
      path: '/api/x/:id/',
      request: z.object({ q: z.string() }),
      response: z.object({}),
    });
    expect(encodeRequest(search, { id: 5, q: 'a b' })).toEqual({
      method: 'GET',
      url: '/api/x/5/?q=a+b',
      body: undefined,
    });
  });

  it('encodes an upload as multipart with the file under its field name', () => {
    const file = new File(['png'], 'map.png', { type: 'image/png' });
    const encoded = encodeRequest(usermediaApi.save, {
      id: 0,
      title: 'Map',
      cats: [4],
      copyright: { holder: 'Ann', licence: '' },
      image: file,
    });
    const form = encoded.body as FormData;
    expect(form.get('title')).toBe('Map');
    expect(form.get('cats')).toBe('[4]');
    expect(form.get('copyright')).toBe('{"holder":"Ann","licence":""}');
    expect((form.get('image') as File).name).toBe('map.png');
  });
});
