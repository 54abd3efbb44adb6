import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertNotificationInput } from '@vt/contracts';
import type { WebhookDestination } from '@vt/db';
import { createQueue, RetryLaterError, WEBHOOK_DELIVERY_MAX_ATTEMPTS, webhookDeliveryJob } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliverWebhook } from './deliver.ts';
import { alertWebhookSecret } from './destinations.ts';
import { enqueueWebhookDeliveries, recordWebhookNotification } from './notifications.ts';
import { sweepWebhookDeliveries } from './sweep.ts';
import type { ResolveHost, TargetPolicy } from './target-guard.ts';
import {
  FAST_RETRY_SCHEDULE,
  startWebhookDeliveryWorker,
  startWebhookReceiver,
  type WebhookReceiver,
} from './testing/index.ts';

// Deliveries end to end: real receivers on 127.0.0.1, the processor in the real worker shell on
// BullMQ and Redis, Postgres holding the deliveries and their log. The worker runs with private
// targets allowed (the receivers are on loopback); the default setting is exercised on the
// processor directly, where it must refuse those same receivers.

const db = testDb();
const prefix = isolatedQueuePrefix();
const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
const queue = createQueue(webhookDeliveryJob, redis, prefix);
const ALLOW: TargetPolicy = { allowPrivateTargets: true };
const DEFAULT: TargetPolicy = { allowPrivateTargets: false };
const KEY = testEnv.ALERT_WEBHOOK_SIGNING_KEY;
let worker: Awaited<ReturnType<typeof startWebhookDeliveryWorker>>;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  worker = await startWebhookDeliveryWorker({ prefix, policy: ALLOW });
});
afterAll(async () => {
  await worker.close();
  await Promise.all(receivers.map((r) => r.close()));
  await queue.obliterate({ force: true });
  await queue.close();
  await closeRedisConnection(redis);
});

async function receiver(...script: Parameters<typeof startWebhookReceiver>) {
  const started = await startWebhookReceiver(...script);
  receivers.push(started);
  return started;
}

async function property() {
  const team = await db.team.create({ data: { name: 'Hooks', slug: uniqueSlug('hooks') } });
  return db.property.create({ data: { teamId: team.id, name: 'Shop <Main> & Co', domain: 'shop.example' } });
}

async function destination(url: string, format: 'slack' | 'standard' = 'slack') {
  const p = await property();
  const d = await db.webhookDestination.create({ data: { propertyId: p.id, format, url } });
  return { property: p, destination: d };
}

function notification(p: { id: string; name: string; domain: string }, extra: Partial<AlertNotificationInput> = {}) {
  return {
    eventId: `evt_${randomUUID()}`,
    type: 'alert.firing' as const,
    occurredAt: '2026-11-26T10:00:00.000Z',
    property: { id: p.id, name: p.name, domain: p.domain },
    text: 'AI crawler hits fell 42% week over week <below 30%> & more',
    data: { rule: 'crawler_hits_drop', thresholdPercent: 30, changePercent: -42 },
    ...extra,
  };
}

/** Records the notification for the destination's property and queues its deliveries, as an alert would. */
async function send(p: { id: string; name: string; domain: string }, extra: Partial<AlertNotificationInput> = {}) {
  const n = notification(p, extra);
  const ids = await db.$transaction((tx) => recordWebhookNotification(tx, p.id, n));
  await enqueueWebhookDeliveries(queue, ids);
  return { notification: n, ids };
}

const logOf = (d: WebhookDestination) =>
  db.webhookDeliveryAttempt.findMany({ where: { destinationId: d.id }, orderBy: { attempt: 'asc' } });

async function settled(deliveryId: string) {
  return vi.waitFor(
    async () => {
      const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      expect(delivery.status).not.toBe('pending');
      return delivery;
    },
    { timeout: 10_000, interval: 25 },
  );
}

