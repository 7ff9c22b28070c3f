import { describe, expect, it } from 'vitest';
import { addressKey } from './login-throttle.js';

describe('addressKey', () => {
  it('counts IPv4 as is (also IPv4-mapped) and IPv6 per /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:0db8:0001:0002:ffff::9'));
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('unknown')).toBe('unknown');
  });
});
