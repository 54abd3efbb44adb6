import { createHash } from 'node:crypto';
import { classifyLead, UNCLASSIFIED_PLATFORM } from '@vt/attribution';
import { deriveWebhookSecret, verifyWebhookSignature } from '@vt/credentials';
import type { Prisma } from '@vt/db';
import type { DeliveryAttempt, DeliveryLogWriter } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { batchedEnqueue, leadJob, type Queue } from '@vt/queue';
import type { Redis } from '@vt/redis';
import type { Request, RequestHandler, Response } from 'express';
import { discardRestOfBody } from '../discard-rest-of-body.ts';
import type { PropertyLookup } from '../property-cache.ts';
import { readLeadPayload } from './lead-payload.ts';
import { readCappedBody } from './read-capped-body.ts';

export interface LeadWebhookDeps {
  properties: PropertyLookup;
  deliveryLog: DeliveryLogWriter;
  queue: Queue;
  /** Remembers each x-webhook-id's first answer (the producer connection is fine). */
  redis: Redis;
  /** Namespaces the remembered answers (the deployment's queue prefix). */
  keyPrefix: string;
  logger: Logger;
  signingKey: string | undefined;
  now?: () => number;
}

/** How long the first answer to an x-webhook-id is remembered for a duplicate delivery. */
const DUPLICATE_WINDOW_SECONDS = 24 * 3600;

/** The spec's caps and window. */
export const MAX_BODY_BYTES = 64 * 1024;
const MAX_EVENT_ID = 128;
const SKEW_SECONDS = 300;
interface LeadResult {
  leadId: string;
  matched: boolean;
  platform: string;
  warnings: string[];
  ignoredFields: string[];
  fieldSuggestions: { field: string; suggestion: string }[];
}

interface Rejection {
  status: number;
  reason?: string;
  error: string;
  hint: string;
  details?: { field: string; problem: string }[];
}

/** The answer when a lead could not be stored, whatever the cause. */
const STORAGE_FAILED: Rejection = {
  status: 500,
  reason: 'storage_failed',
  error: 'The lead could not be stored',
  hint: 'Retry with the same x-webhook-id, a fresh timestamp and a fresh signature.',
};

const send = (res: Response, { status, reason, error, hint, details }: Rejection) =>
  res.status(status).json({ error, hint, ...(reason ? { reason } : {}), ...(details ? { details } : {}) });

/**
 * The lead id is derived from (property, x-webhook-id), so two deliveries of one event, even at
 * the same instant on two gateway replicas, name the same lead and the worker stores it once.
 */
