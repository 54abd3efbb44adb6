import type { AgentMatcher } from '@vt/attribution';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '@vt/contracts';
import { verifyCrawlToken } from '@vt/credentials';
import type { PrismaClient, Property } from '@vt/db';
import type { DeliveryAttempt, DeliveryLogWriter } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { crawlBatchJob, crawlBatchJobs, enqueueBulk, type Queue } from '@vt/queue';
import type { Redis } from '@vt/redis';
import { type Request, Router } from 'express';
import { Counter, type Registry } from 'prom-client';
import { discardRestOfBody } from '../discard-rest-of-body.ts';
import { findPropertyById } from '../property-lookup.ts';
import { crawlRejection, type Rejection, sendRejection } from '../rejections.ts';
import { BatchClassifier, type BatchSummary, type IpVerifier } from './batch-classifier.ts';
import {
  type BodyLimits,
  BodyTooLargeError,
  CorruptGzipError,
  declaredBodyFormat,
  streamRecords,
} from './body-stream.ts';
import { claimNamedBatch, type NamedBatchClaim, type NamedBatchOptions, namedBatchId } from './named-batches.ts';
import { noSignatureKeys, type SignatureVerifier } from './signature-verifier.ts';

export interface CrawlIngestDeps {
  db: PrismaClient;
  /** The gateway's one delivery-log writer, shared with the lead webhook. */
  deliveryLog: DeliveryLogWriter;
  queue: Queue;
  /** Claims named batches (the producer connection: fails fast while Redis is away). */
  redis: Redis;
  /** Namespaces the claims (the deployment's queue prefix). */
  keyPrefix: string;
  /** How long named batches are remembered and waited for; the defaults when absent. */
  namedBatches?: NamedBatchOptions;
  logger: Logger;
  crawlTokenSecret: string | undefined;
  limits: BodyLimits;
  ipVerifier: () => IpVerifier;
  /** The current AI agent catalogue's matcher; the bundled catalogue's when absent. */
  agentMatcher?: () => AgentMatcher;
  /** Web Bot Auth: the stored key directories; nothing verifies when absent. */
  signatureVerifier?: () => SignatureVerifier;
  registry: Registry;
  /** Kept events per crawl-batch job; CRAWL_BATCH_JOB_MAX_EVENTS when absent (tests cut batches smaller). */
  maxEventsPerJob?: number;
}

/** How long an attempt told its batch is in progress is asked to wait (Retry-After). */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 5;

/**
 * POST /api/ingest/crawl/:propertyId. The order of checks follows the spec: configuration (503,
 * nothing read), token present (401, no log row), property exists (404, no row), token valid,
 * paid plan, ingestion on, Idempotency-Key; every later rejection is recorded in the delivery log.
 * The answer does not wait for its delivery-log row: a named batch is recognised by its claim in
 * Redis, not by its row.
 */
export function crawlIngestRouter(deps: CrawlIngestDeps): Router {
  const metrics = crawlIngestMetrics(deps.registry);
  const router = Router();
  router.post('/api/ingest/crawl/:propertyId', async (req, res) => {
    res.on('finish', () => metrics.batches.inc({ status: String(res.statusCode) }));
    const secret = deps.crawlTokenSecret;
    if (!secret) return sendRejection(res, crawlRejection('ingest_not_configured'));
    const token = bearerToken(req);
    if (!token) return sendRejection(res, crawlRejection('missing_token'));
    const propertyId = req.params.propertyId ?? '';
    const property = await findPropertyById(deps.db, propertyId);
    if (!property) return sendRejection(res, crawlRejection('property_not_found', propertyId));

    const logError = (err: unknown) =>
      deps.logger.error({ err, propertyId: property.id }, 'could not record delivery attempt');
    const refuse = async (refusal: Rejection, extra: Partial<DeliveryAttempt> = {}) => {
      const { status: statusCode, reason, hint: fix } = refusal;
      const attempt = { propertyId: property.id, channel: 'crawl' as const, statusCode, reason, fix };
      await deps.deliveryLog.submit({ ...attempt, outcome: 'rejected; nothing stored', ...extra }, logError);
      sendRejection(res, refusal);
    };
    const problem = checkProperty(property, token, secret);
    if (problem) return refuse(problem);

    const idempotencyKey = req.get('idempotency-key');
    if (idempotencyKey !== undefined && idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      return refuse(crawlRejection('idempotency_key_too_long', idempotencyKey.length));
    }
    let claim: Extract<NamedBatchClaim, { kind: 'first' }> | undefined;
    if (idempotencyKey) {
      // Claimed before the body is read, so a repeat costs no upload (./named-batches.ts says
      // how this closes the gaps the spec's idempotency rule 4 admits).
      let found: NamedBatchClaim;
      try {
        found = await claimNamedBatch(deps.redis, deps.keyPrefix, property.id, idempotencyKey, deps.namedBatches);
      } catch (err) {
        deps.logger.error({ err, propertyId: property.id }, 'could not claim a named crawl batch');
        discardRestOfBody(req);
        return refuse(crawlRejection('queue_unavailable'), { idempotencyKey });
      }
      // Decided: a recognised repeat answers 200 (the original answered 202) and writes nothing,
      // not even a delivery-log row: the batch's one row is its first attempt's.
      if (found.kind === 'repeat') return void res.status(200).json({ duplicate: true, ...found.figures });
      if (found.kind === 'in_progress') {
        discardRestOfBody(req);
        res.set('Retry-After', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
        return sendRejection(res, crawlRejection('batch_in_progress'));
      }
      claim = found;
    }

    let settled = false;
    try {
      const read = await readBatch(req, property.domain, deps);
      if ('status' in read) return await refuse(read);
      if (read.received === 0 || read.unreadable === read.received) {
        const noLine = crawlRejection('unreadable_body', 'no_readable_line');
        return await refuse(noLine, { linesReceived: read.received, linesKept: 0 });
      }
      if (read.kept > 0) {
        const batch = {
          batchId: idempotencyKey ? namedBatchId(property.id, idempotencyKey) : crypto.randomUUID(),
          propertyId: property.id,
          receivedAt: new Date().toISOString(),
        };
        try {
          // All chunks in one addBulk, so a 202 means every one is queued. If it fails part-way, the
          // chunks already in stay: a named batch's retry (its claim is released below) names its
          // chunks alike and they count once; an unnamed batch's retry counts them twice (CRAWL-19).
          await enqueueBulk(deps.queue, crawlBatchJob, crawlBatchJobs(batch, read.events, deps.maxEventsPerJob));
        } catch (err) {
          deps.logger.error({ err, propertyId: property.id }, 'could not enqueue crawl batch');
          const counts = { linesReceived: read.received, linesKept: 0, idempotencyKey };
          return await refuse(crawlRejection('queue_unavailable'), counts);
        }
      }
      // Queued: the batch is accepted whatever happens to its claim from here. A claim that cannot
      // be settled lapses after its pending time, and a retry then enqueues the same job ids.
      settled = true;
      await claim?.settle({ kept: read.kept, received: read.received }).catch((err: unknown) => {
        deps.logger.warn({ err, propertyId: property.id }, 'could not remember a named crawl batch');
      });
      await deps.deliveryLog.submit(acceptedAttempt(property, read, idempotencyKey), logError);
      metrics.linesReceived.inc(read.received);
      metrics.linesKept.inc(read.kept);
      res.status(202).json({ kept: read.kept, received: read.received });
    } finally {
      // Refused or failed: the name is free again for a corrected retry.
      if (claim && !settled) await claim.release().catch(() => {});
    }
  });
  return router;
}

function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (header !== undefined) return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
  const query = req.query.token;
  return typeof query === 'string' ? query : undefined;
}

