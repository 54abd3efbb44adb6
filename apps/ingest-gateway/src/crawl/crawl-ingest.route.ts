import { verifyCrawlToken } from '@vt/credentials';
import type { PrismaClient, Property } from '@vt/db';
import { type DeliveryAttempt, type DeliveryLogWriter, findNamedCrawlBatch } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { type CrawlBatchJobData, crawlBatchJob, enqueue, type Queue } from '@vt/queue';
import { type Request, type Response, Router } from 'express';
import { Counter, type Registry } from 'prom-client';
import { discardRestOfBody } from '../discard-rest-of-body.ts';
import { findPropertyById } from '../property-cache.ts';
import { BatchClassifier, type IpVerifier } from './batch-classifier.ts';
import { type BodyFormat, type BodyLimits, BodyTooLargeError, CorruptGzipError, streamRecords } from './body-stream.ts';

export interface CrawlIngestDeps {
  db: PrismaClient;
  /** The gateway's one delivery-log writer, shared with the lead webhook. */
  deliveryLog: DeliveryLogWriter;
  queue: Queue;
  logger: Logger;
  crawlTokenSecret: string | undefined;
  limits: BodyLimits;
  ipVerifier: () => IpVerifier;
  registry: Registry;
}

const MAX_IDEMPOTENCY_KEY = 200;

interface Rejection {
  status: number;
  reason: string;
  error: string;
  hint: string;
}

function send(res: Response, { status, reason, error, hint }: Rejection) {
  res.status(status).json({ error, hint, reason });
}

function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (header !== undefined) return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
  const query = req.query.token;
  return typeof query === 'string' ? query : undefined;
}

function declaredFormat(req: Request): BodyFormat | null {
  const type = (req.get('content-type') ?? '').toLowerCase();
  if (type.includes('ndjson') || type.includes('jsonl') || type.includes('json-seq')) return 'ndjson';
  if (type.includes('json')) return 'json-array';
  return null;
}

/**
 * POST /api/ingest/crawl/:propertyId. The order of checks follows the spec: configuration (503,
 * nothing read), token present (401, no log row), property exists (404, no row), token valid,
 * paid plan, ingestion on, Idempotency-Key; every later rejection is recorded in the delivery log.
 * The answer does not wait for its delivery-log row, except an accepted batch named by an
 * Idempotency-Key: its row is what recognises a repeat, so it is stored before the 202.
 */
