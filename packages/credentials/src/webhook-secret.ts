import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A property's lead webhook signing secret: derived from the property id under the deployment key,
 * so nothing secret is stored, it does not expire, and rotating the deployment key rotates every
 * property's secret at once (the spec's rule; docs/webhook-senders.md, "Rotating the signing key"). It is a
 * Standard Webhooks secret, `whsec_` + standard base64 of 32 key bytes, which the Standard
 * Webhooks libraries take as it is (`new Webhook(secret)`).
 */
export function deriveWebhookSecret(deploymentKey: string, propertyId: string): string {
  const key = createHmac('sha256', deploymentKey).update(`lead-webhook:v2:${propertyId}`).digest();
  return `${WEBHOOK_SECRET_PREFIX}${key.toString('base64')}`;
}

/**
 * The secret properties were shown before secrets became Standard Webhooks secrets: `whsec_` +
 * base64url (no padding), which those libraries refuse. Still derived and still verified, so a
 * sender set up with it keeps working; it is no longer shown.
 */
export function deriveLegacyWebhookSecret(deploymentKey: string, propertyId: string): string {
  const mac = createHmac('sha256', deploymentKey).update(`lead-webhook:v1:${propertyId}`).digest('base64url');
  return `${WEBHOOK_SECRET_PREFIX}${mac}`;
}

/**
 * The `x-webhook-signature` of a delivery: lowercase hex HMAC-SHA256 of `{id}.{timestamp}.{body}`.
 * The key is the secret exactly as shown to the user (its UTF-8 bytes, `whsec_` included); the
 * body is the exact bytes received.
 */
export function signWebhookPayload(secret: string, id: string, timestamp: string, body: Buffer | string): string {
  return webhookMac(Buffer.from(secret, 'utf8'), id, timestamp, body).toString('hex');
}

function webhookMac(key: Buffer, id: string, timestamp: string, body: Buffer | string): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest();
}

/** A SHA-256 digest as the spec writes it: 64 lowercase hex digits, nothing else. */
const LOWERCASE_HEX_DIGEST = /^[0-9a-f]{64}$/;

/**
 * Whether `presented` (optionally `sha256=`-prefixed) is the `x-webhook-signature` of this
 * delivery. The digest bytes are compared in constant time; a signature that is not 64 lowercase
 * hex digits fails before any comparison, which reveals nothing (every valid signature has that shape).
 */
export function verifyWebhookSignature(
  secret: string,
  id: string,
  timestamp: string,
  body: Buffer | string,
  presented: string,
): boolean {
  const candidate = presented.startsWith('sha256=') ? presented.slice('sha256='.length) : presented;
  if (!LOWERCASE_HEX_DIGEST.test(candidate)) return false;
  return timingSafeEqual(webhookMac(Buffer.from(secret, 'utf8'), id, timestamp, body), Buffer.from(candidate, 'hex'));
}

/** The key bytes a secret stands for in Standard Webhooks: the base64 after `whsec_`. */
function standardWebhookKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
}

/** Standard Webhooks signatures are checked up to this many per header; more is not a sender. */
const MAX_STANDARD_SIGNATURES = 8;
/** A base64 SHA-256 digest: 43 characters, and the `=` of its padding (or not). */
const BASE64_DIGEST = /^[A-Za-z0-9+/]{43}=?$/;

/**
 * Whether the Standard Webhooks `webhook-signature` header holds a valid signature of this
 * delivery: space-separated `v1,<base64 HMAC-SHA256>` entries (a sender rotating its secret sends
 * one per secret), of `{id}.{timestamp}.{body}` keyed by the secret's base64-decoded bytes. Entries
 * of other versions (`v1a` is asymmetric) are skipped; each digest is compared in constant time.
 */
export function verifyStandardWebhookSignature(
  secret: string,
  id: string,
  timestamp: string,
  body: Buffer | string,
  header: string,
): boolean {
  const expected = webhookMac(standardWebhookKey(secret), id, timestamp, body);
  let matched = false;
  for (const entry of header.split(' ').slice(0, MAX_STANDARD_SIGNATURES)) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const digest = entry.slice(comma + 1);
    if (!BASE64_DIGEST.test(digest)) continue;
    // Every entry is compared: how many match, or where, does not change the time taken.
    if (timingSafeEqual(expected, Buffer.from(digest, 'base64'))) matched = true;
  }
  return matched;
}

/**
 * A property's lead webhook secret after it was rotated (issue 31): derived, like the original, under
 * the deployment key, from the property id and the random nonce the rotation drew, so nothing secret
 * is stored and every gateway replica derives the same secret from the property row.
 */
export function deriveRotatedWebhookSecret(deploymentKey: string, propertyId: string, nonce: string): string {
  const key = createHmac('sha256', deploymentKey).update(`lead-webhook:v3:${propertyId}:${nonce}`).digest();
  return `${WEBHOOK_SECRET_PREFIX}${key.toString('base64')}`;
}

/** A rotation's nonce: 128 random bits, in hex. */
export function generateWebhookSecretNonce(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The secrets of one secret version of a property under one deployment key: with no nonce (never
 * rotated) the derived Standard Webhooks secret and the legacy one before it; with one, its own.
 */
export function webhookSecretsOf(deploymentKey: string, propertyId: string, nonce: string | null): string[] {
  return nonce
    ? [deriveRotatedWebhookSecret(deploymentKey, propertyId, nonce)]
    : [deriveWebhookSecret(deploymentKey, propertyId), deriveLegacyWebhookSecret(deploymentKey, propertyId)];
}

/** The secret a property's setup dialog shows: its current version's. */
export function currentWebhookSecret(deploymentKey: string, propertyId: string, nonce: string | null): string {
  return nonce
    ? deriveRotatedWebhookSecret(deploymentKey, propertyId, nonce)
    : deriveWebhookSecret(deploymentKey, propertyId);
}
