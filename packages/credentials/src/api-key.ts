import { createHash, createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** The fixed live-key prefix every read API key starts with. */
export const API_KEY_PREFIX = 'vt_live_';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32; // base62 characters: ~190 bits
const CHECKSUM_LENGTH = 6; // base62 of a CRC-32: lets a typo be told from an unknown key without a lookup
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);
/** How much of a key is stored and shown in clear, to tell keys apart in a list. */
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

export interface IssuedApiKey {
  /** The full key: shown once, never stored. */
  key: string;
  /** SHA-256 of the key, hex: what is stored and looked up. */
  hash: string;
  /** The first characters, stored in clear to recognise the key in a list. */
  prefix: string;
}

function toBase62(bytes: Buffer, length: number): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (out.length < length) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

function checksumOf(secret: string): string {
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(Buffer.from(secret, 'utf8')));
  return toBase62(sum, CHECKSUM_LENGTH);
}

function keyFromEntropy(entropy: Buffer): IssuedApiKey {
  const secret = toBase62(entropy, SECRET_LENGTH);
  const key = `${API_KEY_PREFIX}${secret}${checksumOf(secret)}`;
  return { key, hash: hashApiKey(key), prefix: visibleKeyPrefix(key) };
}

/** A new random key. */
export function generateApiKey(): IssuedApiKey {
  return keyFromEntropy(randomBytes(24));
}

/**
 * A key derived from a deployment secret and a label, so the same key can be printed again
 * (the demo key `pnpm start` shows on every run) while only its hash is stored.
 */
export function deriveApiKey(deploymentSecret: string, label: string): IssuedApiKey {
  const entropy = createHmac('sha256', deploymentSecret).update(`api-key:v1:${label}`).digest().subarray(0, 24);
  return keyFromEntropy(entropy);
}

/** Keys carry ~190 bits of entropy, so a fast hash is enough: nothing to brute-force. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Shape and checksum: a malformed key is refused without a database or Redis lookup. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false;
  const body = candidate.slice(API_KEY_PREFIX.length);
  return checksumOf(body.slice(0, SECRET_LENGTH)) === body.slice(SECRET_LENGTH);
}

function visibleKeyPrefix(key: string): string {
  return key.slice(0, VISIBLE_PREFIX_LENGTH);
}
