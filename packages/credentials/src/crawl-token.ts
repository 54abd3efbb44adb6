import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './constant-time.ts';

const CRAWL_TOKEN_PREFIX = 'vtc_';

/**
 * A property's crawl ingest token is derived, never stored: HMAC of (property id, token version)
 * under the deployment secret. Rotation bumps the version, so the old token stops matching at
 * once on every gateway replica and no window exists in which both work.
 */
export function deriveCrawlToken(deploymentSecret: string, propertyId: string, tokenVersion: number): string {
  const mac = createHmac('sha256', deploymentSecret)
    .update(`crawl-token:v1:${propertyId}:${tokenVersion}`)
    .digest('base64url');
  return `${CRAWL_TOKEN_PREFIX}${mac}`;
}

export function verifyCrawlToken(
  deploymentSecret: string,
  propertyId: string,
  tokenVersion: number,
  presented: string,
): boolean {
  return constantTimeEqual(deriveCrawlToken(deploymentSecret, propertyId, tokenVersion), presented);
}

/**
 * The signature secret a property's Vercel drain is set to, derived like its crawl token (so a
 * rotation changes both): the gateway checks each delivery's `x-vercel-signature` (HMAC-SHA1 of
 * the body) with it. 64 hex characters: Vercel asks for at least 32.
 */
export function deriveVercelDrainSecret(deploymentSecret: string, propertyId: string, tokenVersion: number): string {
  return createHmac('sha256', deploymentSecret).update(`vercel-drain:v1:${propertyId}:${tokenVersion}`).digest('hex');
}