function checkProperty(property: Property, token: string, secret: string): Rejection | null {
  if (!verifyCrawlToken(secret, property.id, property.crawlTokenVersion, token)) return crawlRejection('invalid_token');
  if (property.plan === 'free' || property.subscriptionStatus !== 'active') {
    return crawlRejection('plan_required', property.plan !== 'free');
  }
  if (!property.crawlIngestionEnabled) return crawlRejection('connection_disconnected');
  return null;
}

/** Reads and classifies the body, line by line as it arrives; a body over a cap or a corrupt gzip is a rejection. */
async function readBatch(req: Request, domain: string, deps: CrawlIngestDeps): Promise<BatchSummary | Rejection> {
  const { limits } = deps;
  const classifier = new BatchClassifier(domain, deps.ipVerifier(), deps.agentMatcher?.());
  try {
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > limits.maxWireBytes) throw new BodyTooLargeError('wire');
    await streamRecords(req, declaredBodyFormat(req.get('content-type')), limits, classifier);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      discardRestOfBody(req);
      return crawlRejection('body_too_large', limits.maxWireBytes, limits.maxInflatedBytes);
    }
    if (err instanceof CorruptGzipError) return crawlRejection('unreadable_body', 'corrupt_gzip');
    throw err;
  }
  await classifier.settleSignatures(deps.signatureVerifier?.() ?? noSignatureKeys);
  return classifier.summary();
}

/** The delivery-log row of an accepted batch, with the note on lines for other hosts. */
function acceptedAttempt(property: Property, batch: BatchSummary, idempotencyKey?: string): DeliveryAttempt {
  const hostNote = batch.hostNotMatched.count > 0 ? batch.hostNotMatched : undefined;
  return {
    propertyId: property.id,
    channel: 'crawl',
    statusCode: 202,
    outcome: `accepted: kept ${batch.kept} of ${batch.received} lines`,
    linesReceived: batch.received,
    linesKept: batch.kept,
    hostNote,
    reason: hostNote ? 'host_not_matched' : undefined,
    fix: hostNote
      ? `${hostNote.count} lines were for other hosts (${hostNote.hosts.join(', ')}); send only ${property.domain} and its subdomains.`
      : undefined,
    idempotencyKey,
  };
}

function crawlIngestMetrics(registry: Registry) {
  return {
    batches: new Counter({
      name: 'vt_crawl_batches_total',
      help: 'Crawl ingest attempts by answer status.',
      labelNames: ['status'],
      registers: [registry],
    }),
    linesReceived: new Counter({
      name: 'vt_crawl_lines_received_total',
      help: 'Log lines in accepted crawl batches.',
      registers: [registry],
    }),
    linesKept: new Counter({
      name: 'vt_crawl_lines_kept_total',
      help: 'Log lines kept (AI crawler or AI-referred visits) in accepted crawl batches.',
      registers: [registry],
    }),
  };
}
