import { z } from 'zod';
import {
  alertWebhookEnv,
  answerCollectorPortEnv,
  consolePortEnv,
  crawlTokenSecretEnv,
  crawlWorkerPortEnv,
  databaseEnv,
  ingestGatewayPortEnv,
  isLoopbackHost,
  jobLockEnv,
  leadWorkerPortEnv,
  logEnv,
  mailEnv,
  nonNegativeInt,
  notifierPortEnv,
  positiveInt,
  previousWebhookSigningKeyEnv,
  queueShardsConsumedEnv,
  readApiPortEnv,
  readDatabaseEnv,
  redisDurabilityEnv,
  redisEnv,
  reportUnsubscribeKeyEnv,
  requireConsumedShardsExist,
  requireWholeOverlap,
  serviceEnv,
  webhookSecretRotationEnv,
  webhookSigningKeyEnv,
} from './env-fragments.ts';

// Every app's environment contract, in one place so the configuration table of docs/operators.md, the
// docker-compose check and the apps themselves read the same schemas.

export const ingestGatewayConfigSchema = z
  .object({
    ...ingestGatewayPortEnv,
    ...serviceEnv,
    ...crawlTokenSecretEnv,
    ...webhookSigningKeyEnv,
    CRAWL_MAX_BODY_BYTES: positiveInt(32 * 1024 * 1024).describe(
      'Largest crawl ingest body accepted on the wire (gzip or not); larger answers 413.',
    ),
    CRAWL_MAX_INFLATED_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .max(100 * 1024 * 1024, 'must be at most 104857600 (100 MiB)')
      .default(100 * 1024 * 1024)
      .describe('Largest crawl ingest body after gunzip (decompression bombs); at most 100 MiB.'),
    CRAWLER_RANGES_REFRESH_SECONDS: positiveInt(300).describe(
      'How often the gateway reloads the AI crawler IP ranges stored by `ops crawlers refresh`.',
    ),
    NAMED_BATCH_PENDING_SECONDS: positiveInt(15).describe(
      'How long a named crawl batch stays claimed after its gateway died mid-attempt, before a retry may take it over.',
    ),
    NAMED_BATCH_WAIT_MS: positiveInt(10_000).describe(
      'How long an attempt at a named batch that another attempt is reading waits for its answer before 503 batch_in_progress.',
    ),
    ...previousWebhookSigningKeyEnv,
    ...redisDurabilityEnv,
  })
  .superRefine(requireWholeOverlap);
export type IngestGatewayConfig = z.output<typeof ingestGatewayConfigSchema>;

export const readApiConfigSchema = z.object({
  ...readApiPortEnv,
  RATE_LIMIT_PER_MINUTE: positiveInt(100).describe(
    'Read API requests per minute per API key (a fixed one-minute window shared by every replica through Redis).',
  ),
  API_KEY_CACHE_TTL_MS: positiveInt(5000).describe(
    'How long a replica trusts a looked-up API key: a scope or plan change takes effect within it. A revocation takes effect at once on every replica (a version in Redis, read per request); within this only while Redis is away.',
  ),
  READ_CACHE_TTL_MS: nonNegativeInt(3000).describe(
    'How long a replica reuses a /v1 answer for the same properties and query (keys with the same scope share it); for as long again it is served while refreshed. 0 turns the cache off.',
  ),
  READ_CACHE_MAX_MB: positiveInt(64).describe('Most memory the /v1 answer cache holds per replica, in MiB.'),
  READ_API_CONTACT_URL: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), 'must be an http(s) URL')
        .optional(),
    )
    .describe("Where API users reach this deployment's operator: `info.contact.url` of /openapi.json. Unset: no URL."),
  READ_API_CONTACT_EMAIL: z
    .preprocess((v) => (v === '' ? undefined : v), z.email('must be an email address').optional())
    .describe("The operator's email for API users: `info.contact.email` of /openapi.json. Unset: no email."),
  READ_API_CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      for (const origin of origins) {
        // An origin is a scheme, a host and maybe a port, exactly as a browser sends it: no path, no '*'.
        const parsed = URL.canParse(origin) ? new URL(origin) : null;
        if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
          ctx.addIssue({
            code: 'custom',
            message: `'${origin}' is not an origin like https://app.example.com (scheme and host, no path, no '*')`,
          });
        }
      }
      return origins;
    })
    .describe(
      'Browser origins (comma-separated, e.g. `https://bi.example.com`) whose pages may call /v1 directly (CORS). Empty (the default): no CORS headers, so browsers refuse cross-origin reads; an API key is a secret, and a browser app should call through its own backend.',
    ),
  ...serviceEnv,
  ...readDatabaseEnv,
});
export type ReadApiConfig = z.output<typeof readApiConfigSchema>;