export function crawlIngestRouter(deps: CrawlIngestDeps): Router {
  const metrics = crawlIngestMetrics(deps.registry);
  const router = Router();
  router.post('/api/ingest/crawl/:propertyId', async (req, res) => {
    res.on('finish', () => metrics.batches.inc({ status: String(res.statusCode) }));
    const secret = deps.crawlTokenSecret;
    if (!secret) {
      return send(res, {
        status: 503,
        reason: 'ingest_not_configured',
        error: 'Crawl ingest is not configured on this deployment',
        hint: 'The operator must set CRAWL_TOKEN_SECRET. Retry later with backoff.',
      });
    }
    const token = bearerToken(req);
    if (!token) {
      return send(res, {
        status: 401,
        reason: 'missing_token',
        error: 'No crawl token',
        hint: 'Send Authorization: Bearer <crawl token>, or ?token=<crawl token> when headers cannot be set.',
      });
    }
    const propertyId = req.params.propertyId ?? '';
    const property = await findPropertyById(deps.db, propertyId);
    if (!property) {
      return send(res, {
        status: 404,
        reason: 'property_not_found',
        error: `No property with id ${propertyId}`,
        hint: 'Copy the ingest URL from the property setup; it ends with the property id.',
      });
    }
    const logError = (err: unknown) =>
      deps.logger.error({ err, propertyId: property.id }, 'could not record delivery attempt');
    const reject = async (rejection: Rejection, extra: Partial<DeliveryAttempt> = {}) => {
      await deps.deliveryLog.submit(
        {
          propertyId: property.id,
          channel: 'crawl',
          statusCode: rejection.status,
          outcome: 'rejected; nothing stored',
          reason: rejection.reason,
          fix: rejection.hint,
          ...extra,
        },
        logError,
      );
      send(res, rejection);
    };
    const problem = checkProperty(property, token, secret);
    if (problem) return reject(problem);

    const idempotencyKey = req.get('idempotency-key');
    if (idempotencyKey !== undefined && idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
      return reject({
        status: 400,
        reason: 'idempotency_key_too_long',
        error: `Idempotency-Key is ${idempotencyKey.length} characters; at most ${MAX_IDEMPOTENCY_KEY} are allowed`,
        hint: 'Mint a shorter key once per batch (a UUID is fine) and reuse it on every retry of that batch.',
      });
    }
    if (idempotencyKey) {
      const original = await findNamedCrawlBatch(deps.db, property.id, idempotencyKey);
      if (original) {
        // Decided: a recognised repeat answers 200 (the original answered 202) and writes nothing.
        res.status(200).json({ duplicate: true, ...original });
        return;
      }
    }

    const classifier = new BatchClassifier(property.domain, deps.ipVerifier());
    try {
      const declared = Number(req.get('content-length'));
      if (Number.isFinite(declared) && declared > deps.limits.maxWireBytes) throw new BodyTooLargeError('wire');
      await streamRecords(req, declaredFormat(req), deps.limits, (record) => classifier.line(record));
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        discardRestOfBody(req);
        return reject(tooLarge(deps.limits));
      }
      if (err instanceof CorruptGzipError) {
        return reject({
          status: 400,
          reason: 'unreadable_body',
          error: 'The body looks gzipped but does not inflate',
          hint: 'Send the complete gzip stream of NDJSON or a JSON array, or send it uncompressed.',
        });
      }
      throw err;
    }
    const summary = classifier.summary();
    if (summary.received === 0 || summary.unreadable === summary.received) {
      return reject(
        {
          status: 400,
          reason: 'unreadable_body',
          error: 'No line of the body could be read',
          hint: 'Send NDJSON (one JSON crawl event per line, Content-Type: application/x-ndjson) or a JSON array of crawl events (application/json).',
        },
        { linesReceived: summary.received, linesKept: 0 },
      );
    }

    const job: CrawlBatchJobData = {
      batchId: crypto.randomUUID(),
      propertyId: property.id,
      receivedAt: new Date().toISOString(),
      events: summary.events,
    };
    if (summary.kept > 0) {
      try {
        await enqueue(deps.queue, crawlBatchJob, job, job.batchId);
      } catch (err) {
        deps.logger.error({ err, propertyId: property.id }, 'could not enqueue crawl batch');
        return reject(
          {
            status: 503,
            reason: 'queue_unavailable',
            error: 'The batch could not be queued; nothing was stored',
            hint: 'Retry with backoff under the same Idempotency-Key.',
          },
          { linesReceived: summary.received, linesKept: 0, idempotencyKey },
        );
      }
    }
    const hostNote = summary.hostNotMatched.count > 0 ? summary.hostNotMatched : undefined;
    const accepted: DeliveryAttempt = {
      propertyId: property.id,
      channel: 'crawl',
      statusCode: 202,
      outcome: `accepted: kept ${summary.kept} of ${summary.received} lines`,
      linesReceived: summary.received,
      linesKept: summary.kept,
      hostNote,
      reason: hostNote ? 'host_not_matched' : undefined,
      fix: hostNote
        ? `${hostNote.count} lines were for other hosts (${hostNote.hosts.join(', ')}); send only ${property.domain} and its subdomains.`
        : undefined,
      idempotencyKey,
    };
    // A named batch waits for its row, so a repeat sent as soon as the 202 arrives is recognised
    // (on any replica). If the row cannot be stored the batch is still queued: the answer stays 202.
    if (idempotencyKey) await deps.deliveryLog.record(accepted).catch(logError);
    else await deps.deliveryLog.submit(accepted, logError);
    metrics.linesReceived.inc(summary.received);
    metrics.linesKept.inc(summary.kept);
    res.status(202).json({ kept: summary.kept, received: summary.received });
  });
  return router;
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

function checkProperty(property: Property, token: string, secret: string): Rejection | null {
  if (!verifyCrawlToken(secret, property.id, property.crawlTokenVersion, token)) {
    return {
      status: 401,
      reason: 'invalid_token',
      error: 'The crawl token is not valid for this property',
      hint: 'Use the current token from the property setup; a rotated token stops working at once.',
    };
  }
  if (property.plan === 'free' || property.subscriptionStatus !== 'active') {
    return {
      status: 402,
      reason: 'plan_required',
      error: property.plan === 'free' ? 'Crawl ingest needs a paid plan' : 'The subscription has lapsed',
      hint: 'Upgrade the property to Starter, Growth or Scale (or renew it); do not retry until then.',
    };
  }
  if (!property.crawlIngestionEnabled) {
    return {
      status: 403,
      reason: 'connection_disconnected',
      error: 'Crawl ingestion is switched off for this property',
      hint: 'Reconnect the property in its setup dialog, then send again.',
    };
  }
  return null;
}

function tooLarge(limits: BodyLimits): Rejection {
  return {
    status: 413,
    reason: 'body_too_large',
    error: 'The body is over the size cap; nothing from it was stored',
    hint: `Send at most ${exactSize(limits.maxWireBytes)} on the wire and ${exactSize(limits.maxInflatedBytes)} once inflated: split the batch and send both halves (each with its own Idempotency-Key).`,
  };
}

/** A cap as stated to senders: exact, in the largest unit that divides it. */
function exactSize(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
