import { describe, expect, it } from 'vitest';
import { addressScope } from './client-address';

describe('addressScope', () => {
  it('keeps IPv4 addresses', () => {
    expect(addressScope('203.0.113.7')).toBe('203.0.113.7');
  });
  it('unwraps IPv4-mapped IPv6', () => {
    expect(addressScope('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
  it('counts IPv6 per /64', () => {
    expect(addressScope('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressScope('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
    expect(addressScope('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressScope('::1')).toBe('0:0:0:0::/64');
  });
});