export const crawlWorkerConfigSchema = z
  .object({
    ...crawlWorkerPortEnv,
    CRAWL_WORKER_CONCURRENCY: positiveInt(4).describe('Crawl batch jobs this process handles at once.'),
    ...jobLockEnv,
    CRAWL_EVENT_RETENTION_HOURS: positiveInt(72).describe(
      "Raw crawl events are kept at least this long after receipt, then dropped a whole UTC day at a time (the day's partition) by the crawl worker's hourly maintenance and `ops db partitions`; daily counts are kept.",
    ),
    ...queueShardsConsumedEnv,
    ...serviceEnv,
  })
  .superRefine(requireConsumedShardsExist);
export type CrawlWorkerConfig = z.output<typeof crawlWorkerConfigSchema>;

export const leadWorkerConfigSchema = z
  .object({
    ...leadWorkerPortEnv,
    LEAD_WORKER_CONCURRENCY: positiveInt(4).describe('Lead jobs this process handles at once.'),
    ...jobLockEnv,
    ...queueShardsConsumedEnv,
    ...serviceEnv,
  })
  .superRefine(requireConsumedShardsExist);
export type LeadWorkerConfig = z.output<typeof leadWorkerConfigSchema>;

export const notifierConfigSchema = z.object({
  ...notifierPortEnv,
  ...mailEnv,
  EMAIL_CONCURRENCY: positiveInt(4).describe('Emails this process sends at once.'),
  MAIL_MAX_ATTEMPTS: positiveInt(20).describe(
    'Attempts at one email before it is marked failed while the SMTP server is down or defers it (4xx); a permanent rejection (5xx) fails it at once.',
  ),
  MAIL_RETRY_BASE_MS: positiveInt(30_000).describe(
    'Wait before the second attempt at an email; each later wait doubles, up to MAIL_RETRY_MAX_MS (20 attempts span about 14 hours by default).',
  ),
  MAIL_RETRY_MAX_MS: positiveInt(3_600_000).describe('Longest wait between two attempts at an email.'),
  MAIL_SEND_TIMEOUT_MS: positiveInt(30_000).describe(
    "How long one SMTP step (connect, greeting, each reply) may take before the attempt fails and is retried; a row's claim lasts four times this.",
  ),
  MAIL_SWEEP_INTERVAL_MS: positiveInt(15_000).describe(
    'How often the notifier looks for emails due whose job is missing (an enqueue lost after commit, a retry, a notifier that died mid-send) and queues them again.',
  ),
  WEEKLY_REPORT_INTERVAL_MS: positiveInt(300_000).describe(
    'How often the notifier looks for weekly reports due (Monday from 08:00 in each team’s time zone): a report waits at most this long past its hour.',
  ),
  ...reportUnsubscribeKeyEnv,
  WEBHOOK_CONCURRENCY: positiveInt(4).describe('Alert webhook deliveries this process posts at once.'),
  ...alertWebhookEnv,
  ALERT_EVALUATION_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000, 'must be at least 1000 (a second)')
    .max(3_600_000, 'must be at most 3600000 (an hour)')
    .default(300_000)
    .describe(
      "How often the notifier evaluates every property's alert rules (one replica per tick). A rule fires or resolves once its condition has been seen at two evaluations at least half this apart.",
    ),
  // Links in alert messages and the weekly report (the property's page, unsubscribe) point at the console.
  CONSOLE_PUBLIC_URL: publicUrl('http://localhost:3002').describe(
    'Public base URL of the console (set it as the console’s): the links in alert emails and webhooks, and in the weekly report (the property, one-click unsubscribe).',
  ),
  ...jobLockEnv,
  ...serviceEnv,
});
export type NotifierConfig = z.output<typeof notifierConfigSchema>;