describe('a Slack destination', () => {
  it('receives {"text": …} (Slack markup escaped), and the log shows the 200', async () => {
    const r = await receiver();
    const { property: p, destination: d } = await destination(r.url, 'slack');
    const { ids } = await send(p);
    const [request] = await r.waitFor(1);
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('ai-visibility-alerts/1');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      text: 'AI crawler hits fell 42% week over week &lt;below 30%&gt; &amp; more',
    });
    expect((await settled(ids[0]!)).status).toBe('delivered');
    const log = await logOf(d);
    expect(log.map((a) => [a.attempt, a.outcome, a.statusCode, a.errorClass, a.responseSnippet])).toEqual([
      [1, 'delivered', 200, null, 'ok'],
    ]);
  });
});

describe('a standard destination', () => {
  it('receives an event whose signature the standardwebhooks library verifies with the secret the console shows', async () => {
    const r = await receiver();
    const { property: p, destination: d } = await destination(r.url, 'standard');
    const { notification: n } = await send(p);
    const [request] = await r.waitFor(1);
    const headers = request!.headers as Record<string, string>;
    const shown = alertWebhookSecret(d, KEY)!;
    expect(shown).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(shown).verify(request!.body, headers)).toEqual({
      type: 'alert.firing',
      timestamp: n.occurredAt,
      data: { property: n.property, text: n.text, details: n.data },
    });
    expect(headers['webhook-id']).toBe(n.eventId);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // The same signature computed by hand, as the specification defines it.
    const key = Buffer.from(shown.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`${n.eventId}.${headers['webhook-timestamp']}.${request!.body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    // Another destination's secret does not verify it.
    const other = alertWebhookSecret({ ...d, id: randomUUID() }, KEY)!;
    expect(() => new Webhook(other).verify(request!.body, headers)).toThrow();
  });

  it('after a rotation, signs with the new secret only', async () => {
    const r = await receiver();
    const { property: p, destination: d } = await destination(r.url, 'standard');
    const before = alertWebhookSecret(d, KEY)!;
    const rotated = await db.webhookDestination.update({
      where: { id: d.id },
      data: { secretVersion: { increment: 1 } },
    });
    await send(p);
    const [request] = await r.waitFor(1);
    const headers = request!.headers as Record<string, string>;
    expect(() => new Webhook(alertWebhookSecret(rotated, KEY)!).verify(request!.body, headers)).not.toThrow();
    expect(() => new Webhook(before).verify(request!.body, headers)).toThrow();
  });
});

describe('retries', () => {
  it('a receiver answering 500 then 200 gets the event twice under one webhook-id; the log shows both attempts', async () => {
    const r = await receiver([{ status: 500, body: 'database down' }, { status: 200 }]);
    const { property: p, destination: d } = await destination(r.url, 'standard');
    const { ids, notification: n } = await send(p);
    const requests = await r.waitFor(2);
    expect(requests.map((q) => q.headers['webhook-id'])).toEqual([n.eventId, n.eventId]);
    expect((await settled(ids[0]!)).attempts).toBe(2);
    const log = await logOf(d);
    expect(log.map((a) => [a.attempt, a.outcome, a.statusCode, a.responseSnippet])).toEqual([
      [1, 'retrying', 500, 'database down'],
      [2, 'delivered', 200, 'ok'],
    ]);
    expect(log[0]!.retryAt!.getTime()).toBeGreaterThan(log[0]!.attemptedAt.getTime());
    expect(log[1]!.retryAt).toBeNull();
  });

  it.each([410, 400, 404])('a %i stops the retries: one request, the delivery failed', async (status) => {
    const r = await receiver([{ status }]);
    const { property: p, destination: d } = await destination(r.url);
    const { ids } = await send(p);
    const delivery = await settled(ids[0]!);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastError: `HTTP ${status}` });
    // Past the first retry's delay: nothing more came.
    await new Promise((resolve) => setTimeout(resolve, FAST_RETRY_SCHEDULE.firstDelayMs * 4));
    expect(r.received).toHaveLength(1);
    expect((await logOf(d)).map((a) => [a.outcome, a.statusCode])).toEqual([['failed', status]]);
  });

  it('a 429 with Retry-After is tried again no sooner than it asks', async () => {
    // 2 s: longer than BullMQ's fallback backoff (1 s) and the fast schedule (100 ms), so only the
    // delay the processor handed BullMQ explains the wait.
    const r = await receiver([{ status: 429, headers: { 'retry-after': '2' } }, { status: 204 }]);
    const { property: p, destination: d } = await destination(r.url);
    const { ids } = await send(p);
    await r.waitFor(2);
    await settled(ids[0]!);
    const [first, second] = await logOf(d);
    expect(second!.attemptedAt.getTime() - first!.attemptedAt.getTime()).toBeGreaterThanOrEqual(1950);
    expect(first!.retryAt!.getTime() - first!.attemptedAt.getTime()).toBeGreaterThanOrEqual(1950);
    expect(second!.outcome).toBe('delivered');
  });

  it('gives up after the last attempt, and on the job’s last attempt whatever the count', async () => {
    const r = await receiver([{ status: 503 }]);
    const { property: p, destination: d } = await destination(r.url);
    const [id] = await recordWebhookNotification(db, p.id, notification(p));
    const deps = { db, signingKey: KEY, policy: ALLOW, schedule: FAST_RETRY_SCHEDULE };
    for (let attempt = 1; attempt < WEBHOOK_DELIVERY_MAX_ATTEMPTS; attempt++) {
      await expect(deliverWebhook(deps, { deliveryId: id! })).rejects.toBeInstanceOf(RetryLaterError);
    }
    expect(await deliverWebhook(deps, { deliveryId: id! })).toEqual({ applied: false, reason: 'gave_up' });
    expect(r.received).toHaveLength(WEBHOOK_DELIVERY_MAX_ATTEMPTS);
    expect((await logOf(d)).at(-1)).toMatchObject({ attempt: WEBHOOK_DELIVERY_MAX_ATTEMPTS, outcome: 'failed' });

    const [other] = await recordWebhookNotification(db, p.id, notification(p));
    expect(await deliverWebhook(deps, { deliveryId: other! }, { made: 7, of: 8 })).toEqual({
      applied: false,
      reason: 'gave_up',
    });
  });

  it('a receiver that does not answer in time is a timeout, tried again', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const { property: p, destination: d } = await destination(`http://127.0.0.1:${port}/hook`);
      const [id] = await recordWebhookNotification(db, p.id, notification(p));
      const deps = { db, signingKey: KEY, policy: ALLOW, schedule: FAST_RETRY_SCHEDULE, timeoutMs: 300 };
      await expect(deliverWebhook(deps, { deliveryId: id! })).rejects.toBeInstanceOf(RetryLaterError);
      expect(await logOf(d)).toMatchObject([{ errorClass: 'timeout', statusCode: null, outcome: 'retrying' }]);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('exactly once', () => {
  it('a job replayed after success posts nothing, and a replayed notification records nothing', async () => {
    const r = await receiver();
    const { property: p } = await destination(r.url);
    const { ids, notification: n } = await send(p);
    await settled(ids[0]!);
    await r.waitFor(1);
    // The job again, as BullMQ may run it: once more through the queue, once directly.
    await queue.remove(ids[0]!);
    await enqueueWebhookDeliveries(queue, ids);
    await vi.waitFor(async () => expect(await queue.getJobState(ids[0]!)).toBe('completed'), { timeout: 10_000 });
    expect(await deliverWebhook({ db, signingKey: KEY, policy: ALLOW }, { deliveryId: ids[0]! })).toEqual({
      applied: false,
      reason: 'done_already',
    });
    expect(await recordWebhookNotification(db, p.id, n)).toEqual([]);
    expect(r.received).toHaveLength(1);
    expect(await db.webhookDelivery.count({ where: { eventId: n.eventId } })).toBe(1);
  });

  it('nothing is lost when the job never reached Redis: the sweep queues the due delivery', async () => {
    const r = await receiver();
    const { property: p } = await destination(r.url);
    const [id] = await recordWebhookNotification(db, p.id, notification(p)); // and no job
    const inTwoMinutes = new Date(Date.now() + 120_000);
    const swept = await sweepWebhookDeliveries(db, queue, inTwoMinutes);
    expect(swept.requeued).toBeGreaterThanOrEqual(1);
    await r.waitFor(1);
    expect((await settled(id!)).status).toBe('delivered');
    expect((await sweepWebhookDeliveries(db, queue, inTwoMinutes)).requeued).toBe(0);
  });

  it('a switched-off destination gets nothing: no delivery recorded, and a pending one is closed unsent', async () => {
    const r = await receiver();
    const { property: p, destination: d } = await destination(r.url);
    const [pending] = await recordWebhookNotification(db, p.id, notification(p));
    await db.webhookDestination.update({ where: { id: d.id }, data: { disabledAt: new Date() } });
    expect(await recordWebhookNotification(db, p.id, notification(p))).toEqual([]);
    expect(await deliverWebhook({ db, signingKey: KEY, policy: ALLOW }, { deliveryId: pending! })).toEqual({
      applied: false,
      reason: 'disabled',
    });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: pending! } })).toMatchObject({ status: 'failed' });
    expect(r.received).toHaveLength(0);
  });
});

