import { inject } from 'vitest';

// The environment every app under test and every spawned process sees: this run's database and
// Redis prefix, and fixed test secrets.
export const testEnv = {
  DATABASE_URL: inject('databaseUrl'),
  REDIS_URL: inject('redisUrl'),
  QUEUE_PREFIX: inject('queuePrefix'),
  CRAWL_TOKEN_SECRET: 'test-crawl-token-secret-0123456789abcdef',
  WEBHOOK_SIGNING_KEY: 'test-webhook-signing-key-0123456789abcdef',
  ALERT_WEBHOOK_SIGNING_KEY: 'test-alert-webhook-signing-key-0123456789',
  REPORT_UNSUBSCRIBE_KEY: 'test-report-unsubscribe-key-0123456789abcd',
  LOG_LEVEL: 'silent',
} as const;

Object.assign(process.env, testEnv);

/**
 * A queue prefix of this run that no other test file shares, for a file that must see exactly the
 * jobs it enqueued (another file's worker on the run prefix would consume them).
 */
export function isolatedQueuePrefix(): string {
  return `${testEnv.QUEUE_PREFIX.slice(0, -1)}-${Math.random().toString(36).slice(2, 8)}}`;
}

/** A directory of this run's own, removed at its end: for what the run's test files build once and share. */
export function runScratchDir(): string {
  return inject('scratchDir');
}
