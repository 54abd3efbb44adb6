import { createConsoleHarness } from '@vt/console/testing';
import { startWebhookReceiver } from '@vt/outgoing-webhooks/testing';
import { isolatedQueuePrefix, type RunningApp, scratchDatabase, startApp } from '@vt/test-support';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from './testing/wait-until.ts';

// The notifier process (the compiled app, as production runs it) delivers alert webhooks: a test
// event recorded by the console's "send test" reaches a real receiver on loopback, signed with the
// secret the console shows. The deployment allows private targets, as one whose receiver is on its
// own network does; a scratch database and queue prefix of its own keep its sweep off other files'.

const scratch = await scratchDatabase('notifier_webhooks');
const prefix = isolatedQueuePrefix();
const consoleApp = createConsoleHarness({
  db: scratch.db,
  prefix,
  alertWebhooks: { policy: { allowPrivateTargets: true } },
});
const receiver = await startWebhookReceiver();
let notifier: RunningApp;

beforeAll(async () => {
  notifier = await startApp('apps/notifier/src/main.ts', 'NOTIFIER_PORT', {
    DATABASE_URL: scratch.url,
    QUEUE_PREFIX: prefix,
    ALERT_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
});

afterAll(async () => {
  notifier?.child.kill('SIGTERM');
  const code = await notifier?.exited;
  await consoleApp.webhookDeliveryQueue.obliterate({ force: true });
  await consoleApp.close();
  await receiver.close();
  await scratch.drop();
  expect(code).toBe(0);
});

describe('the notifier delivers alert webhooks', () => {
  it('the console’s test event reaches a loopback receiver, signed, and the log shows it delivered', async () => {
    const owner = await consoleApp.signUp('owner');
    const { teamId } = await consoleApp.teamOf(owner);
    const as = consoleApp.as(owner.token, teamId);
    const property = await as.post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
    const base = `/api/properties/${property.body.property.id}/alert-webhooks`;
    const created = await as.post(base, { format: 'standard', url: receiver.url });
    expect(created.status).toBe(201);
    const webhook = created.body.webhook;

    const sent = await as.post(`${base}/${webhook.id}/test`);
    expect(sent.status).toBe(200);
    const [request] = await receiver.waitFor(1);
    expect(request?.method).toBe('POST');
    expect(request?.headers['webhook-id']).toBe(sent.body.delivery.eventId);
    // Verified as a receiver would, with the secret the console showed: the notifier signs with
    // the same deployment key (ALERT_WEBHOOK_SIGNING_KEY from the test environment).
    const event = new Webhook(webhook.secret).verify(request?.body ?? '', {
      'webhook-id': String(request?.headers['webhook-id']),
      'webhook-timestamp': String(request?.headers['webhook-timestamp']),
      'webhook-signature': String(request?.headers['webhook-signature']),
    }) as { type: string };
    expect(event.type).toBe('alert.test');

    const log = await waitUntil('the log shows it delivered', async () => {
      const res = await as.get(`${base}/${webhook.id}/log`);
      return res.body.attempts?.length ? res.body : undefined;
    });
    expect(log.attempts).toMatchObject([{ eventType: 'alert.test', outcome: 'delivered', statusCode: 200 }]);
    expect(log.pending).toEqual([]);
  });
});
