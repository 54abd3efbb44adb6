import { z } from 'zod';

// Shared pieces of the apps' config schemas. Each app composes the ones it needs
// (`z.object({...databaseEnv, ...redisEnv, PORT: port(3000)})`), so a variable has one
// name, one parser and one description everywhere.

// 0 lets the system pick a free port, logged at start (tests use it so no two processes race for one).
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const nonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\//.test(v) && URL.canParse(v), 'must be a postgresql:// URL');

const redisUrl = z
  .string()
  .refine((v) => /^rediss?:\/\//.test(v) && URL.canParse(v), 'must be a redis:// or rediss:// URL');

export const databaseEnv = {
  DATABASE_URL: postgresUrl
    .default('postgresql://postgres@127.0.0.1:5432/visibility')
    .describe('Postgres connection URL.'),
  DATABASE_POOL_MAX: positiveInt(10).describe('Most Postgres connections this process opens.'),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(5000).describe(
    'How long to wait for a Postgres connection (pool checkout included) before failing.',
  ),
  DATABASE_IDLE_TIMEOUT_MS: positiveInt(30000).describe('Idle Postgres connections are closed after this long.'),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(30000).describe('Postgres statement_timeout for this process.'),
};

/**
 * A streaming replica for reads that tolerate seconds of lag. Unset: everything reads the primary.
 * Empty counts as unset, so a compose file can pass it through blank.
 */
export const readDatabaseEnv = {
  READ_DATABASE_URL: z
    .preprocess((v) => (v === '' ? undefined : v), postgresUrl.optional())
    .describe(
      "A read replica's Postgres URL for reads that tolerate seconds of lag (the read API's /v1 data; the console's views of collected answers). While it cannot be reached, those reads go to DATABASE_URL. Unset: everything reads the primary.",
    ),
};

const MAX_QUEUE_SHARDS = 256;
const MAX_CLUSTER_NODES = 64;

export const redisEnv = {
  REDIS_URL: redisUrl
    .default('redis://127.0.0.1:6379')
    .describe('Redis connection URL (BullMQ queues, rate limits, webhook duplicates).'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^\{[A-Za-z0-9_.:-]{1,64}\}$/, 'must be a Redis Cluster hash tag such as {vt}')
    .default('{vt}')
    .describe(
      "Prefix of every Redis key of the deployment (BullMQ's and the service's own): a {hash tag}. On a Redis Cluster each queue shard takes a tag inside it ({vt:0}, {vt:1}, …), and per-property and per-key claims and limits one each ({vt:<id>}).",
    ),
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .transform((v, ctx) => (v === undefined || v.trim() === '' ? undefined : clusterNodes(v, ctx)))
    .describe(
      'Seed nodes of a Redis Cluster, `host:port,host:port,…` (a few suffice: the client learns the rest and follows failovers). Set, every connection is a cluster client and REDIS_URL only lends its user, password and TLS (rediss://) to every node. Unset: the one Redis at REDIS_URL.',
    ),
  QUEUE_SHARDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_QUEUE_SHARDS)
    .default(1)
    .describe(
      'How many shards the crawl-batch and lead queues are split over, each on its own hash tag ({vt:0} … {vt:N-1}); a property always goes to the same shard. 1 is the one queue under QUEUE_PREFIX. Every process of a deployment must have the same value; change it only by the drain-then-switch procedure (Scaling Redis).',
    ),
};

/** What a worker of the sharded queues (crawl-batch, lead) reads: which shards it takes jobs from. */
export const queueShardsConsumedEnv = {
  QUEUE_SHARDS_CONSUMED: z
    .string()
    .optional()
    .transform((v, ctx) => (v === undefined || v.trim() === '' ? undefined : shardList(v, ctx)))
    .describe(
      'Which queue shards this worker takes jobs from, `0,2` (numbers below QUEUE_SHARDS). Unset: all of them. Every shard needs a worker somewhere, or its properties wait.',
    ),
};

/** Refuses a consumed shard that does not exist under QUEUE_SHARDS. */
export function requireConsumedShardsExist(
  config: { QUEUE_SHARDS: number; QUEUE_SHARDS_CONSUMED?: number[] },
  ctx: z.RefinementCtx,
): void {
  const missing = (config.QUEUE_SHARDS_CONSUMED ?? []).filter((shard) => shard >= config.QUEUE_SHARDS);
  if (missing.length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['QUEUE_SHARDS_CONSUMED'],
      message: `names shard ${missing.join(', ')}, but QUEUE_SHARDS is ${config.QUEUE_SHARDS} (shards 0 to ${config.QUEUE_SHARDS - 1})`,
    });
  }
}

/**
 * When the gateway's 202/200 is given (gateway only: it is the one that acknowledges senders).
 * `replicated` waits for a replica's copy of the enqueue (Redis WAIT), so a master lost right
 * after cannot take an acknowledged batch or lead with it.
 */
