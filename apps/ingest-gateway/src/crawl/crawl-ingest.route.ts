import type { AgentMatcher } from '@vt/attribution';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '@vt/contracts';
import { nameBasedUuid, verifyCrawlToken } from '@vt/credentials';
import type { PrismaClient, Property } from '@vt/db';
import { type DeliveryAttempt, type DeliveryLogWriter, findNamedCrawlBatch } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { type CrawlBatchJobData, crawlBatchJob, enqueue, type Queue } from '@vt/queue';
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
import { noSignatureKeys, type SignatureVerifier } from './signature-verifier.ts';

export interface CrawlIngestDeps {
  db: PrismaClient;
  /** The gateway's one delivery-log writer, shared with the lead webhook. */
  deliveryLog: DeliveryLogWriter;
  queue: Queue;
  logger: Logger;
  crawlTokenSecret: string | undefined;
  limits: BodyLimits;
  ipVerifier: () => IpVerifier;
  /** The current AI agent catalogue's matcher; the bundled catalogue's when absent. */
  agentMatcher?: () => AgentMatcher;
  /** Web Bot Auth: the stored key directories; nothing verifies when absent. */
  signatureVerifier?: () => SignatureVerifier;
  registry: Registry;
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
    if (idempotencyKey) {
      // A named batch is recognised by its accepted row in the delivery log, as the spec defines
      // it (rule 4 of its idempotency rules lists this mechanism's own gaps): the row holds the
      // figures a repeat is answered with, it is stored before the 202 anyway, and the lookup
      // happens before the body is read, so a repeat costs no upload. Leads use another
      // mechanism, for reasons given in ../leads/lead-duplicates.ts.
      const original = await findNamedCrawlBatch(deps.db, property.id, idempotencyKey);
      // Decided: a recognised repeat answers 200 (the original answered 202) and writes nothing.
      if (original) return void res.status(200).json({ duplicate: true, ...original });
    }

    const read = await readBatch(req, property.domain, deps);
    if ('status' in read) return refuse(read);
    if (read.received === 0 || read.unreadable === read.received) {
      const noLine = crawlRejection('unreadable_body', 'no_readable_line');
      return refuse(noLine, { linesReceived: read.received, linesKept: 0 });
    }
    if (read.kept > 0) {
      const job: CrawlBatchJobData = {
        batchId: idempotencyKey ? namedBatchId(property.id, idempotencyKey) : crypto.randomUUID(),
        propertyId: property.id,
        receivedAt: new Date().toISOString(),
        events: read.events,
      };
      try {
        await enqueue(deps.queue, crawlBatchJob, job, job.batchId);
      } catch (err) {
        deps.logger.error({ err, propertyId: property.id }, 'could not enqueue crawl batch');
        const counts = { linesReceived: read.received, linesKept: 0, idempotencyKey };
        return refuse(crawlRejection('queue_unavailable'), counts);
      }
    }
    const accepted = acceptedAttempt(property, read, idempotencyKey);
    // A named batch waits for its row, so a repeat sent as soon as the 202 arrives is recognised
    // (on any replica). If the row cannot be stored the batch is still queued: the answer stays 202.
    if (idempotencyKey) await deps.deliveryLog.record(accepted).catch(logError);
    else await deps.deliveryLog.submit(accepted, logError);
    metrics.linesReceived.inc(read.received);
    metrics.linesKept.inc(read.kept);
    res.status(202).json({ kept: read.kept, received: read.received });
  });
  return router;
}

/**
 * A named batch's id, the same on every attempt that carries its Idempotency-Key, on any replica:
 * the job id BullMQ dedupes and the processed_jobs marker the crawl worker applies once. So two
 * attempts that overlap (a shipper retrying on its own time-out while the first is still being
 * read), a retry after a crash between enqueue and answer, and a retry whose delivery-log row has
 * aged out of the newest 50 are all counted once (markers are kept 14 days).
 */
export const namedBatchId = (propertyId: string, idempotencyKey: string) =>
  nameBasedUuid(`crawl-batch:${propertyId}:${idempotencyKey}`);

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
    await streamRecords(req, declaredBodyFormat(req.get('content-type')), limits, (record) => classifier.line(record));
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
