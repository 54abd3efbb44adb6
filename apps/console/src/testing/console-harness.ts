import { randomBytes } from 'node:crypto';
import { addMember } from '@vt/accounts';
import type { PrismaClient } from '@vt/db';
import { createLogger } from '@vt/logger';
import { wakeEmailSender } from '@vt/mail';
import type { TargetPolicy } from '@vt/outgoing-webhooks';
import type { ConnectionSettings } from '@vt/properties';
import { answerScheduleJob, createQueue, emailJob, rejudgePropertyJob, webhookDeliveryJob } from '@vt/queue';
import { announceApiKeyRevocation, closeRedisConnection, createProducerConnection } from '@vt/redis';
import { createMetricsRegistry } from '@vt/service-runtime';
import { isolatedQueuePrefix, testDb, testEnv } from '@vt/test-support';
import request from 'supertest';
import { buildConsoleApp, type ConsoleAppDeps } from '../app.ts';
import { createKnownDevices } from '../auth/known-devices.ts';
import { createSignInLimiter, type SignInLimits } from '../auth/sign-in-limiter.ts';
import { createCollectNow } from '../collection/collect-now.ts';
import { createInvitationLimiter, type InvitationLimits } from '../invitations/invitation-limiter.ts';
import { caughtMailReader } from '../mail/caught-mail.ts';
import { consoleOperations } from '../operations/index.ts';
import { queueAlertWebhookDeliveries, requestRejudge } from '../start.ts';

/** The console's public URL in tests: cookie writes must come from its origin. */
export const CONSOLE_ORIGIN = 'https://console.example.test';
export const TEST_PASSWORD = 'correct horse battery';

export interface ConsoleHarnessOptions {
  /** Express 'trust proxy'; `loopback` by default, so a test can name a client by X-Forwarded-For. */
  trustProxy?: string;
  /** Sign-in failure limits; high unless a test is about them. */
  signInLimits?: Partial<SignInLimits>;
  sessionTtlMs?: number;
  /** The console's clock (session expiry, default day ranges). */
  now?: Date;
  /** Deployment secrets and URLs the setup dialogs show; the test secrets by default. */
  connection?: Partial<ConnectionSettings>;
  /** Redis prefix of the sign-in limiter; share one to build a second replica. */
  prefix?: string;
  /** Another database than the run's (the demo views' own); the caller disconnects it. */
  db?: PrismaClient;
  /** A built web UI to serve (index.html and assets/); none by default. */
  webRoot?: string;
  /** Invitation send limits; the deployment's unless a test is about them. */
  invitationLimits?: Partial<InvitationLimits>;
  /** The development mail catcher's HTTP API (MAIL_CATCHER_URL); none by default, as in production. */
  mailCatcherUrl?: string;
  /**
   * Alert webhooks: the signing key (the test key by default; null for none) and the SSRF policy
   * (private targets refused, the deployment default, unless a test allows them).
   */
  alertWebhooks?: { signingKey?: string | null; policy?: TargetPolicy };
  /** The weekly report's unsubscribe key: the test key by default; null for none. */
  reportUnsubscribeKey?: string | null;
}

export interface SignedUp {
  user: { id: string; email: string; name: string };
  email: string;
  password: string;
  token: string;
  /** The `vt_session=…` cookie pair the browser would send. */
  cookie: string;
}

/**
 * The real console app (supertest drives it) over the real Postgres, with its sign-in limiter on
 * a Redis prefix of its own. `as(token)` is a client that sends `Authorization: Bearer`; `signUp`
 * build people through the API itself; `teamOf` makes a team through the API and adds its people
 * as the operator does.
 */
