import { createHash, createHmac } from 'node:crypto';
import type { AgentMatcher } from '@vt/attribution';
import { CRAWL_PROVIDER_TITLES, isCrawlProviderId, MAX_IDEMPOTENCY_KEY_LENGTH } from '@vt/contracts';
import { constantTimeEqual, deriveVercelDrainSecret, verifyCrawlToken } from '@vt/credentials';
import type { PrismaClient, Property } from '@vt/db';
import type { DeliveryAttempt, DeliveryLogWriter } from '@vt/delivery-log';
import type { Logger } from '@vt/logger';
import { crawlBatchJob, crawlBatchJobs, enqueueBulk, type ShardedQueue } from '@vt/queue';
import type { RedisConnection } from '@vt/redis';
import { type Request, type Response, Router } from 'express';
import { Counter, type Registry } from 'prom-client';
import { discardRestOfBody } from '../discard-rest-of-body.ts';
import type { FailedAuthLimiter } from '../failed-auth-limiter.ts';
import { findPropertyById } from '../property-lookup.ts';
import { crawlRejection, type Rejection, sendRejection } from '../rejections.ts';
import { NotReplicatedError, type ReplicatedDurability, replicaConfirmation } from '../replica-confirmation.ts';
import { BatchClassifier, type BatchSummary, type IpVerifier } from './batch-classifier.ts';
import {
  type BodyLimits,
  BodyTooLargeError,
  CorruptGzipError,
  declaredBodyFormat,
  streamRecords,
} from './body-stream.ts';
import { type CrawlLineFormat, REQUIRED_LINE_FIELDS } from './line-format.ts';
import { claimNamedBatch, type NamedBatchClaim, type NamedBatchOptions, namedBatchId } from './named-batches.ts';
import { FirehoseFieldsError, firehoseFields, readFirehose } from './providers/firehose.ts';
import { NotFirehoseError } from './providers/firehose-envelope.ts';
import { CRAWL_SOURCES, type CrawlSource, SPEC_SOURCE, sourceFieldName } from './providers/index.ts';
import { noSignatureKeys, type SignatureVerifier } from './signature-verifier.ts';

