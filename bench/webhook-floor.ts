// The lead webhook's required-work floor (issue 31): a bare express route doing only what the spec
// requires of each lead, with the gateway's own building blocks, so the gateway can be measured
// against the work it cannot avoid rather than against a constant answer. Per POST it reads the
// body up to the 64 KB cap, checks the timestamp window and the HMAC-SHA256 signature (the
// property's derived secret, @vt/credentials' verify), claims the event id in Redis (SET NX GET
// with the 24 h TTL, the gateway's key), adds one job on the lead contract (the gateway's batched
// add, one pipeline per event-loop turn), hands one row to the batched delivery-log writer (the
// gateway's submitDelayMs), then answers 200 JSON. What it skips: the property lookup (the secret
// is derived once per property id in the path), the payload's field reading and suggestions, AI
// attribution, metrics, failed-auth counting and the per-request logger and request id.
// Its own process like bare-express.ts; env: DATABASE_URL, REDIS_URL, QUEUE_PREFIX (give it one of its
// own: its jobs must not reach the gateway's lead worker), WEBHOOK_SIGNING_KEY. argv[2]: the port.
import { LEAD_WEBHOOK_LIMITS, type LeadResult } from '@vt/contracts';
import { deriveWebhookSecret, verifyWebhookSignature } from '@vt/credentials';
import { createPrismaClient } from '@vt/db';
import { createDeliveryLogWriter } from '@vt/delivery-log';
import { batchedEnqueue, createQueue, leadJob } from '@vt/queue';
import { createProducerConnection } from '@vt/redis';
import express from 'express';
import { claimFirstAnswer, deriveLeadId } from '../apps/ingest-gateway/src/leads/lead-duplicates.ts';
import { readCappedBody } from '../apps/ingest-gateway/src/leads/read-capped-body.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const signingKey = env('WEBHOOK_SIGNING_KEY');
const keyPrefix = env('QUEUE_PREFIX');
// The gateway's defaults (packages/config): a pool of 10, and its producer connection's options.
const db = createPrismaClient(
  {
    DATABASE_URL: env('DATABASE_URL'),
    DATABASE_POOL_MAX: 10,
    DATABASE_CONNECT_TIMEOUT_MS: 5000,
    DATABASE_IDLE_TIMEOUT_MS: 30000,
    DATABASE_STATEMENT_TIMEOUT_MS: 30000,
  },
  'webhook-floor',
);
const redis = createProducerConnection({ redisUrl: env('REDIS_URL'), onError: () => {} });
const enqueue = batchedEnqueue(createQueue(leadJob, redis, keyPrefix), leadJob);
const deliveryLog = createDeliveryLogWriter(db, { submitDelayMs: 100 });
const secrets = new Map<string, string>();
const { maxBodyBytes, maxEventIdLength, timestampSkewSeconds } = LEAD_WEBHOOK_LIMITS;

const refuse = (res: express.Response, status: number, error: string) => res.status(status).json({ error });

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.post('/api/webhooks/leads/:propertyId', async (req, res) => {
  const propertyId = req.params.propertyId;
  let secret = secrets.get(propertyId);
  if (!secret) {
    secret = deriveWebhookSecret(signingKey, propertyId);
    secrets.set(propertyId, secret);
  }
  const eventId = req.get('x-webhook-id');
  const timestamp = req.get('x-webhook-timestamp');
  const signature = req.get('x-webhook-signature');
  if (!eventId || eventId.length > maxEventIdLength || !timestamp || !signature) return refuse(res, 400, 'headers');
  if (!(Math.abs(Date.now() / 1000 - Number(timestamp)) <= timestampSkewSeconds)) return refuse(res, 400, 'stale');
  const body = await readCappedBody(req, maxBodyBytes);
  if (body === 'too_large') return refuse(res, 413, 'too_large');
  if (!verifyWebhookSignature(secret, eventId, timestamp, body, signature)) return refuse(res, 401, 'signature');
  const text = body.toString('utf8');
  const lead = JSON.parse(text);
  const leadId = deriveLeadId(propertyId, eventId);
  const receivedAt = new Date().toISOString();
  await enqueue({ leadId, propertyId, eventId, receivedAt, lead, platform: null }, leadId);
  const result: LeadResult = {
    leadId,
    matched: false,
    platform: 'unclassified',
    warnings: [],
    ignoredFields: [],
    fieldSuggestions: [],
  };
  const first = await claimFirstAnswer(redis, keyPrefix, propertyId, eventId, result);
  const answer = first ?? result;
  await deliveryLog.submit(
    {
      propertyId,
      channel: 'webhook',
      statusCode: 200,
      outcome: 'stored lead',
      eventId,
      requestBody: text,
      leadId,
      result: answer,
    },
    () => {},
  );
  res.json(answer);
});
const port = Number(process.argv[2] ?? 3991);
app.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));
process.on('SIGTERM', () => {
  void deliveryLog.flush().finally(() => process.exit(0));
});
