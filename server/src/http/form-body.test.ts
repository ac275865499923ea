import { encodeForm } from '@scriptorium/common/api/form';
import { describe, expect, it } from 'vitest';
import { parseFormBody } from './form-body';

describe('parseFormBody', () => {
  it('turns name[] entries into an array under name', () => {
    const body = parseFormBody(encodeForm({ ids: [3, 5, 8], title: 'x y' }).toString());
    expect(body).toEqual({ ids: ['3', '5', '8'], title: 'x y' });
  });

  it('keeps the last value of a repeated plain field', () => {
    expect(parseFormBody('a=1&a=2')).toEqual({ a: '2' });
  });

  it('treats __proto__ as an ordinary field', () => {
    const body = parseFormBody('__proto__=x&constructor[]=y');
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toBe('x');
    expect(body.constructor).toEqual(['y']);
  });

  it('decodes objects sent as JSON text unchanged', () => {
    const body = parseFormBody(encodeForm({ form_data: { user: { username: 'ä&=' } } }).toString());
    expect(JSON.parse(String(body.form_data))).toEqual({ user: { username: 'ä&=' } });
  });
});