export const redisDurabilityEnv = {
  REDIS_DURABILITY: z
    .enum(['fast', 'replicated'], 'must be fast or replicated')
    .default('fast')
    .describe(
      'fast: answer once the job is on the Redis master (a failover right after may lose it: Redis replicates asynchronously). replicated: answer only once REDIS_WAIT_REPLICAS replicas confirmed it (Redis WAIT), else 503 and the sender retries; costs a replication round trip per batch or lead (Guarantees).',
    ),
  REDIS_WAIT_REPLICAS: positiveInt(1).describe('In replicated mode, how many replicas must confirm each enqueue.'),
  REDIS_WAIT_TIMEOUT_MS: positiveInt(1000).describe(
    'In replicated mode, how long the gateway waits for the replicas before answering 503 (retry).',
  ),
};

function clusterNodes(value: string, ctx: z.RefinementCtx): { host: string; port: number }[] | typeof z.NEVER {
  const entries = value.split(',').map((entry) => entry.trim());
  const nodes = entries.map((entry) => /^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]):(\d{1,5})$/.exec(entry));
  if (entries.length > MAX_CLUSTER_NODES || nodes.some((m) => !m || Number(m[2]) < 1 || Number(m[2]) > 65535)) {
    ctx.addIssue({ code: 'custom', message: `must be up to ${MAX_CLUSTER_NODES} host:port entries, comma-separated` });
    return z.NEVER;
  }
  return nodes.map((m) => ({ host: m![1]!.replace(/^\[|\]$/g, ''), port: Number(m![2]) }));
}

function shardList(value: string, ctx: z.RefinementCtx): number[] | typeof z.NEVER {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_QUEUE_SHARDS || entries.some((entry) => !/^\d{1,3}$/.test(entry))) {
    ctx.addIssue({ code: 'custom', message: 'must be shard numbers, comma-separated (0,2)' });
    return z.NEVER;
  }
  return [...new Set(entries.map(Number))].sort((a, b) => a - b);
}

export const logEnv = {
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level.'),
};

const shutdownEnv = {
  SHUTDOWN_TIMEOUT_MS: positiveInt(15000).describe(
    'On SIGTERM, in-flight work gets this long to finish before the process exits anyway.',
  ),
};

export const crawlTokenSecretEnv = {
  CRAWL_TOKEN_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe('Deployment secret crawl ingest tokens are derived from. Unset: crawl ingest answers 503.'),
};

export const webhookSigningKeyEnv = {
  WEBHOOK_SIGNING_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe('Deployment key lead webhook signing secrets are derived from. Unset: the webhook answers 503.'),
};

/** How a lead webhook's signing secret may rotate: the spec's deployment-wide roll only, or also one property's. */
export const WEBHOOK_SECRET_ROTATIONS = ['deployment', 'property'] as const;

/**
 * Whether owners, admins and `ops` may roll one property's lead webhook secret (issue 31). The
 * spec's rule (LEAD-17) is the default: a secret rotates only deployment-wide, with
 * WEBHOOK_SIGNING_KEY. The gateway does not read it: it verifies whatever rotation a property's
 * row holds, so switching back to `deployment` never breaks a sender who already moved.
 */
export const webhookSecretRotationEnv = {
  WEBHOOK_SECRET_ROTATION: z
    .enum(WEBHOOK_SECRET_ROTATIONS, { error: 'must be deployment or property' })
    .default('deployment')
    .describe(
      "How lead webhook secrets rotate. `deployment` (the spec's rule, LEAD-17): only all at once, by changing WEBHOOK_SIGNING_KEY; the console's per-property rotate answers 404 and `ops webhook rotate-secret` refuses. `property`: owners, admins and `ops` may also roll one property's secret, the old one verifying through an overlap.",
    ),
};

/**
 * The overlap of a signing key rotation (gateway only: it verifies, nothing else shows secrets of
 * the old key). Both or neither: an overlap must end.
 */
export const previousWebhookSigningKeyEnv = {
  WEBHOOK_SIGNING_KEY_PREVIOUS: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'After rotating WEBHOOK_SIGNING_KEY: the key before it, whose secrets still verify until WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL.',
    ),
  WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL: z.iso
    .datetime({ offset: true })
    .pipe(z.coerce.date())
    .optional()
    .describe('When secrets of WEBHOOK_SIGNING_KEY_PREVIOUS stop verifying (ISO 8601, e.g. 2026-12-01T00:00:00Z).'),
};

/** Refuses one of the two overlap variables without the other. */
export function requireWholeOverlap(
  config: { WEBHOOK_SIGNING_KEY_PREVIOUS?: string; WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL?: Date },
  ctx: z.RefinementCtx,
): void {
  const { WEBHOOK_SIGNING_KEY_PREVIOUS: key, WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL: until } = config;
  if (key !== undefined && until === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL'],
      message: 'must be set with WEBHOOK_SIGNING_KEY_PREVIOUS: the overlap of a rotation must end',
    });
  }
  if (until !== undefined && key === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_SIGNING_KEY_PREVIOUS'],
      message: 'must be set with WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL (the key whose overlap it ends)',
    });
  }
}

