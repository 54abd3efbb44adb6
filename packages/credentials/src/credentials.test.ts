import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PREFIX,
  constantTimeEqual,
  deriveApiKey,
  deriveCrawlToken,
  deriveLegacyWebhookSecret,
  deriveWebhookSecret,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  signWebhookPayload,
  verifyCrawlToken,
  verifyStandardWebhookSignature,
  verifyWebhookSignature,
} from './index.ts';

const SECRET = 'deployment-secret-0123456789abcdef0123';
const PROPERTY = '6f1c2b1e-8d0a-4c55-9b7e-1f2a3b4c5d6e';
const OTHER_PROPERTY = '0a0b0c0d-1111-4222-8333-444455556666';

describe('read API keys', () => {
  it('[READ-13] start with the fixed live prefix followed by the secret part', () => {
    const issued = generateApiKey();
    expect(issued.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(issued.key.length).toBe(API_KEY_PREFIX.length + 38);
    expect(isWellFormedApiKey(issued.key)).toBe(true);
    expect(issued.prefix).toBe(issued.key.slice(0, issued.prefix.length));
    expect(issued.key.startsWith(issued.prefix)).toBe(true);
  });

  it('are stored as a SHA-256 hash, never in clear', () => {
    const issued = generateApiKey();
    expect(issued.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.hash).toBe(hashApiKey(issued.key));
    expect(issued.hash).not.toContain(issued.key.slice(API_KEY_PREFIX.length));
  });

  it('differ on every generation', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });

  it('[READ-12] a one-character typo fails the checksum without any lookup', () => {
    const { key } = generateApiKey();
    const last = key.at(-10) === 'a' ? 'b' : 'a';
    const typo = `${key.slice(0, -10)}${last}${key.slice(-9)}`;
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(isWellFormedApiKey(key.replace(API_KEY_PREFIX, 'vt_test_'))).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('a derived key is the same for the same secret and label, and differs otherwise', () => {
    expect(deriveApiKey(SECRET, 'demo').key).toBe(deriveApiKey(SECRET, 'demo').key);
    expect(deriveApiKey(SECRET, 'demo').key).not.toBe(deriveApiKey(SECRET, 'other').key);
    expect(deriveApiKey(`${SECRET}x`, 'demo').key).not.toBe(deriveApiKey(SECRET, 'demo').key);
    expect(isWellFormedApiKey(deriveApiKey(SECRET, 'demo').key)).toBe(true);
  });
});

describe('crawl tokens', () => {
  it('[CRAWL-3] are derived from (property, version), not stored, and verify only for that pair', () => {
    const token = deriveCrawlToken(SECRET, PROPERTY, 1);
    expect(token).toBe(deriveCrawlToken(SECRET, PROPERTY, 1));
    expect(verifyCrawlToken(SECRET, PROPERTY, 1, token)).toBe(true);
  });

  it('[CRAWL-3] rotation (a version bump) revokes the old token at once', () => {
    const before = deriveCrawlToken(SECRET, PROPERTY, 1);
    const after = deriveCrawlToken(SECRET, PROPERTY, 2);
    expect(after).not.toBe(before);
    expect(verifyCrawlToken(SECRET, PROPERTY, 2, before)).toBe(false);
    expect(verifyCrawlToken(SECRET, PROPERTY, 2, after)).toBe(true);
  });

  it('[CRAWL-1] a token is valid only for its own property', () => {
    const token = deriveCrawlToken(SECRET, PROPERTY, 1);
    expect(verifyCrawlToken(SECRET, OTHER_PROPERTY, 1, token)).toBe(false);
  });
});

describe('lead webhook secrets and signatures', () => {
  it('[LEAD-17] the secret is derived from the property and rotates only with the deployment key', () => {
    const secret = deriveWebhookSecret(SECRET, PROPERTY);
    expect(secret).toBe(deriveWebhookSecret(SECRET, PROPERTY));
    expect(secret).not.toBe(deriveWebhookSecret(SECRET, OTHER_PROPERTY));
    expect(secret).not.toBe(deriveWebhookSecret(`${SECRET}-rotated`, PROPERTY));
    expect(deriveLegacyWebhookSecret(SECRET, PROPERTY)).not.toBe(
      deriveLegacyWebhookSecret(`${SECRET}-rotated`, PROPERTY),
    );
  });

  it('the secret is a Standard Webhooks secret (whsec_ + base64 of 32 bytes) the standardwebhooks library takes', () => {
    const secret = deriveWebhookSecret(SECRET, PROPERTY);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(() => new Webhook(secret)).not.toThrow();
    // The secret shown before: base64url, which the library refuses (why the format changed).
    const legacy = deriveLegacyWebhookSecret(SECRET, PROPERTY);
    expect(legacy).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(legacy).not.toBe(secret);
  });

  it('verifies what the standardwebhooks library signs, and nothing changed or signed with another secret', () => {
    const secret = deriveWebhookSecret(SECRET, PROPERTY);
    const body = '{"contact":"ada@example.com"}';
    const at = new Date(1_700_000_000_000);
    const header = new Webhook(secret).sign('msg_1', at, body);
    expect(header).toMatch(/^v1,/);
    expect(verifyStandardWebhookSignature(secret, 'msg_1', '1700000000', body, header)).toBe(true);
    expect(verifyStandardWebhookSignature(secret, 'msg_1', '1700000000', Buffer.from(body), header)).toBe(true);
    expect(verifyStandardWebhookSignature(secret, 'msg_2', '1700000000', body, header)).toBe(false);
    expect(verifyStandardWebhookSignature(secret, 'msg_1', '1700000001', body, header)).toBe(false);
    expect(verifyStandardWebhookSignature(secret, 'msg_1', '1700000000', `${body} `, header)).toBe(false);
    const other = deriveWebhookSecret(SECRET, OTHER_PROPERTY);
    expect(verifyStandardWebhookSignature(other, 'msg_1', '1700000000', body, header)).toBe(false);
    // The Standard scheme keys the HMAC with the secret's bytes, never its text: the x-webhook
    // signature of the same delivery is not a Standard one, and the other way round.
    const hex = signWebhookPayload(secret, 'msg_1', '1700000000', body);
    const asStandard = `v1,${Buffer.from(hex, 'hex').toString('base64')}`;
    expect(verifyStandardWebhookSignature(secret, 'msg_1', '1700000000', body, asStandard)).toBe(false);
    expect(verifyWebhookSignature(secret, 'msg_1', '1700000000', body, hex)).toBe(true);
  });

  it('takes any one valid v1 entry of a space-separated list, skips other versions and junk, never throws', () => {
    const secret = deriveWebhookSecret(SECRET, PROPERTY);
    const body = '{"contact":"ada@example.com"}';
    const valid = new Webhook(secret).sign('msg_1', new Date(1_700_000_000_000), body);
    const wrong = new Webhook(deriveWebhookSecret(SECRET, OTHER_PROPERTY)).sign(
      'msg_1',
      new Date(1_700_000_000_000),
      body,
    );
    const digest = valid.slice('v1,'.length);
    const verify = (header: string) => verifyStandardWebhookSignature(secret, 'msg_1', '1700000000', body, header);
    expect(verify(`${wrong} ${valid}`)).toBe(true); // a sender rotating its secret signs with both
    expect(verify(`v1a,${digest} ${valid}`)).toBe(true);
    expect(verify(`v1,${digest.replace(/=$/, '')}`)).toBe(true); // padding left off
    for (const header of [
      wrong,
      `v1a,${digest}`,
      `v2,${digest}`,
      digest,
      `v1,${digest.slice(1)}`,
      `v1,${digest}A`,
      'v1,',
      '',
      ' ',
      ',,,',
    ]) {
      expect(verify(header), header).toBe(false);
    }
    // Past the first eight entries nothing is read: a header of junk costs a bounded amount.
    expect(verify(`${Array.from({ length: 8 }, () => wrong).join(' ')} ${valid}`)).toBe(false);
  });

  it('[LEAD-4] the signature is lowercase hex HMAC-SHA256 of {id}.{timestamp}.{body} keyed by the secret as shown', () => {
    const secret = deriveWebhookSecret(SECRET, PROPERTY);
    const body = '{"contact":"ada@example.com"}';
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`evt_1.1700000000.${body}`).digest('hex');
    expect(signWebhookPayload(secret, 'evt_1', '1700000000', body)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('[LEAD-4] verification accepts the sha256= prefix and rejects any change to id, timestamp or body', () => {
    const secret = deriveWebhookSecret(SECRET, PROPERTY);
    const body = Buffer.from('{"contact":"ada@example.com"}');
    const sig = signWebhookPayload(secret, 'evt_1', '1700000000', body);
    expect(verifyWebhookSignature(secret, 'evt_1', '1700000000', body, sig)).toBe(true);
    expect(verifyWebhookSignature(secret, 'evt_1', '1700000000', body, `sha256=${sig}`)).toBe(true);
    expect(verifyWebhookSignature(secret, 'evt_2', '1700000000', body, sig)).toBe(false);
    expect(verifyWebhookSignature(secret, 'evt_1', '1700000001', body, sig)).toBe(false);
    expect(verifyWebhookSignature(secret, 'evt_1', '1700000000', Buffer.from(`${body} `), sig)).toBe(false);
    expect(verifyWebhookSignature(secret, 'evt_1', '1700000000', body, sig.toUpperCase())).toBe(false);
  });

  it('[LEAD-4] a signature that is not 64 lowercase hex digits fails without throwing', () => {
    const secret = deriveWebhookSecret(SECRET, PROPERTY);
    const body = Buffer.from('{"contact":"ada@example.com"}');
    const sig = signWebhookPayload(secret, 'evt_1', '1700000000', body);
    // Buffer.from(hex) would quietly drop a trailing odd digit or stop at the first non-hex one.
    for (const presented of [
      sig.slice(0, 63),
      `${sig}0`,
      `${sig.slice(0, 62)}zz`,
      `${sig} `,
      '',
      'sha256=',
      `sha256=sha256=${sig}`,
    ])
      expect(verifyWebhookSignature(secret, 'evt_1', '1700000000', body, presented)).toBe(false);
  });
});

describe('constantTimeEqual', () => {
  it('compares strings of any lengths without throwing', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'x')).toBe(false);
  });
});
