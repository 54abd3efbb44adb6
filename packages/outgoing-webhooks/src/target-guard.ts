import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// The SSRF guard of alert webhooks: a URL people type is posted to by the service, from inside
// its network. So a URL must be https, carry no credentials, and its host must resolve only to
// public addresses; checked when it is saved and again at every delivery, where the connection
// goes to the very addresses checked (`guardedLookup`), so a name that changes its answer between
// the check and the connect (DNS rebinding) cannot reach an internal host.

/** What a deployment allows alert webhooks to reach. */
export interface TargetPolicy {
  /**
   * ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS: plain http, and loopback, private (RFC 1918, ULA),
   * link-local and CGNAT addresses, for a receiver on the deployment's own network.
   */
  allowPrivateTargets: boolean;
  /** How a host name becomes addresses; the system resolver by default (tests give their own). */
  resolveHost?: ResolveHost;
}

export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Where an address is: `public` (the only class reached by default), `internal` (reached only
 * when the deployment allows private targets), `metadata` (a cloud instance's metadata service:
 * credentials live there, never reached) and `unusable` (unspecified, multicast, broadcast,
 * reserved, documentation, and the IPv6 forms that embed an IPv4 address elsewhere: no receiver
 * lives there, and some of them reach the host itself).
 */
export type AddressClass = 'public' | 'internal' | 'metadata' | 'unusable';

/**
 * The metadata services of the major clouds. Most are link-local or ULA anyway; Azure's
 * 168.63.129.16 and Alibaba's 100.100.100.200 are not, and none may be reached even when private
 * targets are allowed: an operator opening the LAN to a receiver does not mean to open these.
 */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set(
  [
    '169.254.169.254',
    '169.254.170.2',
    '169.254.169.253',
    '168.63.129.16',
    '100.100.100.200',
    'fd00:ec2::254',
    'fd00:ec2::23',
  ].map((a) => ipaddr.parse(a).toNormalizedString()),
);

const INTERNAL_RANGES: ReadonlySet<string> = new Set([
  'loopback',
  'private',
  'uniqueLocal',
  'linkLocal',
  'carrierGradeNat',
]);

/** The class of one IP address (v4, v6, or v4 mapped into v6); null when it is not an address. */
export function classifyAddress(text: string): AddressClass | null {
  if (!ipaddr.isValid(text)) return null;
  let address = ipaddr.parse(text);
  // ::ffff:127.0.0.1 is 127.0.0.1 on the wire: judged as the IPv4 address it carries.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) return 'metadata';
  const range = address.range();
  if (range === 'unicast') return 'public';
  return INTERNAL_RANGES.has(range) ? 'internal' : 'unusable';
}

/** Why a URL or an address is refused; each has the one message people read. */
export type TargetRefusal =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'internal_address'
  | 'metadata_address'
  | 'unusable_address'
  | 'not_public_name';

/**
 * The reason as people read it. Nothing found by resolving a name is echoed (no address, and the
 * same words for a name that does not resolve and one that resolves inside), so the check tells
 * nobody what the service's own network holds.
 */
export function targetRefusalMessage(refusal: TargetRefusal, policy: TargetPolicy): string {
  switch (refusal) {
    case 'invalid_url':
      return 'is not a valid URL';
    case 'scheme':
      return policy.allowPrivateTargets ? 'must be an http or https URL' : 'must be an https URL';
    case 'credentials':
      return 'must not hold a user name or password; put a receiver’s secret in its path or use a signed (standard) webhook';
    case 'internal_address':
      return 'points at a loopback, private or link-local address; alerts go only to public addresses on this deployment';
    case 'metadata_address':
      return 'points at a cloud metadata address, which alerts never reach';
    case 'unusable_address':
      return 'points at an address no receiver can have (unspecified, multicast, broadcast or reserved)';
    case 'not_public_name':
      return policy.allowPrivateTargets
        ? 'has a host name that does not resolve to an address alerts may reach'
        : 'has a host name that does not resolve to a public internet address';
  }
}

