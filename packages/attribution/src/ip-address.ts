import { isIPv4, isIPv6 } from 'node:net';

// IP addresses and CIDR prefixes as numbers, for the range look-ups of ip-ranges.ts. Validation is
// node:net's (strict: dotted-quad IPv4 without leading zeros, RFC 4291 IPv6 with optional zone);
// only already-validated text is converted here. ipaddr.js was measured and left out: 0.7-3.4 µs a
// parse, and ~40 µs for an invalid address (it validates by throwing).

/** One CIDR as an inclusive numeric range: numbers for IPv4, bigints for IPv6. */
export type Cidr = { v: 4; start: number; end: number } | { v: 6; start: bigint; end: bigint };

/** A dotted-quad IPv4 address (already validated) as an integer in [0, 2^32). */
function v4Value(text: string): number {
  let value = 0;
  let octet = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      value = value * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + c - 48;
  }
  return value * 256 + octet;
}

const groups = new Uint16Array(8);

/**
 * Reads an IPv6 address already validated by `isIPv6` into `groups`, in one pass: hex groups,
 * one `::` gap, an optional embedded IPv4 tail, an optional `%zone` (ignored).
 */
function readV6Groups(text: string): void {
  for (let k = 0; k < 8; k++) groups[k] = 0;
  let count = 0;
  let gapAt = -1;
  let group = 0;
  let digits = 0;
  let groupStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 37) break; // %zone
    if (c === 58) {
      if (digits > 0) groups[count++] = group;
      group = 0;
      digits = 0;
      if (text.charCodeAt(i + 1) === 58) {
        gapAt = count;
        i++;
      }
      groupStart = i + 1;
    } else if (c === 46) {
      const zone = text.indexOf('%', groupStart);
      const v4 = v4Value(text.slice(groupStart, zone < 0 ? text.length : zone));
      groups[count++] = Math.floor(v4 / 65536);
      groups[count++] = v4 % 65536;
      digits = 0;
      break;
    } else {
      group = group * 16 + (c <= 57 ? c - 48 : (c | 0x20) - 87);
      digits++;
    }
  }
  if (digits > 0) groups[count++] = group;
  if (gapAt >= 0) {
    // Move the groups after `::` to the end; the gap between is zeros.
    const tail = count - gapAt;
    for (let k = tail - 1; k >= 0; k--) groups[8 - tail + k] = groups[gapAt + k] ?? 0;
    for (let k = gapAt; k < 8 - tail; k++) groups[k] = 0;
  }
}

const word = (hi: number) => (groups[hi] ?? 0) * 65536 + (groups[hi + 1] ?? 0);

/**
 * An IPv6 address (already validated by `isIPv6`) as a bigint; an IPv4-mapped one
 * (`::ffff:192.0.2.5`) as the IPv4 integer, so it is looked up among the IPv4 ranges.
 */
function v6Value(text: string): number | bigint {
  readV6Groups(text);
  if (word(0) === 0 && word(2) === 0 && word(4) === 0xffff) return word(6);
  return (BigInt(word(0)) << 96n) | (BigInt(word(2)) << 64n) | (BigInt(word(4)) << 32n) | BigInt(word(6));
}

/** The bigint of ::ffff:a.b.c.d, for a mapped prefix shorter than /96. */
const v6ToBigIntMapped = (v4: number) => (0xffffn << 32n) | BigInt(v4);

/** A client IP as a number (IPv4, IPv4-mapped IPv6 included) or a bigint (IPv6), or null. */
export function ipValue(ip: string): number | bigint | null {
  if (isIPv4(ip)) return v4Value(ip);
  if (isIPv6(ip)) return v6Value(ip);
  return null;
}

/**
 * Parses `192.0.2.0/24` or `2001:db8::/32` (IPv4 in strict dotted-quad only). Host bits below
 * the prefix are cleared: `192.0.2.5/24` is `192.0.2.0/24`. An IPv4-mapped IPv6 prefix of /96 or
 * longer becomes the IPv4 prefix it denotes. Null when unreadable.
 */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  const bitsText = text.slice(slash + 1);
  if (slash < 0 || !/^\d{1,3}$/.test(bitsText)) return null;
  const address = text.slice(0, slash);
  let bits = Number(bitsText);
  let value = ipValue(address);
  if (typeof value === 'number' && !isIPv4(address)) {
    // IPv4-mapped: the IPv4 part starts at bit 96.
    if (bits < 96) value = v6ToBigIntMapped(value);
    else bits -= 96;
  }
  if (typeof value === 'number') {
    if (bits > 32) return null;
    const size = 2 ** (32 - bits);
    const start = Math.floor(value / size) * size;
    return { v: 4, start, end: start + size - 1 };
  }
  if (value === null || bits > 128) return null;
  const hostBits = BigInt(128 - bits);
  const start = (value >> hostBits) << hostBits;
  return { v: 6, start, end: start + (1n << hostBits) - 1n };
}