describe('the SSRF guard at delivery', () => {
  it('does not follow a redirect, even to another allowed receiver', async () => {
    const target = await receiver();
    const redirecting = await receiver([{ status: 307, headers: { location: target.url } }]);
    const { property: p, destination: d } = await destination(redirecting.url);
    const { ids } = await send(p);
    expect(await settled(ids[0]!)).toMatchObject({ status: 'failed', lastError: 'HTTP 307' });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    expect((await logOf(d)).map((a) => [a.outcome, a.statusCode])).toEqual([['failed', 307]]);
  });

  it('with the default setting, refuses a loopback receiver stored when it was allowed, and sends it nothing', async () => {
    const r = await receiver();
    const { property: p, destination: d } = await destination(r.url);
    const [id] = await recordWebhookNotification(db, p.id, notification(p));
    expect(await deliverWebhook({ db, signingKey: KEY, policy: DEFAULT }, { deliveryId: id! })).toEqual({
      applied: false,
      reason: 'gave_up',
    });
    expect(await logOf(d)).toMatchObject([{ errorClass: 'target_refused', outcome: 'failed', statusCode: null }]);
    expect(r.received).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback at delivery (rebinding), and connects to the checked address otherwise', async () => {
    const r = await receiver();
    let answer = '93.184.216.34';
    const resolveHost: ResolveHost = async () => [{ address: answer, family: 4 }];
    const rebinding = await destination(`https://rebind.example.test:${r.port}/hook`);
    const [refused] = await recordWebhookNotification(db, rebinding.property.id, notification(rebinding.property));
    answer = '127.0.0.1';
    await deliverWebhook({ db, signingKey: KEY, policy: { ...DEFAULT, resolveHost } }, { deliveryId: refused! });
    expect(await logOf(rebinding.destination)).toMatchObject([{ errorClass: 'target_refused', outcome: 'failed' }]);
    expect(r.received).toHaveLength(0);

    // With private targets allowed, the same name reaches the receiver at the address the lookup
    // checked: no DNS server knows rebind.example.test, so nothing else could have.
    const allowed = await destination(`http://rebind.example.test:${r.port}/hook`);
    const [delivered] = await recordWebhookNotification(db, allowed.property.id, notification(allowed.property));
    expect(
      await deliverWebhook({ db, signingKey: KEY, policy: { ...ALLOW, resolveHost } }, { deliveryId: delivered! }),
    ).toEqual({
      applied: true,
    });
    expect(r.received.map((q) => q.headers.host)).toEqual([`rebind.example.test:${r.port}`]);
  });
});