export interface CrawlIngestDeps {
  db: PrismaClient;
  /** The gateway's one delivery-log writer, shared with the lead webhook. */
  deliveryLog: DeliveryLogWriter;
  /** Counts wrong-token attempts per property and source address; shared with the lead webhook. */
  failedAuth: FailedAuthLimiter;
  /** The crawl-batch queue's shards; a batch goes to its property's. */
  queue: ShardedQueue;
  /** Claims named batches (the producer connection: fails fast while Redis is away). */
  redis: RedisConnection;
  /** REDIS_DURABILITY=replicated: 202 only once replicas hold the batch's jobs; fast when absent. */
  durability?: ReplicatedDurability;
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

/** Where the spec's batches go; a provider's go to `${CRAWL_INGEST_PATH}/{provider}`. */
const CRAWL_INGEST_PATH = '/api/ingest/crawl/:propertyId';

/**
 * POST /api/ingest/crawl/:propertyId, and /api/ingest/crawl/:propertyId/:provider for the CDNs and
 * hosting platforms that deliver logs in their own shape. The order of checks follows the spec:
 * configuration (503, nothing read), token present (401, no log row), property exists (404, no
 * row), token valid (401, or 429 past the failed-attempt limits: counted in the log's summary
 * row, not a row each), paid plan, ingestion on, Idempotency-Key; every later rejection is
 * recorded in the delivery log. The answer does not wait for its delivery-log row: a named batch is
 * recognised by its claim in Redis, not by its row.
 */
export function crawlIngestRouter(deps: CrawlIngestDeps): Router {
  const metrics = crawlIngestMetrics(deps.registry);
  const router = Router();
  router.post(CRAWL_INGEST_PATH, (req, res) => ingestBatch(deps, metrics, SPEC_SOURCE, req, res));

  // Fastly proves the logging endpoint's host may receive its logs: `*` lets any service post
  // (every delivery still needs the property's token).
  router.get(FASTLY_CHALLENGE_PATH, (_req, res) => {
    res.status(200).type('text/plain').send('*\n');
  });
  // Vercel's drain verification wants its code echoed in `x-vercel-verify` (the drain URL carries it).
  router.all(`${CRAWL_INGEST_PATH}/vercel`, (req, res, next) => {
    const code = req.query.vercelVerify;
    if (typeof code === 'string' && VERIFY_CODE.test(code)) res.set('x-vercel-verify', code);
    next();
  });
  router.post(`${CRAWL_INGEST_PATH}/:provider`, (req, res) => {
    const provider = req.params.provider ?? '';
    if (!isCrawlProviderId(provider)) {
      res.on('finish', () => metrics.batches.inc({ status: String(res.statusCode) }));
      discardRestOfBody(req);
      return sendRejection(res, crawlRejection('unknown_provider', provider.slice(0, 64)));
    }
    return ingestBatch(deps, metrics, CRAWL_SOURCES[provider], req, res);
  });
  // A provider's "test" button, or a person checking the URL: what the endpoint takes.
  router.get(`${CRAWL_INGEST_PATH}/:provider`, (req, res) => {
    const provider = req.params.provider ?? '';
    if (!isCrawlProviderId(provider))
      return sendRejection(res, crawlRejection('unknown_provider', provider.slice(0, 64)));
    res.status(200).json({ provider, title: CRAWL_PROVIDER_TITLES[provider], accepts: 'POST' });
  });
  return router;
}

const FASTLY_CHALLENGE_PATH = '/.well-known/fastly/logging/challenge';
const VERIFY_CODE = /^[A-Za-z0-9_-]{1,128}$/;

type CrawlIngestMetrics = ReturnType<typeof crawlIngestMetrics>;

async function ingestBatch(
  deps: CrawlIngestDeps,
  metrics: CrawlIngestMetrics,
  source: CrawlSource,
  req: Request,
  res: Response,
) {
  res.on('finish', () => metrics.batches.inc({ status: String(res.statusCode) }));
  const answers = answersFor(source, req);
  const secret = deps.crawlTokenSecret;
  if (!secret) return answers.reject(res, crawlRejection('ingest_not_configured'));
  const token = presentedToken(req, source);
  if (!token) return answers.reject(res, withTokenHint(crawlRejection('missing_token'), source));
  const propertyId = String(req.params.propertyId ?? '');
  const property = await findPropertyById(deps.db, propertyId);
  if (!property) return answers.reject(res, crawlRejection('property_not_found', propertyId));

  const logError = (err: unknown) =>
    deps.logger.error({ err, propertyId: property.id }, 'could not record delivery attempt');
  const refuse = async (refusal: Rejection, extra: Partial<DeliveryAttempt> = {}) => {
    const { status: statusCode, reason, hint: fix } = refusal;
    const attempt = { propertyId: property.id, channel: 'crawl' as const, statusCode, reason, fix };
    const outcome = source.provider ? `rejected from ${source.title}; nothing stored` : 'rejected; nothing stored';
    await deps.deliveryLog.submit({ ...attempt, outcome, ...extra }, logError);
    answers.reject(res, refusal);
  };
  const problem = checkProperty(property, token, secret);
  // A token of one of the property's earlier versions is its own sender's, left on a rotated
  // token: only the property's senders ever held one, so the attempt is logged as theirs and may
  // turn the status Rejecting (the spec's 401 "including a rotated token"), unlike a stranger's.
  if (problem?.code === 'invalid_token' && isRotatedToken(property, token, secret)) {
    discardRestOfBody(req);
    return refuse(withTokenHint(crawlRejection('rotated_token'), source));
  }
  if (problem?.code === 'invalid_token') {
    // Anyone who knows the property id can get here: counted into the log's summary row, never a
    // row of its own, and past the limits answered 429 (./failed-auth-limiter.ts).
    discardRestOfBody(req);
    const { limited, retryAfterSeconds } = await deps.failedAuth.fail(property.id, req.socket.remoteAddress);
    const refusal = limited
      ? crawlRejection('too_many_failed_attempts', retryAfterSeconds)
      : withTokenHint(problem, source);
    deps.deliveryLog.summarise(
      {
        propertyId: property.id,
        channel: 'crawl',
        statusCode: refusal.status,
        reason: refusal.code,
        fix: refusal.hint,
        outcome: source.provider ? `rejected from ${source.title}; nothing stored` : 'rejected; nothing stored',
      },
      logError,
    );
    if (limited) res.set('Retry-After', String(retryAfterSeconds));
    return answers.reject(res, refusal);
  }
  if (problem) return refuse(problem);

  const idempotencyKey = req.get('idempotency-key') ?? providerBatchName(source, req);
  if (idempotencyKey !== undefined && idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return refuse(crawlRejection('idempotency_key_too_long', idempotencyKey.length));
  }
  let fields: string[] | undefined;
  if (source.body === 'firehose') {
    try {
      fields = firehoseFields(req);
    } catch (err) {
      if (!(err instanceof FirehoseFieldsError)) throw err;
      discardRestOfBody(req);
      return refuse(crawlRejection('unknown_fields', err.message));
    }
  }

  // Claims a batch's name: a repeat is answered as the first attempt was, and writes nothing (not
  // even a delivery-log row: the batch's one row is its first attempt's).
  const claimName = async (name: string): Promise<NamedBatchClaim | 'refused'> => {
    try {
      const found = await claimNamedBatch(deps.redis, deps.keyPrefix, property.id, name, deps.namedBatches);
      if (found.kind === 'repeat') answers.duplicate(res, found.figures);
      if (found.kind === 'in_progress') {
        discardRestOfBody(req);
        res.set('Retry-After', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
        answers.reject(res, crawlRejection('batch_in_progress'));
      }
      return found;
    } catch (err) {
      deps.logger.error({ err, propertyId: property.id }, 'could not claim a named crawl batch');
      discardRestOfBody(req);
      await refuse(crawlRejection('queue_unavailable'), { idempotencyKey: name });
      return 'refused';
    }
  };

  let claim: Extract<NamedBatchClaim, { kind: 'first' }> | undefined;
  let batchName = idempotencyKey || undefined;
  if (batchName) {
    // Claimed before the body is read, so a repeat costs no upload (./named-batches.ts says how
    // this closes the gaps the spec's idempotency rule 4 admits).
    const found = await claimName(batchName);
    if (found === 'refused' || found.kind !== 'first') return;
    claim = found;
  }

  let settled = false;
  try {
    // Hashed as it arrives (wire bytes): the name of a batch that has none, and Vercel's signature.
    const digest = !batchName && source.namesByDigest ? createHash('sha256') : undefined;
    const vercelSignature = source.provider === 'vercel' ? req.get('x-vercel-signature') : undefined;
    const signature = vercelSignature
      ? createHmac('sha1', deriveVercelDrainSecret(secret, property.id, property.crawlTokenVersion))
      : undefined;
    if (digest || signature) {
      req.on('data', (chunk: Buffer) => {
        digest?.update(chunk);
        signature?.update(chunk);
      });
    }
    const format = source.lines(property.domain);
    const read = await readBatch(req, property.domain, deps, source, format, fields);
    if ('status' in read) return await refuse(read, { idempotencyKey: batchName });
    if (signature && !constantTimeEqual(signature.digest('hex'), (vercelSignature ?? '').toLowerCase())) {
      return await refuse(crawlRejection('signature_mismatch'), { linesReceived: read.received, linesKept: 0 });
    }
    // A provider's handshake or test upload holds no request: accepted, nothing to count.
    const testDelivery = source.provider !== null && read.received === 0;
    if (!testDelivery && (read.received === 0 || read.unreadable === read.received)) {
      const noLine = withFix(crawlRejection('unreadable_body', 'no_readable_line'), read.fieldCountFix);
      return await refuse(noLine, { linesReceived: read.received, linesKept: 0, idempotencyKey: batchName });
    }
    if (digest) {
      batchName = `sha256:${digest.digest('hex')}`;
      const found = await claimName(batchName);
      if (found === 'refused' || found.kind !== 'first') return;
      claim = found;
    }
    if (read.kept > 0) {
      const batch = {
        batchId: batchName ? namedBatchId(property.id, batchName) : crypto.randomUUID(),
        propertyId: property.id,
        receivedAt: new Date().toISOString(),
      };
      try {
        // All chunks in one addBulk, so a 202 means every one is queued. If it fails part-way, the
        // chunks already in stay: a named batch's retry (its claim is released below) names its
        // chunks alike and they count once; an unnamed batch's retry counts them twice (CRAWL-19).
        await deps.queue.ready();
        const queue = deps.queue.forProperty(property.id);
        await enqueueBulk(queue, crawlBatchJob, crawlBatchJobs(batch, read.events, deps.maxEventsPerJob));
        await replicaConfirmation(deps.redis, deps.durability)(queue);
      } catch (err) {
        deps.logger.error({ err, propertyId: property.id }, 'could not enqueue crawl batch');
        const counts = { linesReceived: read.received, linesKept: 0, idempotencyKey: batchName };
        const reason = err instanceof NotReplicatedError ? 'not_replicated' : 'queue_unavailable';
        return await refuse(crawlRejection(reason), counts);
      }
    }
    // Queued: the batch is accepted whatever happens to its claim from here. A claim that cannot
    // be settled lapses after its pending time, and a retry then enqueues the same job ids.
    settled = true;
    await claim?.settle({ kept: read.kept, received: read.received }).catch((err: unknown) => {
      deps.logger.warn({ err, propertyId: property.id }, 'could not remember a named crawl batch');
    });
    const attempt = acceptedAttempt(property, read, { source, format, idempotencyKey: batchName });
    await deps.deliveryLog.submit(attempt, logError);
    metrics.linesReceived.inc(read.received);
    metrics.linesKept.inc(read.kept);
    answers.accepted(res, { kept: read.kept, received: read.received });
  } finally {
    // Refused or failed: the name is free again for a corrected retry.
    if (claim && !settled) await claim.release().catch(() => {});
  }
}

/** A provider's own batch name (Firehose's request id), kept apart from an Idempotency-Key's. */
function providerBatchName(source: CrawlSource, req: Request): string | undefined {
  const name = source.batchName?.(req);
  return name === undefined ? undefined : `${source.provider}:${name}`;
}

/** How an endpoint answers: the spec's `{kept, received}` with 202, a provider's 200, Firehose's own acknowledgement. */
interface Answers {
  /** The delivery-log status of an accepted batch: what `accepted` answers. */
  acceptedStatus: number;
  accepted(res: Response, figures: { kept: number; received: number }): void;
  duplicate(res: Response, figures: { kept: number; received: number }): void;
  reject(res: Response, rejection: Rejection): void;
}

function answersFor(source: CrawlSource, req: Request): Answers {
  if (source.provider === null) {
    return {
      acceptedStatus: 202,
      accepted: (res, figures) => res.status(202).json(figures),
      duplicate: (res, figures) => res.status(200).json({ duplicate: true, ...figures }),
      reject: sendRejection,
    };
  }
  if (source.provider === 'firehose') {
    // Firehose counts only a 200 with this body as delivered, retries every other status but 413,
    // and reads errorMessage into its error logs.
    const requestId = req.get('x-amz-firehose-request-id') ?? '';
    const acknowledge = (res: Response) => res.status(200).json({ requestId, timestamp: Date.now() });
    return {
      acceptedStatus: 200,
      accepted: acknowledge,
      duplicate: acknowledge,
      reject: (res, rejection) => {
        res.status(rejection.status).json({
          requestId,
          timestamp: Date.now(),
          errorMessage: `${rejection.reason ?? rejection.code}: ${rejection.error}. ${rejection.hint}`.slice(0, 8192),
        });
      },
    };
  }
  return {
    acceptedStatus: 200,
    accepted: (res, figures) => res.status(200).json(figures),
    duplicate: (res, figures) => res.status(200).json({ duplicate: true, ...figures }),
    reject: sendRejection,
  };
}

/**
 * The crawl token as the source sends it: `Authorization: Bearer`, the password of Basic auth
 * (Akamai and others that offer only Basic), Firehose's access key header, or `?token=`.
 */
function presentedToken(req: Request, source: CrawlSource): string | undefined {
  const header = req.get('authorization');
  if (header !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (bearer !== undefined || source.provider === null) return bearer ?? '';
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1];
    if (basic === undefined) return '';
    const credentials = Buffer.from(basic, 'base64').toString('utf8');
    return credentials.slice(credentials.indexOf(':') + 1);
  }
  if (source.provider === 'firehose') {
    const key = req.get('x-amz-firehose-access-key');
    if (key !== undefined) return key;
  }
  const query = req.query.token;
  return typeof query === 'string' ? query : undefined;
}

/** A rejection whose hint is what the batch itself showed was wrong, when it showed something. */
function withFix(rejection: Rejection, fix: string | undefined): Rejection {
  return fix ? { ...rejection, hint: fix } : rejection;
}

/** A token rejection with where this provider sets the token. */
function withTokenHint(rejection: Rejection, source: CrawlSource): Rejection {
  return source.tokenHint ? { ...rejection, hint: source.tokenHint } : rejection;
}

/** How many earlier token versions a refused token is compared with (a rotation is a version bump). */
const ROTATED_TOKEN_VERSIONS_CHECKED = 10;

/** Whether the token is one the property had before a rotation (checked only once the current one failed). */
function isRotatedToken(property: Property, token: string, secret: string): boolean {
  const oldest = Math.max(1, property.crawlTokenVersion - ROTATED_TOKEN_VERSIONS_CHECKED);
  for (let version = property.crawlTokenVersion - 1; version >= oldest; version--) {
    if (verifyCrawlToken(secret, property.id, version, token)) return true;
  }
  return false;
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
async function readBatch(
  req: Request,
  domain: string,
  deps: CrawlIngestDeps,
  source: CrawlSource,
  format: CrawlLineFormat,
  fields: string[] | undefined,
): Promise<BatchReading | Rejection> {
  const { limits } = deps;
  const classifier = new BatchClassifier(domain, deps.ipVerifier(), deps.agentMatcher?.(), format);
  let fieldCountFix: string | undefined;
  try {
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > limits.maxWireBytes) throw new BodyTooLargeError('wire');
    if (source.body === 'firehose') {
      const { fieldCountMismatch: m } = await readFirehose(req, fields ?? [], limits, classifier);
      if (m.lines > 0) {
        fieldCountFix = `CloudFront records have ${m.found} fields where the endpoint reads ${m.expected} (${(fields ?? []).join(', ')}) on ${m.lines} lines: select exactly those fields in the real-time log configuration, or list yours in CloudFront's order in the endpoint URL's fields parameter.`;
      }
    } else {
      await streamRecords(req, declaredBodyFormat(req.get('content-type')), limits, classifier);
    }
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      discardRestOfBody(req);
      return crawlRejection('body_too_large', limits.maxWireBytes, limits.maxInflatedBytes);
    }
    if (err instanceof CorruptGzipError) return crawlRejection('unreadable_body', 'corrupt_gzip');
    if (err instanceof NotFirehoseError) return crawlRejection('unreadable_body', 'not_firehose');
    throw err;
  }
  await classifier.settleSignatures(deps.signatureVerifier?.() ?? noSignatureKeys);
  return { ...classifier.summary(), fieldCountFix };
}

