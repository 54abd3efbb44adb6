import { classifyLead, UNCLASSIFIED_PLATFORM } from '@vt/attribution';
import { LEAD_WEBHOOK_LIMITS, type LeadResult } from '@vt/contracts';
import { verifyStandardWebhookSignature, verifyWebhookSignature, webhookSecretsOf } from '@vt/credentials';
import type { Property } from '@vt/db';
import type { DeliveryAttempt, DeliveryLogWriter } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { batchedEnqueue, leadJob, type ShardedQueue } from '@vt/queue';
import type { RedisConnection } from '@vt/redis';
import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { Registry } from 'prom-client';
import { discardRestOfBody } from '../discard-rest-of-body.ts';
import type { FailedAuthLimiter } from '../failed-auth-limiter.ts';
import type { PropertyLookup } from '../property-lookup.ts';
import { leadRejection, type Rejection, sendRejection, type WebhookHeaders } from '../rejections.ts';
import { NotReplicatedError, type ReplicatedDurability, replicaConfirmation } from '../replica-confirmation.ts';
import { claimFirstAnswer, deriveLeadId } from './lead-duplicates.ts';
import { type LeadRefusalReason, leadWebhookMetrics } from './lead-metrics.ts';
import { readLeadPayload } from './lead-payload.ts';
import { readCappedBody } from './read-capped-body.ts';

export interface LeadWebhookDeps {
  properties: PropertyLookup;
  deliveryLog: DeliveryLogWriter;
  /** Counts deliveries refused before their signature verified, per property and source address. */
  failedAuth: FailedAuthLimiter;
  /** The lead queue's shards; a lead goes to its property's. */
  queue: ShardedQueue;
  /** Remembers each x-webhook-id's first answer (the producer connection is fine). */
  redis: RedisConnection;
  /** REDIS_DURABILITY=replicated: 200 only once replicas hold the lead's job; fast when absent. */
  durability?: ReplicatedDurability;
  /** Namespaces the remembered answers (the deployment's queue prefix). */
  keyPrefix: string;
  logger: Logger;
  signingKey: string | undefined;
  /**
   * The deployment key before the last rotation, and until when secrets derived from it still
   * verify: the overlap in which senders move to the new secrets (docs/webhook-senders.md, "Rotating the signing key").
   */
  previousSigningKey?: { key: string; until: Date };
  /** Where the webhook's counters go (leads accepted by platform, refused by reason, duplicates). */
  registry: Registry;
  now?: () => number;
}

const { maxBodyBytes, maxEventIdLength, timestampSkewSeconds } = LEAD_WEBHOOK_LIMITS;

/**
 * The secrets of one version of a property's secret: under the current deployment key, and with
 * the previous key's too (during a deployment-wide overlap).
 */
interface VersionSecrets {
  current: readonly string[];
  duringOverlap: readonly string[];
}