export function deriveLeadId(propertyId: string, eventId: string): string {
  const h = createHash('sha256').update(`lead:${propertyId}:${eventId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Each property's signing secret, derived once: the deployment key is fixed for the process's life.
 * Bounded like the property cache, so made-up property ids cannot grow it (only found ones get here).
 */
function memoizedSecrets(signingKey: string, maxEntries = 10_000): (propertyId: string) => string {
  const secrets = new Map<string, string>();
  return (propertyId) => {
    let secret = secrets.get(propertyId);
    if (secret === undefined) {
      if (secrets.size >= maxEntries) secrets.clear();
      secret = deriveWebhookSecret(signingKey, propertyId);
      secrets.set(propertyId, secret);
    }
    return secret;
  };
}

/** Where senders post leads; the handler is mounted there directly, without a router of its own. */
export const LEAD_WEBHOOK_PATH = '/api/webhooks/leads/:propertyId';

/**
 * POST /api/webhooks/leads/:propertyId. Order of checks: property (404), configuration (503),
 * x-webhook-id, timestamp, signature present, body size (413: the signature covers the body, so
 * the body is read, up to the cap, before the signature is checked), signature, JSON, fields.
 * Every answer is handed to the delivery log, but the answer does not wait for the row: the
 * writer stores it with a later batch (the gateway flushes the writer when it shuts down), unless
 * 50 newer attempts of the property displace it first.
 */
export function leadWebhookHandler(deps: LeadWebhookDeps): RequestHandler<{ propertyId: string }> {
  const now = deps.now ?? Date.now;
  const secretFor = deps.signingKey ? memoizedSecrets(deps.signingKey) : undefined;
  // Concurrent leads share one Redis pipeline per event-loop turn: far less CPU per lead than an
  // add each, measured in the webhook bench.
  const enqueueLead = batchedEnqueue(deps.queue, leadJob);
  const handle = async (req: Request<{ propertyId: string }>, res: Response) => {
    const propertyId = req.params.propertyId ?? '';
    const property = await deps.properties.find(propertyId);
    if (!property) {
      return send(res, {
        status: 404,
        error: `No property with id ${propertyId}`,
        hint: 'Copy the webhook URL from the property setup; it ends with the property id.',
      });
    }
    // Resolves at once (or, while the writer is backlogged, once the row is stored); never rejects.
    const record = (attempt: Omit<DeliveryAttempt, 'propertyId' | 'channel'>) =>
      deps.deliveryLog.submit({ propertyId: property.id, channel: 'webhook', ...attempt }, (err) =>
        deps.logger.error({ err, propertyId: property.id }, 'could not record webhook attempt'),
      );
    const eventId = req.get('x-webhook-id');
    const reject = async (rejection: Rejection, requestBody?: string) => {
      await record({
        statusCode: rejection.status,
        outcome: 'rejected; no lead stored',
        reason: rejection.reason,
        fix: rejection.hint,
        eventId: eventId?.slice(0, MAX_EVENT_ID),
        requestBody,
      });
      send(res, rejection);
    };

    if (!secretFor) {
      return reject({
        status: 503,
        error: 'The lead webhook is not configured on this deployment',
        hint: 'The operator must set WEBHOOK_SIGNING_KEY. Retry later with the same x-webhook-id.',
      });
    }
    if (!eventId || eventId.length > MAX_EVENT_ID) {
      return reject({
        status: 400,
        reason: 'missing_event_id',
        error: eventId
          ? `x-webhook-id is ${eventId.length} characters; at most 128 are allowed`
          : 'No x-webhook-id header',
        hint: 'Send a unique id of at most 128 characters per lead in x-webhook-id, and reuse it when you retry.',
      });
    }
    const timestamp = req.get('x-webhook-timestamp');
    if (!timestamp) {
      return reject({
        status: 400,
        reason: 'missing_timestamp',
        error: 'No x-webhook-timestamp header',
        hint: 'Send the current time in Unix seconds in x-webhook-timestamp, and sign it.',
      });
    }
    const skew = /^\d{1,12}$/.test(timestamp) ? Math.abs(now() / 1000 - Number(timestamp)) : Number.POSITIVE_INFINITY;
    if (!(skew <= SKEW_SECONDS)) {
      return reject({
        status: 400,
        reason: 'stale_timestamp',
        error: 'x-webhook-timestamp is not Unix seconds within five minutes of the service clock',
        hint: 'Stamp each attempt with the current Unix time in seconds (check the sender clock), sign again and resend.',
      });
    }
    const signature = req.get('x-webhook-signature');
    if (!signature) {
      return reject({
        status: 401,
        reason: 'missing_signature',
        error: 'No x-webhook-signature header',
        hint: 'Sign {id}.{timestamp}.{body} with HMAC-SHA256 and the signing secret; send the lowercase hex digest.',
      });
    }
    const declared = Number(req.get('content-length'));
    const body =
      Number.isFinite(declared) && declared > MAX_BODY_BYTES ? 'too_large' : await readCappedBody(req, MAX_BODY_BYTES);
    if (body === 'too_large') {
      discardRestOfBody(req);
      return reject({
        status: 413,
        reason: 'body_too_large',
        error: 'The body is over 64 KB (65536 bytes)',
        hint: 'A lead is small: send only the Lead fields, each within its maximum length.',
      });
    }
    if (!verifyWebhookSignature(secretFor(property.id), eventId, timestamp, body, signature)) {
      return reject({
        status: 401,
        reason: 'invalid_signature',
        error: 'The signature does not match {id}.{timestamp}.{body}',
        hint: 'Sign the exact bytes you send, with this property’s signing secret as UTF-8, and send the lowercase hex HMAC-SHA256.',
      });
    }
    // From here on the sender is authenticated: the delivery log may keep what was sent.
    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return reject(
        {
          status: 400,
          reason: 'invalid_json',
          error: 'The body is not valid JSON',
          hint: 'Send one JSON object (a Lead), serialised once; sign and send that same string.',
        },
        text,
      );
    }
    const payload = readLeadPayload(json);
    if (!payload.ok) {
      return reject(
        {
          status: 400,
          reason: 'invalid_payload',
          error: `Invalid lead: ${payload.details.map((d) => `${d.field} ${d.problem}`).join('; ')}`,
          hint: 'Fix the fields named in details and send again under a new x-webhook-id.',
          details: payload.details,
        },
        text,
      );
    }

    const platform = classifyLead(payload.lead);
    const leadId = deriveLeadId(property.id, eventId);
    try {
      // Enqueue first, then remember the answer: a crash in between loses no lead (the retry
      // enqueues the same lead id again, which the worker stores once). Not both at once: the
      // remembered answer, repeated as duplicate_event ("nothing stored"), must name a lead that
      // was queued, never one whose enqueue failed or never happened.
      await enqueueLead(
        {
          leadId,
          propertyId: property.id,
          eventId,
          receivedAt: new Date(now()).toISOString(),
          lead: payload.lead,
          platform,
        },
        leadId,
      );
    } catch (err) {
      deps.logger.error({ err, propertyId: property.id }, 'could not enqueue lead');
      return reject(STORAGE_FAILED, text);
    }
    const result: LeadResult = {
      leadId,
      matched: platform !== null,
      platform: platform ?? UNCLASSIFIED_PLATFORM,
      warnings: [],
      ignoredFields: payload.ignoredFields,
      fieldSuggestions: payload.fieldSuggestions,
    };
    // One round trip claims the id and, for a repeat, returns the first delivery's answer.
    const key = `${deps.keyPrefix}:lead-event:${property.id}:${eventId}`;
    const first = (await deps.redis
      .call('SET', key, JSON.stringify(result), 'EX', String(DUPLICATE_WINDOW_SECONDS), 'NX', 'GET')
      .catch((err: unknown) => {
        deps.logger.warn({ err }, 'could not check for a duplicate lead; answering as new');
        return null;
      })) as string | null;
    if (first) {
      const original = JSON.parse(first) as LeadResult;
      const duplicate = { ...original, warnings: [...new Set([...original.warnings, 'duplicate_event'])] };
      await record({
        statusCode: 200,
        outcome: `duplicate of lead ${original.leadId}; nothing stored`,
        eventId,
        requestBody: text,
        leadId: original.leadId,
        result: duplicate as unknown as Prisma.InputJsonValue,
      });
      res.status(200).json(duplicate);
      return;
    }
    await record({
      statusCode: 200,
      outcome: platform ? `stored lead, attributed to ${platform}` : 'stored lead, not attributed to an AI platform',
      eventId,
      requestBody: text,
      leadId,
      result: result as unknown as Prisma.InputJsonValue,
    });
    res.status(200).json(result);
  };
  return async (req, res) => {
    try {
      await handle(req, res);
    } catch (err) {
      // The spec names one 500 reason for the webhook, storage_failed, whatever went wrong.
      deps.logger.error({ err }, 'unhandled error');
      if (!res.headersSent) send(res, STORAGE_FAILED);
    }
  };
}