/** A batch as read: the classifier's summary, and what a provider's records showed was set up wrong. */
type BatchReading = BatchSummary & { fieldCountFix?: string };

/**
 * The delivery-log row of an accepted batch, with the note on lines for other hosts and, from a
 * provider, on a field its lines lack (in the provider's terms).
 */
function acceptedAttempt(
  property: Property,
  batch: BatchReading,
  options: { source: CrawlSource; format: CrawlLineFormat; idempotencyKey?: string },
): DeliveryAttempt {
  const { source, format, idempotencyKey } = options;
  const hostNote = batch.hostNotMatched.count > 0 ? batch.hostNotMatched : undefined;
  const reasons: string[] = [];
  const fixes: string[] = [];
  if (batch.fieldCountFix) {
    reasons.push('fields_mismatched');
    fixes.push(batch.fieldCountFix);
  }
  if (hostNote) {
    reasons.push('host_not_matched');
    fixes.push(
      `${hostNote.count} lines were for other hosts (${hostNote.hosts.join(', ')}); send only ${property.domain} and its subdomains.`,
    );
  }
  const missing = mostMissedField(batch);
  if (missing && source.missingFieldFix) {
    reasons.push('fields_missing');
    fixes.push(
      source.missingFieldFix(sourceFieldName(format, missing.field, source), missing.lines, batch.checkedLines),
    );
  }
  const from = source.provider ? ` from ${source.title}` : '';
  const outcome =
    source.provider && batch.received === 0
      ? `accepted${from}: a test delivery with no request in it (${batch.notRequests} other records); nothing to count`
      : `accepted${from}: kept ${batch.kept} of ${batch.received} lines`;
  return {
    propertyId: property.id,
    channel: 'crawl',
    statusCode: source.provider ? 200 : 202,
    outcome,
    linesReceived: batch.received,
    linesKept: batch.kept,
    hostNote,
    reason: reasons.length > 0 ? reasons.join(', ') : undefined,
    fix: fixes.length > 0 ? fixes.join(' ') : undefined,
    idempotencyKey,
  };
}

/** The field a batch's lines lacked most often, if any did. */
function mostMissedField(batch: BatchSummary) {
  let most: { field: (typeof REQUIRED_LINE_FIELDS)[number]; lines: number } | undefined;
  for (const field of REQUIRED_LINE_FIELDS) {
    const lines = batch.missingFields[field] ?? 0;
    if (lines > (most?.lines ?? 0)) most = { field, lines };
  }
  return most;
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
