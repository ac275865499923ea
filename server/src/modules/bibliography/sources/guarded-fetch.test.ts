import { describe, expect, it } from 'vitest';
import { addressAllowed } from './guarded-fetch';

describe('the address check of bibliography sources', () => {
  it('refuses private, loopback, link-local and their IPv4-mapped forms; allows public addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.3.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ])
      expect(addressAllowed(address, false), address).toBe(false);
    for (const address of ['93.184.215.14', '2606:4700::6810:84e5', '::ffff:5db8:d70e'])
      expect(addressAllowed(address, false), address).toBe(true);
  });

  it('allows what the operator lists: everything, or addresses and CIDRs', () => {
    expect(addressAllowed('10.1.2.3', true)).toBe(true);
    expect(addressAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressAllowed('127.0.0.2', ['127.0.0.1'])).toBe(false);
    expect(addressAllowed('10.9.8.7', ['10.0.0.0/8'])).toBe(true);
    expect(addressAllowed('192.168.1.1', ['10.0.0.0/8'])).toBe(false);
    expect(addressAllowed('fd12::3', ['fd12::/16'])).toBe(true);
  });
});
