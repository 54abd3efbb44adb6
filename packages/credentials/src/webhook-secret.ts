import { createHmac, timingSafeEqual } from 'node:crypto';

const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A property's lead webhook signing secret: HMAC of the property id under the deployment key.
 * It does not expire; rotating the deployment key rotates every property's secret at once.
 */
export function deriveWebhookSecret(deploymentKey: string, propertyId: string): string {
  const mac = createHmac('sha256', deploymentKey).update(`lead-webhook:v1:${propertyId}`).digest('base64url');
  return `${WEBHOOK_SECRET_PREFIX}${mac}`;
}

/**
 * Lowercase hex HMAC-SHA256 of `{id}.{timestamp}.{body}`. The key is the secret exactly as shown
 * to the user (its UTF-8 bytes); the body is the exact bytes received.
 */
export function signWebhookPayload(secret: string, id: string, timestamp: string, body: Buffer | string): string {
  return webhookMac(secret, id, timestamp, body).toString('hex');
}

function webhookMac(secret: string, id: string, timestamp: string, body: Buffer | string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.`, 'utf8').update(body).digest();
}

/** A SHA-256 digest as the spec writes it: 64 lowercase hex digits, nothing else. */
const LOWERCASE_HEX_DIGEST = /^[0-9a-f]{64}$/;

/**
 * Whether `presented` (optionally `sha256=`-prefixed) is the signature of this delivery. The digest
 * bytes are compared in constant time; a signature that is not 64 lowercase hex digits fails
 * before any comparison, which reveals nothing (every valid signature has that shape).
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
  return timingSafeEqual(webhookMac(secret, id, timestamp, body), Buffer.from(candidate, 'hex'));
}
