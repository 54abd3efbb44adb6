import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers for every answer of every HTTP app: helmet's defaults (nosniff, frame and
 * referrer policy, HSTS, a same-origin content security policy the console UI and the API
 * reference pages work under) less `upgrade-insecure-requests`, which would break a deployment
 * reached over plain http on its network (`http://10.0.0.5:3002`): its assets would be asked for
 * over https.
 */
export function securityHeaders(): RequestHandler {
  return helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
}