/** One AI platform's API: its key (unset: the platform is skipped), model and base URL. */
function platformEnv<P extends string>(prefix: P, platform: string, model: string, baseUrl: string) {
  // Empty counts as unset, so compose's `${OPENAI_API_KEY:-}` leaves a platform off rather than failing.
  const apiKey = z
    .preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional())
    .describe(`API key for ${platform}. Unset or empty: ${platform} is not collected.`);
  const modelName = z.string().min(1).default(model).describe(`The ${platform} model asked.`);
  const url = z
    .string()
    .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), 'must be an http(s) URL')
    .default(baseUrl)
    .transform((v) => v.replace(/\/+$/, ''))
    .describe(`Base URL of the ${platform} API.`);
  // Unset (or empty) means no limit: the questions of a day bound the requests already (one per
  // active prompt, plus retries); a budget is the guard a team sets on what it pays for.
  const dailyRequests = z
    .preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional())
    .describe(
      `Requests sent to ${platform} per UTC day, shared by every collector replica (retries count). Once spent, the day's remaining questions are skipped (skipped_budget), not carried into tomorrow. Unset: no limit.`,
    );
  const concurrency = z
    .preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional())
    .describe(
      `Questions in flight to ${platform} at once across every collector replica. Unset: COLLECT_CONCURRENCY_PER_PLATFORM per replica.`,
    );
  return {
    [`${prefix}_API_KEY`]: apiKey,
    [`${prefix}_MODEL`]: modelName,
    [`${prefix}_BASE_URL`]: url,
    [`${prefix}_DAILY_REQUESTS`]: dailyRequests,
    [`${prefix}_CONCURRENCY`]: concurrency,
  } as { [K in `${P}_API_KEY`]: typeof apiKey } & { [K in `${P}_MODEL`]: typeof modelName } & {
    [K in `${P}_BASE_URL`]: typeof url;
  } & { [K in `${P}_DAILY_REQUESTS`]: typeof dailyRequests } & { [K in `${P}_CONCURRENCY`]: typeof concurrency };
}

export const answerCollectorConfigSchema = z.object({
  ...answerCollectorPortEnv,
  COLLECT_AT_UTC: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC)')
    .default('06:00')
    .describe('When, each UTC day, the prompts of paid properties are asked on every platform with a key.'),
  COLLECT_CONCURRENCY_PER_PLATFORM: positiveInt(2).describe(
    'Questions in flight per platform and process; each platform has its own queue, so one platform’s outage or rate limit never holds up another.',
  ),
  COLLECT_SPREAD_HOURS: z.coerce
    .number()
    .min(0)
    .max(24)
    .default(12)
    .describe(
      'The daily run spreads its questions over this many hours from COLLECT_AT_UTC (never past the end of the UTC day), each prompt at an hour of its own that stays the same from day to day; 0 asks them all at once. Collections started from ops or the console are asked at once.',
    ),
  ...platformEnv('OPENAI', 'ChatGPT (OpenAI Responses API with web search)', 'gpt-4.1', 'https://api.openai.com'),
  ...platformEnv('PERPLEXITY', 'Perplexity (Sonar)', 'sonar', 'https://api.perplexity.ai'),
  ...platformEnv(
    'ANTHROPIC',
    'Claude (Anthropic Messages API with web search)',
    // The newest Sonnet the SDK names. claude-sonnet-4-5, the default before, reaches end-of-life
    // on 2026-11-30 (the SDK's deprecation list): a test asks through the SDK with this default
    // and fails on its deprecation warning.
    'claude-sonnet-5-5',
    'https://api.anthropic.com',
  ),
  ...platformEnv(
    'GEMINI',
    'Gemini (Gemini API with Google Search grounding)',
    'gemini-2.5-flash',
    'https://generativelanguage.googleapis.com',
  ),
  ...serviceEnv,
});
export type AnswerCollectorConfig = z.output<typeof answerCollectorConfigSchema>;

/** An http(s) base URL, its trailing slashes dropped (a declaration: the notifier's schema, above, reads one too). */
function publicUrl(fallback: string) {
  return z
    .string()
    .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), 'must be an http(s) URL')
    .default(fallback)
    .transform((v) => v.replace(/\/+$/, ''));
}

const publicIngestUrlEnv = {
  PUBLIC_INGEST_URL: publicUrl('http://localhost:3001').describe(
    'Public base URL of the ingest gateway, used in the crawl ingest and lead webhook URLs ops and the console show.',
  ),
};

