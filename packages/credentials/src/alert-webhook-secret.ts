import { createHmac } from 'node:crypto';

/**
 * The signing secret of one alert webhook destination: derived from (destination id, secret
 * version) under the deployment's alert webhook key, so nothing secret is stored and a rotation
 * (a version bump) replaces it at once on every process. A Standard Webhooks secret, `whsec_` +
 * standard base64 of 32 key bytes, which the Standard Webhooks libraries take as it is. Its own
 * key and label, apart from the lead webhook's: rotating one never changes the other.
 */
export function deriveAlertWebhookSecret(signingKey: string, destinationId: string, secretVersion: number): string {
  const key = createHmac('sha256', signingKey).update(`alert-webhook:v1:${destinationId}:${secretVersion}`).digest();
  return `whsec_${key.toString('base64')}`;
}
