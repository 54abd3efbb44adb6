import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  checkUrlShape,
  checkWebhookUrl,
  classifyAddress,
  guardedLookup,
  type ResolveHost,
  type TargetPolicy,
  TargetRefusedError,
  targetRefusalMessage,
} from './target-guard.ts';

// The SSRF guard on its own: every spelling of an internal address refused by default, names
// judged by what they resolve to (a lookup hook stands in for DNS: no test resolves an outside
// name), and the connection's lookup refusing what the check refuses.

const DEFAULT: TargetPolicy = { allowPrivateTargets: false };
const ALLOW: TargetPolicy = { allowPrivateTargets: true };
/** A resolver that answers from a table, as a DNS server under a test's control would. */
const resolverOf =
  (table: Record<string, string[]>): ResolveHost =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'internal'],
    ['127.8.9.10', 'internal'],
    ['::1', 'internal'],
    ['10.1.2.3', 'internal'],
    ['172.16.0.1', 'internal'],
    ['192.168.1.1', 'internal'],
    ['100.64.0.1', 'internal'],
    ['169.254.1.1', 'internal'],
    ['fe80::1', 'internal'],
    ['fd12:3456::1', 'internal'],
    ['::ffff:127.0.0.1', 'internal'],
    ['::ffff:10.0.0.1', 'internal'],
    ['::ffff:8.8.8.8', 'public'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unusable'],
    ['::', 'unusable'],
    ['224.0.0.1', 'unusable'],
    ['ff02::1', 'unusable'],
    ['255.255.255.255', 'unusable'],
    ['192.0.2.1', 'unusable'],
    ['64:ff9b::7f00:1', 'unusable'],
    ['2002:7f00:1::', 'unusable'],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it('is null for what is not an address', () => {
    expect(classifyAddress('example.com')).toBeNull();
    expect(classifyAddress('')).toBeNull();
  });
});

describe('checkUrlShape, with the default setting', () => {
  it.each([
    'http://127.0.0.1/hook',
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://10.0.0.5/hook',
    'https://192.168.1.20:8443/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/',
    'https://[::ffff:127.0.0.1]/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0x7f.1/',
    'https://017700000001/',
    'https://[fd00:ec2::254]/',
  ])('refuses %s', (url) => {
    const check = checkUrlShape(url, DEFAULT);
    expect(check.ok).toBe(false);
  });

  it('judges every spelling of 127.0.0.1 as the address it is', () => {
    for (const url of ['https://2130706433/', 'https://0x7f.1/', 'https://127.1/', 'https://[::ffff:7f00:1]/']) {
      expect(checkUrlShape(url, DEFAULT), url).toEqual({ ok: false, refusal: 'internal_address' });
    }
    expect(checkUrlShape('https://169.254.169.254/', ALLOW)).toEqual({ ok: false, refusal: 'metadata_address' });
    expect(checkUrlShape('https://0.0.0.0/', ALLOW)).toEqual({ ok: false, refusal: 'unusable_address' });
  });

  it('refuses plain http, other schemes and credentials, each with its own reason', () => {
    expect(checkUrlShape('http://hooks.example.com/x', DEFAULT)).toEqual({ ok: false, refusal: 'scheme' });
    for (const url of [
      'ftp://hooks.example.com/',
      'file:///etc/passwd',
      'gopher://x.example/',
      'javascript:alert(1)',
    ]) {
      expect(checkUrlShape(url, ALLOW), url).toEqual({ ok: false, refusal: 'scheme' });
    }
    expect(checkUrlShape('https://user:pass@hooks.example.com/', DEFAULT)).toEqual({
      ok: false,
      refusal: 'credentials',
    });
    expect(checkUrlShape('https://user@hooks.example.com/', DEFAULT)).toEqual({ ok: false, refusal: 'credentials' });
    expect(checkUrlShape('not a url', DEFAULT)).toEqual({ ok: false, refusal: 'invalid_url' });
  });

  it('accepts an https URL of a name or a public address, without its fragment', () => {
    const check = checkUrlShape('https://hooks.example.com/services/T0/B0/x?y=1#frag', DEFAULT);
    expect(check).toEqual({ ok: true, url: new URL('https://hooks.example.com/services/T0/B0/x?y=1') });
    expect(checkUrlShape('https://8.8.8.8/hook', DEFAULT).ok).toBe(true);
  });

  it('with private targets allowed, takes http and loopback, but never metadata', () => {
    expect(checkUrlShape('http://127.0.0.1:8080/hook', ALLOW).ok).toBe(true);
    expect(checkUrlShape('http://[::1]:8080/hook', ALLOW).ok).toBe(true);
    expect(checkUrlShape('http://10.0.0.1/hook', ALLOW).ok).toBe(true);
    expect(checkUrlShape('http://[fd00:ec2::254]/', ALLOW).ok).toBe(false);
  });
});