export function createConsoleHarness(options: ConsoleHarnessOptions = {}) {
  const db = options.db ?? testDb();
  const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
  const prefix = options.prefix ?? isolatedQueuePrefix();
  // The queue re-judging jobs go to, on this harness's own prefix (no collector consumes it here).
  const rejudgeQueue = createQueue(rejudgePropertyJob, redis, prefix);
  // The collector's schedule queue: a collection started here is picked up by a collector started
  // on the same prefix (none by default).
  const scheduleQueue = createQueue(answerScheduleJob, redis, prefix);
  // The notifier's email queue: a notifier started on the same prefix sends what the console queues.
  const emailQueue = createQueue(emailJob, redis, prefix);
  // Alert webhook deliveries: delivered by a worker a test starts on the same prefix (none by default).
  const webhookDeliveryQueue = createQueue(webhookDeliveryJob, redis, prefix);
  const logger = createLogger({ name: 'console', level: 'silent' });
  let now = options.now;
  const clock = () => now ?? new Date();
  const appDeps: ConsoleAppDeps = {
    db,
    logger,
    registry: createMetricsRegistry('console'),
    readinessChecks: [],
    isClosing: () => false,
    now: clock,
    publicOrigin: CONSOLE_ORIGIN,
    // Tests stand for many clients by sending X-Forwarded-For from loopback; the deployment's
    // default believes no proxy (CONSOLE_TRUST_PROXY=false).
    trustProxy: options.trustProxy ?? 'loopback',
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    operations: consoleOperations({
      db,
      now: clock,
      sessionTtlMs: options.sessionTtlMs ?? 3_600_000,
      requestRejudge: (propertyId) => requestRejudge(rejudgeQueue, propertyId),
      collectNow: createCollectNow({ redis, keyPrefix: prefix, queue: scheduleQueue, now: clock }),
      announceKeyRevocation: () => announceApiKeyRevocation(redis, prefix),
      wakeEmailSender: (emailId) => wakeEmailSender(emailQueue, emailId),
      invitations: {
        limiter: createInvitationLimiter({ redis, keyPrefix: prefix, ...options.invitationLimits }),
        consolePublicUrl: CONSOLE_ORIGIN,
      },
      ...(options.mailCatcherUrl ? { caughtMail: caughtMailReader(options.mailCatcherUrl) } : {}),
      alertWebhooks: {
        signingKey:
          options.alertWebhooks?.signingKey === null
            ? undefined
            : (options.alertWebhooks?.signingKey ?? testEnv.ALERT_WEBHOOK_SIGNING_KEY),
        policy: options.alertWebhooks?.policy ?? { allowPrivateTargets: false },
        enqueueDeliveries: (ids) => queueAlertWebhookDeliveries(webhookDeliveryQueue, ids, logger),
      },
      weeklyReport: {
        consoleUrl: CONSOLE_ORIGIN,
        ...(options.reportUnsubscribeKey === null
          ? {}
          : { unsubscribeKey: options.reportUnsubscribeKey ?? testEnv.REPORT_UNSUBSCRIBE_KEY }),
      },
      connection: {
        publicIngestUrl: 'https://ingest.example.test',
        crawlTokenSecret: testEnv.CRAWL_TOKEN_SECRET,
        webhookSigningKey: testEnv.WEBHOOK_SIGNING_KEY,
        ...options.connection,
      },
      signInLimiter: createSignInLimiter({
        redis,
        keyPrefix: prefix,
        freeFailures: 1000,
        maxBackoffSeconds: 900,
        failuresPerEmail: 1000,
        failuresPerClient: 1000,
        windowSeconds: 900,
        ...options.signInLimits,
      }),
      knownDevices: createKnownDevices({ redis, keyPrefix: prefix, ttlSeconds: 90 * 86_400 }),
    }),
  };
  const app = buildConsoleApp(appDeps);

  /** A client acting with a session token as `Authorization: Bearer`. */
  function as(token: string, teamId?: string) {
    const withAuth = (test: request.Test) => {
      test.set('Authorization', `Bearer ${token}`);
      return teamId ? test.set('X-Team-Id', teamId) : test;
    };
    return {
      get: (path: string) => withAuth(request(app).get(path)),
      post: (path: string, body?: object) => withAuth(request(app).post(path)).send(body),
      put: (path: string, body?: object) => withAuth(request(app).put(path)).send(body),
      patch: (path: string, body?: object) => withAuth(request(app).patch(path)).send(body),
      delete: (path: string) => withAuth(request(app).delete(path)),
    };
  }

  /** Signs up a new person with a unique email (label@…) and the test password. */
  async function signUp(label = 'person'): Promise<SignedUp> {
    const email = `${label}-${randomBytes(4).toString('hex')}@example.test`;
    const res = await request(app).post('/api/auth/sign-up').send({ email, password: TEST_PASSWORD, name: label });
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
    return {
      user: res.body.user,
      email,
      password: TEST_PASSWORD,
      token: res.body.token,
      cookie: `vt_session=${res.body.token}`,
    };
  }

  /**
   * A new team owned by `owner`, with `others` added at their roles. Returns its id and slug.
   */
  async function teamOf(owner: SignedUp, others: { person: SignedUp; role: 'owner' | 'admin' | 'member' }[] = []) {
    const slug = `team-${randomBytes(5).toString('hex')}`;
    const created = await as(owner.token).post('/api/teams', { name: `Team ${slug}`, slug });
    if (created.status !== 201)
      throw new Error(`team create failed: ${created.status} ${JSON.stringify(created.body)}`);
    const teamId: string = created.body.team.id;
    // The console adds people only by an invitation they accept; the operator's direct add
    // (what `ops team add-member` runs), acting as the owner, sets a team up at once.
    for (const { person, role } of others) {
      await addMember(db, { teamId, actor: { userId: owner.user.id, role: 'owner' }, email: person.email, role });
    }
    return { teamId, slug };
  }

  return {
    app,
    /** What the app was built with: another app over the same deps (the web UI test adds the UI). */
    appDeps,
    db,
    redis,
    prefix,
    rejudgeQueue,
    scheduleQueue,
    emailQueue,
    webhookDeliveryQueue,
    as,
    signUp,
    teamOf,
    setNow(next: Date) {
      now = next;
    },
    close: async () => {
      await rejudgeQueue.close();
      await scheduleQueue.close();
      await emailQueue.close();
      await webhookDeliveryQueue.close();
      await closeRedisConnection(redis);
    },
  };
}

export type ConsoleHarness = ReturnType<typeof createConsoleHarness>;
