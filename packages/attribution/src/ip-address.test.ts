import { describe, expect, it } from 'vitest';
import { ipValue, parseCidr } from './index.ts';

describe('ipValue', () => {
  it('reads strict dotted-quad IPv4 only', () => {
    expect(ipValue('192.0.2.5')).toBe(0xc0000205);
    expect(ipValue('0.0.0.0')).toBe(0);
    expect(ipValue('255.255.255.255')).toBe(2 ** 32 - 1);
    for (const bad of ['192.0.2', '192.0.2.256', '192.0.2.010', '0xc0.0.2.1', '3221225989', '192.0.2.5 ', '']) {
      expect(ipValue(bad), bad).toBeNull();
    }
  });

  it('reads every IPv6 spelling to the same number', () => {
    const full = 0x20010db8000000000000000000000001n;
    for (const text of [
      '2001:db8::1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '2001:DB8:0:0::1',
      '2001:db8::1%eth0',
    ]) {
      expect(ipValue(text), text).toBe(full);
    }
    expect(ipValue('::')).toBe(0n);
    expect(ipValue('::1')).toBe(1n);
    expect(ipValue('1::')).toBe(1n << 112n);
    expect(ipValue('64:ff9b::192.0.2.5')).toBe(0x0064ff9b0000000000000000c0000205n);
    for (const bad of ['2001:db8:::1', '1::2::3', '[::1]', '2001:db8::g']) expect(ipValue(bad), bad).toBeNull();
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(ipValue('::ffff:192.0.2.5')).toBe(0xc0000205);
    expect(ipValue('::ffff:c000:205')).toBe(0xc0000205);
    expect(ipValue('0:0:0:0:0:FFFF:192.0.2.5')).toBe(0xc0000205);
  });
});

describe('parseCidr', () => {
  it('clears host bits below the prefix length', () => {
    expect(parseCidr('192.0.2.77/24')).toEqual({ v: 4, start: 0xc0000200, end: 0xc00002ff });
    expect(parseCidr('0.0.0.0/0')).toEqual({ v: 4, start: 0, end: 2 ** 32 - 1 });
    expect(parseCidr('192.0.2.5/32')).toEqual({ v: 4, start: 0xc0000205, end: 0xc0000205 });
    expect(parseCidr('2001:db8::1/127')).toEqual({
      v: 6,
      start: 0x20010db8000000000000000000000000n,
      end: 0x20010db8000000000000000000000001n,
    });
    expect(parseCidr('::/0')).toEqual({ v: 6, start: 0n, end: 2n ** 128n - 1n });
  });

  it('turns an IPv4-mapped prefix into the IPv4 prefix it denotes', () => {
    expect(parseCidr('::ffff:192.0.2.0/120')).toEqual({ v: 4, start: 0xc0000200, end: 0xc00002ff });
  });

  it('refuses what is not a CIDR', () => {
    for (const bad of [
      '192.0.2.0',
      '192.0.2.0/',
      '192.0.2.0/33',
      '192.0.2.0/-1',
      '192.0.2.0/24/1',
      '2001:db8::/129',
      'x/8',
    ]) {
      expect(parseCidr(bad), bad).toBeNull();
    }
  });
});