/** The three headers of each family, named once (not built per delivery). */
const HEADER_NAMES = {
  'x-webhook': { id: 'x-webhook-id', timestamp: 'x-webhook-timestamp', signature: 'x-webhook-signature' },
  webhook: { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' },
} as const satisfies Record<WebhookHeaders, { id: string; timestamp: string; signature: string }>;

/** Where senders post leads; the handler is mounted there directly, without a router of its own. */
export const LEAD_WEBHOOK_PATH = '/api/webhooks/leads/:propertyId';

/**
 * POST /api/webhooks/leads/:propertyId. Order of checks: property (404), configuration (503),
 * id (x-webhook-id, or Standard Webhooks' webhook-id), timestamp, signature present, body size
 * (413: the signature covers the body, so the body is read, up to the cap, before the signature is
 * checked), signature (against every secret the property has now), JSON, fields.
 * Every answer is handed to the delivery log, but the answer does not wait for the row: the
 * writer stores it with a later batch (the gateway flushes the writer when it shuts down), unless
 * 50 newer attempts of the property displace it first.
 */
export function leadWebhookHandler(deps: LeadWebhookDeps): RequestHandler<{ propertyId: string }> {
  const now = deps.now ?? Date.now;
  const { signingKey, previousSigningKey } = deps;
  // The secrets of each (property, secret version), derived once: the deployment keys are fixed
  // for the process's life, and a version (the nonce a rotation drew) never changes its secrets.
  // Bounded, so made-up property ids cannot grow it (only found ones get here).
  const secrets = signingKey
    ? new LRUCache<string, VersionSecrets, { id: string; nonce: string | null }>({
        max: 10_000,
        memoMethod: (_key, _stale, { context }) => {
          const current = webhookSecretsOf(signingKey, context.id, context.nonce);
          return {
            current,
            duringOverlap: previousSigningKey
              ? [...current, ...webhookSecretsOf(previousSigningKey.key, context.id, context.nonce)]
              : current,
          };
        },
      })
    : undefined;
  const versionSecrets = (id: string, nonce: string | null, at: number): readonly string[] => {
    const cached = (secrets as LRUCache<string, VersionSecrets, { id: string; nonce: string | null }>).memo(
      `${id}:${nonce ?? ''}`,
      { context: { id, nonce } },
    );
    return previousSigningKey && at < previousSigningKey.until.getTime() ? cached.duringOverlap : cached.current;
  };
  /**
   * The secrets a delivery may be signed with now: the current version's (the shown one first, as
   * most are), then, during a rotation's overlap, the version before it. The property row comes
   * from the lookup's cache, so a rotation shows within its TTL.
   */
  const acceptedSecrets = (property: Property): readonly string[] => {
    const at = now();
    const current = versionSecrets(property.id, property.webhookSecretNonce, at);
    const until = property.webhookPreviousSecretUntil;
    if (!until || at >= until.getTime()) return current;
    return [...current, ...versionSecrets(property.id, property.webhookPreviousSecretNonce, at)];
  };
  // Concurrent leads share one Redis pipeline per event-loop turn: far less CPU per lead than an
  // add each, measured in the webhook bench.
  const enqueueByShard = new Map(deps.queue.shards.map((queue) => [queue, batchedEnqueue(queue, leadJob)]));
  const confirmReplicated = replicaConfirmation(deps.redis, deps.durability);
  const metrics = leadWebhookMetrics(deps.registry);
  const turnAway = (res: Response, refusal: Rejection<LeadRefusalReason>) => {
    metrics.refused(refusal.code);
    sendRejection(res, refusal);
  };
  const handle = async (req: Request<{ propertyId: string }>, res: Response) => {
    const propertyId = req.params.propertyId ?? '';
    const property = await deps.properties.find(propertyId);
    if (!property) return turnAway(res, leadRejection('property_not_found', propertyId));
    // Resolves at once (or, while the writer is backlogged, once the row is stored); never rejects.
    const record = (attempt: Omit<DeliveryAttempt, 'propertyId' | 'channel'>) =>
      deps.deliveryLog.submit({ propertyId: property.id, channel: 'webhook', ...attempt }, (err) =>
        deps.logger.error({ err, propertyId: property.id }, 'could not record webhook attempt'),
      );
    // The spec's x-webhook-* headers, or Standard Webhooks' webhook-* ones: a delivery names its
    // id in one family and is read in that family throughout (the spec's when it names both).
    const headers: WebhookHeaders =
      req.headers['x-webhook-id'] === undefined && req.headers['webhook-id'] !== undefined ? 'webhook' : 'x-webhook';
    const names = HEADER_NAMES[headers];
    const eventId = req.get(names.id);
    const refuse = async (refusal: Rejection<LeadRefusalReason>, requestBody?: string) => {
      const { status: statusCode, reason, hint: fix } = refusal;
      const loggedEventId = eventId?.slice(0, maxEventIdLength);
      await record({
        statusCode,
        outcome: 'rejected; no lead stored',
        reason,
        fix,
        eventId: loggedEventId,
        requestBody,
      });
      turnAway(res, refusal);
    };
    /**
     * A refusal before the signature verified: anyone who knows the property id can cause one, so
     * it is counted into the log's summary row for its reason, never a row of its own, and past
     * the failed-attempt limits answered 429 instead (../failed-auth-limiter.ts). Not limited
     * when the webhook is not configured: then no delivery can verify, the sender's included.
     */
    const refuseUnverified = async (refusal: Rejection<LeadRefusalReason>) => {
      discardRestOfBody(req);
      const verdict =
        refusal.code === 'webhook_not_configured'
          ? { limited: false, retryAfterSeconds: 0 }
          : await deps.failedAuth.fail(property.id, req.socket.remoteAddress);
      const answer = verdict.limited ? leadRejection('too_many_failed_attempts', verdict.retryAfterSeconds) : refusal;
      deps.deliveryLog.summarise(
        {
          propertyId: property.id,
          channel: 'webhook',
          statusCode: answer.status,
          reason: answer.reason ?? answer.code,
          fix: answer.hint,
          outcome: 'rejected before the signature verified; no body kept, no lead stored',
        },
        (err) => deps.logger.error({ err, propertyId: property.id }, 'could not record webhook attempt'),
      );
      if (verdict.limited) res.set('Retry-After', String(verdict.retryAfterSeconds));
      turnAway(res, answer);
    };

    if (!secrets) return refuseUnverified(leadRejection('webhook_not_configured'));
    if (!eventId || eventId.length > maxEventIdLength) {
      return refuseUnverified(leadRejection('missing_event_id', eventId?.length ?? 0, headers));
    }
    const timestamp = req.get(names.timestamp);
    if (!timestamp) return refuseUnverified(leadRejection('missing_timestamp', headers));
    const skew = /^\d{1,12}$/.test(timestamp) ? Math.abs(now() / 1000 - Number(timestamp)) : Number.POSITIVE_INFINITY;
    // A stale delivery may be a captured one replayed by anyone: refused before its signature too.
    if (!(skew <= timestampSkewSeconds)) return refuseUnverified(leadRejection('stale_timestamp', headers));
    const signature = req.get(names.signature);
    if (!signature) return refuseUnverified(leadRejection('missing_signature', headers));
    const declared = Number(req.get('content-length'));
    const body =
      Number.isFinite(declared) && declared > maxBodyBytes ? 'too_large' : await readCappedBody(req, maxBodyBytes);
    if (body === 'too_large') return refuseUnverified(leadRejection('body_too_large'));
    const verify = headers === 'webhook' ? verifyStandardWebhookSignature : verifyWebhookSignature;
    if (!acceptedSecrets(property).some((secret) => verify(secret, eventId, timestamp, body, signature))) {
      return refuseUnverified(leadRejection('invalid_signature', headers));
    }
    // From here on the sender is authenticated: the delivery log may keep what was sent.
    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return refuse(leadRejection('invalid_json'), text);
    }
    const payload = readLeadPayload(json);
    if (!payload.ok) {
      const problems = payload.details.map((d) => `${d.field} ${d.problem}`).join('; ');
      return refuse({ ...leadRejection('invalid_payload', problems), details: payload.details }, text);
    }

    const platform = classifyLead(payload.lead);
    const leadId = deriveLeadId(property.id, eventId);
    try {
      // Enqueue first, then remember the answer: a crash in between loses no lead (the retry
      // enqueues the same lead id again, which the worker stores once). Not both at once: the
      // remembered answer, repeated as duplicate_event ("nothing stored"), must name a lead that
      // was queued, never one whose enqueue failed or never happened.
      const receivedAt = new Date(now()).toISOString();
      const job = { leadId, propertyId: property.id, eventId, receivedAt, lead: payload.lead, platform };
      await deps.queue.ready();
      const queue = deps.queue.forProperty(property.id);
      await enqueueByShard.get(queue)!(job, leadId);
      await confirmReplicated(queue);
    } catch (err) {
      deps.logger.error({ err, propertyId: property.id }, 'could not enqueue lead');
      return refuse(leadRejection(err instanceof NotReplicatedError ? 'not_replicated' : 'storage_failed'), text);
    }
    const result: LeadResult = {
      leadId,
      matched: platform !== null,
      platform: platform ?? UNCLASSIFIED_PLATFORM,
      warnings: [],
      ignoredFields: payload.ignoredFields,
      fieldSuggestions: payload.fieldSuggestions,
    };
    const first = await claimFirstAnswer(deps.redis, deps.keyPrefix, property.id, eventId, result).catch(
      (err: unknown) => {
        deps.logger.warn({ err }, 'could not check for a duplicate lead; answering as new');
        return null;
      },
    );
    const answer = first ? { ...first, warnings: [...new Set([...first.warnings, 'duplicate_event'])] } : result;
    await record({
      statusCode: 200,
      outcome: first
        ? `duplicate of lead ${first.leadId}; nothing stored`
        : platform
          ? `stored lead, attributed to ${platform}`
          : 'stored lead, not attributed to an AI platform',
      eventId,
      requestBody: text,
      leadId: answer.leadId,
      result: answer,
    });
    if (first) metrics.duplicate();
    else metrics.accepted(answer.platform);
    res.status(200).json(answer);
  };
  return async (req, res) => {
    try {
      await handle(req, res);
    } catch (err) {
      // The spec names one 500 reason for the webhook, storage_failed, whatever went wrong.
      deps.logger.error({ err }, 'unhandled error');
      if (!res.headersSent) turnAway(res, leadRejection('storage_failed'));
    }
  };
}
