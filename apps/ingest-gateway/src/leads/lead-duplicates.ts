import { createHash } from 'node:crypto';
import type { LeadResult } from '@vt/contracts';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';

/** How long the first answer to an x-webhook-id is remembered for a duplicate delivery. */
const DUPLICATE_WINDOW_SECONDS = 24 * 3600;

/**
 * The lead id is derived from (property, x-webhook-id), so two deliveries of one event, even at
 * the same instant on two gateway replicas, name the same lead and the worker stores it once.
 */
export function deriveLeadId(propertyId: string, eventId: string): string {
  const h = createHash('sha256').update(`lead:${propertyId}:${eventId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Claims an x-webhook-id for its first answer, in one round trip (`SET NX GET`): null when this
 * delivery is the first, else the first delivery's answer, which a repeat gets back.
 *
 * Why Redis here, when crawl ingest recognises a named batch by its delivery-log row: the
 * webhook's answer does not wait for its log row (rows are written in batches up to ~100 ms
 * later, the main lever on the webhook's cost per lead), so a retry sent at once would find no
 * row; a lead is small and many arrive per second, and one atomic command claims the id and
 * returns the first answer to every replica alike. A named crawl batch's row, in contrast, must be
 * stored before its 202 anyway and already holds the figures a repeat is answered with. Either way
 * a lead is stored once: the lead id derives from the x-webhook-id and `leads` is unique on it.
 */
export async function claimFirstAnswer(
  redis: RedisConnection,
  keyPrefix: string,
  propertyId: string,
  eventId: string,
  answer: LeadResult,
): Promise<LeadResult | null> {
  // Tagged by its property: on a Redis Cluster the remembered answers spread over the masters.
  const key = taggedRedisKey(keyPrefix, propertyId, 'lead-event', eventId);
  const first = (await redis.call(
    'SET',
    key,
    JSON.stringify(answer),
    'EX',
    String(DUPLICATE_WINDOW_SECONDS),
    'NX',
    'GET',
  )) as string | null;
  return first === null ? null : (JSON.parse(first) as LeadResult);
}