/**
 * The alert webhooks a property posts to (packages/outgoing-webhooks): the key their signing
 * secrets derive from, and whether they may point inside the deployment's own network. Read by
 * the console (it shows secrets and checks URLs as they are saved) and by whatever delivers them
 * (it signs, and checks again at every delivery).
 */
export const alertWebhookEnv = {
  ALERT_WEBHOOK_SIGNING_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'Deployment key the signing secrets of alert webhooks (Standard Webhooks format) are derived from. Unset: only Slack-format alert webhooks can be added.',
    ),
  ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true')
    .describe(
      'Whether alert webhook URLs may be plain http and point at loopback, private, link-local or CGNAT addresses (a receiver on your own network). Off: only https URLs whose host resolves to public addresses. Cloud metadata addresses are refused either way.',
    ),
};

/**
 * The weekly report's one-click unsubscribe links: signed with this key by the notifier (in the
 * email) and checked by the console (when the link is followed), so both read it.
 */
export const reportUnsubscribeKeyEnv = {
  REPORT_UNSUBSCRIBE_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      "Deployment key the weekly report's one-click unsubscribe links are signed with. Unset: the notifier sends no weekly reports (a report must carry a working unsubscribe link) and the console's unsubscribe answers 503.",
    ),
};

/** What every queue worker reads besides its port and concurrency. */
export const jobLockEnv = {
  JOB_LOCK_SECONDS: positiveInt(30).describe(
    "How long a worker's hold on a job lasts unrenewed: a job of a killed worker goes back to the queue within about twice this (BullMQ lockDuration and stalled check).",
  ),
};

const hostEnv = {
  HOST: z.string().default('0.0.0.0').describe('Interface the HTTP servers bind to.'),
};

// The apps' ports, named per app so one .env can configure the whole system (`pnpm start`).
export const readApiPortEnv = {
  READ_API_PORT: port(3000).describe('Port of the read API (/v1, /openapi.json).'),
};
export const answerCollectorPortEnv = {
  ANSWER_COLLECTOR_METRICS_PORT: port(9103).describe(
    'Port of the answer-collector /healthz, /readyz and /metrics server.',
  ),
};
export const consolePortEnv = {
  CONSOLE_PORT: port(3002).describe('Port of the console API (/api: accounts, teams, properties, keys).'),
};
export const ingestGatewayPortEnv = {
  INGEST_GATEWAY_PORT: port(3001).describe('Port of the ingest gateway (crawl ingest, lead webhook).'),
};
export const crawlWorkerPortEnv = {
  CRAWL_WORKER_METRICS_PORT: port(9101).describe('Port of the crawl-worker /healthz, /readyz and /metrics server.'),
};
export const notifierPortEnv = {
  NOTIFIER_PORT: port(9104).describe('Port of the notifier /healthz, /readyz and /metrics server.'),
};
export const leadWorkerPortEnv = {
  LEAD_WORKER_METRICS_PORT: port(9102).describe('Port of the lead-worker /healthz, /readyz and /metrics server.'),
};

/** What every long-running app reads besides its own variables: where to bind, its stores, logging, shutdown. */
export const serviceEnv = { ...hostEnv, ...databaseEnv, ...redisEnv, ...logEnv, ...shutdownEnv };

/** Hosts whose traffic never leaves the machine. */
export const isLoopbackHost = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * Where the service's email goes, and from whom. Credentials in SMTP_URL are percent-encoded
 * (`smtp://user:p%40ss@host:587`); the URL is never logged or echoed whole.
 */
export const mailEnv = {
  SMTP_URL: z
    .string()
    .refine(
      (v) => /^smtps?:\/\//.test(v) && URL.canParse(v) && new URL(v).hostname !== '',
      'must be an smtp:// or smtps:// URL with a host',
    )
    .default('smtp://127.0.0.1:1025')
    .describe(
      'The SMTP server the notifier sends through: `smtp://[user:pass@]host[:port]` (STARTTLS when the server offers it, and required when credentials go to a host off this machine; port 587 by default) or `smtps://…` (TLS from the start; 465). `pnpm start` points it at its embedded mail catcher.',
    ),
  MAIL_FROM: z
    .string()
    .max(320)
    .refine((v) => {
      const address = /<([^<>]*)>\s*$/.exec(v)?.[1] ?? v;
      return !/[\r\n]/.test(v) && z.email().safeParse(address.trim()).success;
    }, 'must be an address, or `Name <address>`')
    .default('AI Visibility <notifications@visibility.localhost>')
    .describe('The From of every email the service sends: `address` or `Name <address>`.'),
};