describe('checkWebhookUrl: names by what they resolve to', () => {
  const resolveHost = resolverOf({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'internal.example.com': ['10.0.0.7'],
    'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'metadata.example.com': ['169.254.169.254'],
  });

  it('accepts a name whose every address is public', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/x', { ...DEFAULT, resolveHost })).toEqual({
      ok: true,
      url: new URL('https://hooks.example.com/x'),
    });
  });

  it('refuses a name with any internal, mapped or metadata address, and one that does not resolve, alike', async () => {
    for (const host of ['internal', 'mixed', 'mapped', 'metadata', 'nowhere']) {
      const check = await checkWebhookUrl(`https://${host}.example.com/x`, { ...DEFAULT, resolveHost });
      expect(check, host).toEqual({ ok: false, refusal: 'not_public_name' });
    }
  });

  it('refuses localhost through the system resolver (it resolves to loopback)', async () => {
    expect(await checkWebhookUrl('https://localhost/hook', DEFAULT)).toEqual({ ok: false, refusal: 'not_public_name' });
    expect(await checkWebhookUrl('https://localhost./hook', DEFAULT)).toEqual({
      ok: false,
      refusal: 'not_public_name',
    });
    expect((await checkWebhookUrl('http://localhost:9/hook', ALLOW)).ok).toBe(true);
  });

  it('says why in words that name no address', () => {
    const message = targetRefusalMessage('not_public_name', DEFAULT);
    expect(message).toBe('has a host name that does not resolve to a public internet address');
    expect(targetRefusalMessage('scheme', DEFAULT)).toBe('must be an https URL');
    expect(targetRefusalMessage('credentials', DEFAULT)).toMatch(/user name or password/);
  });
});

describe('guardedLookup: the connection reaches only what was checked', () => {
  const lookupWith = (policy: TargetPolicy, hostname: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) => {
      guardedLookup(policy)(hostname, { all }, (err, address, family) => resolve({ err, address, family }));
    });

  it('refuses a name that resolves to loopback now, whatever it resolved to before (DNS rebinding)', async () => {
    let answer = '93.184.216.34';
    const resolveHost: ResolveHost = async () => [{ address: answer, family: 4 }];
    expect((await checkWebhookUrl('https://rebind.example.com/', { ...DEFAULT, resolveHost })).ok).toBe(true);
    answer = '127.0.0.1';
    const { err } = await lookupWith({ ...DEFAULT, resolveHost }, 'rebind.example.com', true);
    expect(err).toBeInstanceOf(TargetRefusedError);
    expect((err as TargetRefusedError).refusal).toBe('not_public_name');
  });

  it('hands the connection the checked addresses, one or all as it asks', async () => {
    const resolveHost = resolverOf({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    const all = await lookupWith({ ...DEFAULT, resolveHost }, 'hooks.example.com', true);
    expect(all.err).toBeNull();
    expect(all.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    const one = await lookupWith({ ...DEFAULT, resolveHost }, 'hooks.example.com', false);
    expect([one.address, one.family]).toEqual(['93.184.216.34', 4]);
  });

  it('is the lookup a real socket uses: a connection to localhost fails before it is made', async () => {
    const err = await new Promise<Error>((resolve) => {
      connect({ host: 'localhost', port: 9, lookup: guardedLookup(DEFAULT) }).on('error', resolve);
    });
    expect(err).toBeInstanceOf(TargetRefusedError);
  });
});