/** An address class as a refusal under the policy; null when it may be reached. */
function refusalOfClass(cls: AddressClass, policy: TargetPolicy): TargetRefusal | null {
  if (cls === 'public') return null;
  if (cls === 'internal') return policy.allowPrivateTargets ? null : 'internal_address';
  return cls === 'metadata' ? 'metadata_address' : 'unusable_address';
}

/** A URL's host without the brackets of an IPv6 literal. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type UrlCheck = { ok: true; url: URL } | { ok: false; refusal: TargetRefusal };

/**
 * What can be told of a URL without resolving it: scheme, credentials and, for an IP literal, its
 * address (the WHATWG parser already wrote `http://2130706433/` and `http://0x7f.1/` as
 * 127.0.0.1, so every spelling of an address is judged as the address). The fragment, never
 * sent, is dropped.
 */
export function checkUrlShape(text: string, policy: TargetPolicy): UrlCheck {
  if (!URL.canParse(text)) return { ok: false, refusal: 'invalid_url' };
  const url = new URL(text);
  const schemes = policy.allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return { ok: false, refusal: 'scheme' };
  if (url.username || url.password) return { ok: false, refusal: 'credentials' };
  if (!url.hostname) return { ok: false, refusal: 'invalid_url' };
  url.hash = '';
  const cls = classifyAddress(bareHost(url));
  const refusal = cls && refusalOfClass(cls, policy);
  return refusal ? { ok: false, refusal } : { ok: true, url };
}

/** The system resolver, every address of the name, bounded in time. */
const RESOLVE_TIMEOUT_MS = 5000;
export const systemResolveHost: ResolveHost = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('name resolution timed out'), { code: 'ETIMEOUT' })),
      RESOLVE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([dnsLookup(hostname, { all: true, verbatim: true }), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The refusal of a set of resolved addresses: any one address that may not be reached refuses the
 * name (a name answering one public and one internal address would otherwise reach the internal
 * one on some connection).
 */
function refusalOfAddresses(addresses: readonly ResolvedAddress[], policy: TargetPolicy): TargetRefusal | null {
  if (addresses.length === 0) return 'not_public_name';
  for (const { address } of addresses) {
    const cls = classifyAddress(address);
    if (cls === null) return 'not_public_name';
    if (refusalOfClass(cls, policy)) return 'not_public_name';
  }
  return null;
}

/**
 * The whole check of a URL as it is saved: its shape, then every address its host resolves to.
 * A name that does not resolve is refused too: a receiver that cannot be reached now is a typo
 * more often than not.
 */
export async function checkWebhookUrl(text: string, policy: TargetPolicy): Promise<UrlCheck> {
  const shape = checkUrlShape(text, policy);
  if (!shape.ok || classifyAddress(bareHost(shape.url)) !== null) return shape;
  const resolve = policy.resolveHost ?? systemResolveHost;
  const addresses = await resolve(shape.url.hostname).catch(() => []);
  const refusal = refusalOfAddresses(addresses, policy);
  return refusal ? { ok: false, refusal } : shape;
}

/** The error a connection fails with when the guard refuses its host's addresses. */
export class TargetRefusedError extends Error {
  override name = 'TargetRefusedError';
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
  constructor(readonly refusal: TargetRefusal) {
    super(`webhook target refused: ${refusal}`);
  }
}

/**
 * The `lookup` of a delivery's connection: resolves the host, refuses the connection unless every
 * address may be reached, and hands the connection those same addresses, so what is connected to
 * is what was checked. (Node skips `lookup` for an IP literal, which `checkUrlShape` judged.)
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  const resolve = policy.resolveHost ?? systemResolveHost;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (resolved) => {
        const refusal = refusalOfAddresses(resolved, policy);
        if (refusal) return callback(new TargetRefusedError(refusal), '', 4);
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = resolved.filter((a) => wanted === 0 || a.family === wanted);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`no IPv${wanted} address`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all)
          return callback(
            null,
            addresses.map(({ address, family }) => ({ address, family })),
          );
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 4),
    );
  };
}
