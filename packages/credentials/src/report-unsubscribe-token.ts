import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './constant-time.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A subscription id, a dot, and 43 base64url characters (a SHA-256 MAC): nothing longer is read. */
export const REPORT_UNSUBSCRIBE_TOKEN_MAX = 36 + 1 + 43;

const macOf = (key: string, subscriptionId: string) =>
  createHmac('sha256', key).update(`report-unsubscribe:v1:${subscriptionId}`).digest('base64url');

/**
 * The token of a weekly report's one-click unsubscribe link: the subscription's id and its MAC
 * under the deployment's key, so nothing is stored and the link needs no session. Bound to the
 * subscription row, not the person: once it is deleted the link does nothing, and subscribing
 * again makes a new row with a new link.
 */
export function deriveReportUnsubscribeToken(key: string, subscriptionId: string): string {
  return `${subscriptionId}.${macOf(key, subscriptionId)}`;
}

/** The subscription id a token was derived for, or undefined for a token this key never made. */
export function verifyReportUnsubscribeToken(key: string, token: string): string | undefined {
  if (token.length > REPORT_UNSUBSCRIBE_TOKEN_MAX) return undefined;
  const dot = token.indexOf('.');
  const subscriptionId = token.slice(0, dot);
  if (dot === -1 || !UUID.test(subscriptionId)) return undefined;
  return constantTimeEqual(macOf(key, subscriptionId), token.slice(dot + 1)) ? subscriptionId : undefined;
}