export const consoleConfigSchema = z.object({
  ...consolePortEnv,
  CONSOLE_PUBLIC_URL: publicUrl('http://localhost:3002').describe(
    'Public base URL of the console: its origin is the one cookie-authenticated writes must come from (CSRF check).',
  ),
  CONSOLE_TRUST_PROXY: z
    .string()
    .default('false')
    .describe(
      "Express 'trust proxy': which proxies' X-Forwarded-For/-Proto to believe (client address for the sign-in limits, TLS for Secure `__Host-` cookies). `false` (the default) believes none, so a caller cannot pick its own address; behind a reverse proxy set its address (`loopback` when it runs on the same host, or `10.0.0.2`) or hop count.",
    ),
  SESSION_TTL_HOURS: positiveInt(24 * 14).describe('How long a console session lasts from sign-in.'),
  SIGN_IN_FREE_FAILURES: positiveInt(5).describe(
    'Failed sign-ins per email and client address (or known device) before each further one doubles the wait: 1 s, 2 s, 4 s … up to SIGN_IN_MAX_BACKOFF_SECONDS.',
  ),
  SIGN_IN_MAX_BACKOFF_SECONDS: positiveInt(900).describe(
    'The longest wait the doubling reaches for one email and address; their failures are forgotten a day after the last.',
  ),
  SIGN_IN_FAILURES_PER_EMAIL: positiveInt(100).describe(
    'Failed sign-ins per account from all addresses per window before only its known devices (browsers that signed in to it before) may try; a password reset lifts it.',
  ),
  SIGN_IN_FAILURES_PER_CLIENT: positiveInt(50).describe(
    'Failed sign-ins (and sign-ups answered EMAIL_TAKEN) per client address per window before that address answers 429 (shared through Redis).',
  ),
  SIGN_IN_WINDOW_SECONDS: positiveInt(900).describe(
    'The window the per-address and per-account failure limits count over.',
  ),
  KNOWN_DEVICE_DAYS: positiveInt(90).describe(
    'How long a browser stays a known device of an account after its last successful sign-in (the `vt_device` cookie).',
  ),
  MAIL_CATCHER_URL: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .refine(
          (v) => /^http:\/\//.test(v) && URL.canParse(v) && isLoopbackHost(new URL(v).hostname),
          'must be an http:// URL on this machine (127.0.0.1, localhost or [::1])',
        )
        .transform((v) => v.replace(/\/+$/, ''))
        .optional(),
    )
    .describe(
      'Development only: the embedded mail catcher `pnpm start` runs, whose caught copy of each email the console then shows. Unset (production): that view does not exist.',
    ),
  ...publicIngestUrlEnv,
  ...crawlTokenSecretEnv,
  ...webhookSigningKeyEnv,
  ...webhookSecretRotationEnv,
  ...alertWebhookEnv,
  ...reportUnsubscribeKeyEnv,
  ...serviceEnv,
  ...readDatabaseEnv,
});
export type ConsoleConfig = z.output<typeof consoleConfigSchema>;

export const opsConfigSchema = z.object({
  ...databaseEnv,
  ...redisEnv,
  ...logEnv,
  ...crawlTokenSecretEnv,
  ...webhookSigningKeyEnv,
  // `ops webhook rotate-secret` is allowed only where the console's rotation is.
  WEBHOOK_SECRET_ROTATION: webhookSecretRotationEnv.WEBHOOK_SECRET_ROTATION,
  ...publicIngestUrlEnv,
  PUBLIC_API_URL: publicUrl('http://localhost:3000').describe(
    'Public base URL of the read API, used in what ops prints.',
  ),
  CRAWLER_RANGES_DIR: z
    .string()
    .optional()
    .describe('Directory of <operator>.json IP-range files `ops crawlers refresh` reads instead of fetching.'),
  // `ops db partitions` drops expired days as the crawl worker does, so it reads the same setting.
  CRAWL_EVENT_RETENTION_HOURS: crawlWorkerConfigSchema.shape.CRAWL_EVENT_RETENTION_HOURS,
});
export type OpsConfig = z.output<typeof opsConfigSchema>;

/** `pnpm start` also needs every app's port, to wait for them and print their URLs. */
export const devStartConfigSchema = opsConfigSchema.extend({
  ...readApiPortEnv,
  ...consolePortEnv,
  ...answerCollectorPortEnv,
  COLLECT_AT_UTC: answerCollectorConfigSchema.shape.COLLECT_AT_UTC,
  ...ingestGatewayPortEnv,
  ...crawlWorkerPortEnv,
  ...leadWorkerPortEnv,
  ...notifierPortEnv,
  SMTP_URL: mailEnv.SMTP_URL.removeDefault()
    .optional()
    .describe('Unset: `pnpm start` runs its embedded mail catcher and the notifier sends to it.'),
  MAIL_CATCHER_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(0)
    .describe(
      "SMTP port of `pnpm start`'s embedded mail catcher, on 127.0.0.1 (0: the system picks one; the banner prints it).",
    ),
});
export type DevStartConfig = z.output<typeof devStartConfigSchema>;

/** The apps and their schemas, in the order docs/operators.md lists them. */
export const APP_CONFIG_SCHEMAS = {
  'ingest-gateway': ingestGatewayConfigSchema,
  'crawl-worker': crawlWorkerConfigSchema,
  'lead-worker': leadWorkerConfigSchema,
  'read-api': readApiConfigSchema,
  console: consoleConfigSchema,
  'answer-collector': answerCollectorConfigSchema,
  notifier: notifierConfigSchema,
  ops: opsConfigSchema,
} as const;
