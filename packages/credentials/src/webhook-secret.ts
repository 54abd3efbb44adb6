import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './constant-time.ts';

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
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.`, 'utf8')
    .update(body)
    .digest('hex');
}

export function verifyWebhookSignature(
  secret: string,
  id: string,
  timestamp: string,
  body: Buffer | string,
  presented: string,
): boolean {
  const candidate = presented.startsWith('sha256=') ? presented.slice('sha256='.length) : presented;
  return constantTimeEqual(signWebhookPayload(secret, id, timestamp, body), candidate);
}
