import { randomUUID } from 'node:crypto';
import { deriveAlertWebhookSecret } from '@vt/credentials';
import type { ResolveHost } from '@vt/outgoing-webhooks';
import { startWebhookDeliveryWorker, startWebhookReceiver } from '@vt/outgoing-webhooks/testing';
import { testEnv } from '@vt/test-support';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ConsoleHarness, createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// A property's alert webhooks through the console: owners and admins add, change, rotate, test and
// remove them, members read them without URLs or secrets; every URL passes the SSRF guard (the
// deployment default: https, public addresses only) with a 400 saying why; and a test event sent
// here reaches a real receiver through the real delivery worker, signed with the secret shown.
// Names resolve through a table standing in for DNS: no test resolves an outside name.

const resolveHost: ResolveHost = async (hostname) => {
  const table: Record<string, string> = {
    'hooks.example.test': '93.184.216.34',
    localhost: '127.0.0.1',
    'intranet.example.test': '10.1.2.3',
    'metadata.example.test': '169.254.169.254',
  };
  const address = table[hostname];
  if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

const h = createConsoleHarness({ alertWebhooks: { policy: { allowPrivateTargets: false, resolveHost } } });
/** A deployment that allows private targets, whose loopback receivers a real worker delivers to. */
const lan = createConsoleHarness({ alertWebhooks: { policy: { allowPrivateTargets: true } } });
/** A deployment without ALERT_WEBHOOK_SIGNING_KEY. */
const unsigned = createConsoleHarness({
  alertWebhooks: { signingKey: null, policy: { allowPrivateTargets: false, resolveHost } },
});
afterAll(async () => {
  await Promise.all([h.close(), lan.close(), unsigned.close()]);
});

const SLACK_URL = 'https://hooks.example.test/services/T000/B000/XXXX';

/** A team with one person of each role and a property. */
async function setup(harness: ConsoleHarness = h) {
  const owner = await harness.signUp('owner');
  const admin = await harness.signUp('admin');
  const member = await harness.signUp('member');
  const { teamId } = await harness.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => harness.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', { name: 'Shop', domain: 'shop.example', plan: 'growth' });
  const id = created.body.property.id as string;
  return { owner, admin, member, as, id, base: `/api/properties/${id}/alert-webhooks` };
}

describe('adding and listing', () => {
  it('an admin adds a Slack webhook; everyone lists it, members without its URL', async () => {
    const t = await setup();
    const res = await t.as(t.admin).post(t.base, { format: 'slack', url: SLACK_URL, description: ' #alerts ' });
    expect(res.status).toBe(201);
    expect(res.body.webhook).toEqual({
      id: expect.any(String),
      format: 'slack',
      url: SLACK_URL,
      host: 'hooks.example.test',
      description: '#alerts',
      enabled: true,
      createdAt: expect.any(String),
      secret: null,
      lastAttempt: null,
      pendingDeliveries: 0,
    });
    const asOwner = await t.as(t.owner).get(t.base);
    expect(asOwner.body).toEqual({
      webhooks: [res.body.webhook],
      has_more: false,
      next_cursor: null,
      prev_cursor: null,
      limit: 10,
      signingConfigured: true,
    });
    const asMember = await t.as(t.member).get(t.base);
    expect(asMember.status).toBe(200);
    expect(asMember.body.webhooks).toEqual([{ ...res.body.webhook, url: null }]);
    expect(asMember.text).not.toContain('XXXX');
  });

  it('shows a standard webhook’s signing secret to owners and admins only; rotating it replaces it', async () => {
    const t = await setup();
    const created = (await t.as(t.owner).post(t.base, { format: 'standard', url: SLACK_URL })).body.webhook;
    expect(created.secret).toBe(deriveAlertWebhookSecret(testEnv.ALERT_WEBHOOK_SIGNING_KEY, created.id, 1));
    expect((await t.as(t.admin).get(t.base)).body.webhooks[0].secret).toBe(created.secret);
    expect((await t.as(t.member).get(t.base)).body.webhooks[0].secret).toBeNull();

    const rotated = await t.as(t.admin).post(`${t.base}/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook.secret).toBe(
      deriveAlertWebhookSecret(testEnv.ALERT_WEBHOOK_SIGNING_KEY, created.id, 2),
    );
    const stored = await h.db.webhookDestination.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice('whsec_'.length));
    expect(JSON.stringify(stored)).not.toContain(rotated.body.webhook.secret.slice('whsec_'.length));
  });

  it('a Slack webhook has no secret to rotate (400 INVALID_PARAM)', async () => {
    const t = await setup();
    const created = (await t.as(t.owner).post(t.base, { format: 'slack', url: SLACK_URL })).body.webhook;
    const res = await t.as(t.owner).post(`${t.base}/${created.id}/rotate-secret`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAM');
  });

  it('without ALERT_WEBHOOK_SIGNING_KEY a standard webhook answers 503 NOT_CONFIGURED; a Slack one is added', async () => {
    const t = await setup(unsigned);
    const standard = await t.as(t.owner).post(t.base, { format: 'standard', url: SLACK_URL });
    expect(standard.status).toBe(503);
    expect(standard.body.error).toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringContaining('ALERT_WEBHOOK_SIGNING_KEY'),
    });
    expect((await t.as(t.owner).post(t.base, { format: 'slack', url: SLACK_URL })).status).toBe(201);
    expect((await t.as(t.owner).get(t.base)).body).toMatchObject({
      signingConfigured: false,
      webhooks: [{ format: 'slack' }],
    });
  });

  it('at most 10 per property: the 11th answers 409 LIMIT_REACHED', async () => {
    const t = await setup();
    const results = await Promise.all(
      Array.from({ length: 11 }, (_, n) => t.as(t.owner).post(t.base, { format: 'slack', url: `${SLACK_URL}${n}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), 409]);
    expect(results.find((r) => r.status === 409)?.body.error.code).toBe('LIMIT_REACHED');
    expect(await h.db.webhookDestination.count({ where: { propertyId: t.id } })).toBe(10);
  });
});

describe('the SSRF guard, with the deployment default', () => {
  it.each([
    ['http://127.0.0.1/hook', 'must be an https URL'],
    ['https://127.0.0.1/hook', 'points at a loopback, private or link-local address'],
    ['https://localhost/hook', 'does not resolve to a public internet address'],
    ['https://[::1]/hook', 'points at a loopback, private or link-local address'],
    ['https://10.0.0.8/hook', 'points at a loopback, private or link-local address'],
    ['https://192.168.1.20/hook', 'points at a loopback, private or link-local address'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata address'],
    ['https://0.0.0.0/hook', 'no receiver can have'],
    ['https://[::ffff:127.0.0.1]/hook', 'points at a loopback, private or link-local address'],
    ['https://2130706433/hook', 'points at a loopback, private or link-local address'],
    ['https://0x7f000001/hook', 'points at a loopback, private or link-local address'],
    ['https://intranet.example.test/hook', 'does not resolve to a public internet address'],
    ['https://metadata.example.test/hook', 'does not resolve to a public internet address'],
    ['https://nowhere.example.test/hook', 'does not resolve to a public internet address'],
    ['ftp://hooks.example.test/hook', 'must be an https URL'],
    ['javascript:alert(1)', 'must be an https URL'],
    ['https://user:secret@hooks.example.test/hook', 'must not hold a user name or password'],
    ['not a url', 'is not a valid URL'],
  ])('refuses %s with 400 INVALID_BODY saying why at url, and stores nothing', async (url, reason) => {
    const t = await setup();
    const res = await t.as(t.owner).post(t.base, { format: 'slack', url });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'INVALID_BODY',
      message: expect.stringContaining(reason),
      details: [{ path: 'url', message: expect.stringContaining(reason) }],
    });
    // Nothing a name resolved to is echoed.
    for (const address of ['10.1.2.3', '169.254.169.254', '127.0.0.1']) {
      if (!url.includes(address)) expect(res.text).not.toContain(address);
    }
    expect(await h.db.webhookDestination.count({ where: { propertyId: t.id } })).toBe(0);
  });

  it('refuses a bad input shape with 400 INVALID_BODY and no stack trace: a huge URL, a blank one, a wrong format, an unknown field', async () => {
    const t = await setup();
    for (const body of [
      { format: 'slack', url: `https://hooks.example.test/${'a'.repeat(3000)}` },
      { format: 'slack', url: '   ' },
      { format: 'teams', url: SLACK_URL },
      { format: 'slack', url: SLACK_URL, description: 'd'.repeat(201) },
      { format: 'slack', url: SLACK_URL, secret: 'mine' },
      { format: 'slack', url: 42 },
      {},
    ]) {
      const res = await t.as(t.owner).post(t.base, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_BODY');
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await h.db.webhookDestination.count({ where: { propertyId: t.id } })).toBe(0);
  });

  it('checks a changed URL as a new one, and keeps the old URL when it refuses', async () => {
    const t = await setup();
    const created = (await t.as(t.owner).post(t.base, { format: 'slack', url: SLACK_URL })).body.webhook;
    const refused = await t.as(t.admin).patch(`${t.base}/${created.id}`, { url: 'https://10.0.0.1/x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'url', message: expect.stringContaining('private') }]);
    const changed = await t.as(t.admin).patch(`${t.base}/${created.id}`, {
      url: 'https://hooks.example.test/other',
      description: 'ops',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.webhook).toMatchObject({
      url: 'https://hooks.example.test/other',
      description: 'ops',
      enabled: true,
    });
  });
});

describe('roles and ownership', () => {
  it('members read the list and the log, but every change answers 403 FORBIDDEN and changes nothing', async () => {
    const t = await setup();
    const created = (await t.as(t.owner).post(t.base, { format: 'standard', url: SLACK_URL })).body.webhook;
    const one = `${t.base}/${created.id}`;
    expect((await t.as(t.member).get(`${one}/log`)).status).toBe(200);
    for (const res of [
      await t.as(t.member).post(t.base, { format: 'slack', url: SLACK_URL }),
      await t.as(t.member).patch(one, { enabled: false }),
      await t.as(t.member).delete(one),
      await t.as(t.member).post(`${one}/rotate-secret`),
      await t.as(t.member).post(`${one}/test`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const stored = await h.db.webhookDestination.findMany({ where: { propertyId: t.id } });
    expect(stored.map((d) => [d.id, d.secretVersion, d.disabledAt])).toEqual([[created.id, 1, null]]);
    expect(await h.db.webhookDelivery.count({ where: { destinationId: created.id } })).toBe(0);
  });

  it('another team’s webhook is not found, exactly as a made-up id, and stays as it was', async () => {
    const t = await setup();
    const other = await setup();
    const theirs = (await other.as(other.owner).post(other.base, { format: 'slack', url: SLACK_URL })).body.webhook;
    const foreign = await t.as(t.owner).delete(`${t.base}/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect((await t.as(t.owner).delete(`${t.base}/${randomUUID()}`)).body).toEqual(foreign.body);
    // Their webhook under their property id, through my team: the property is not found.
    expect((await t.as(t.owner).get(`${other.base}/${theirs.id}/log`)).status).toBe(404);
    expect(await h.db.webhookDestination.count({ where: { id: theirs.id } })).toBe(1);
  });

  it('removing a webhook answers 204; it is gone with its deliveries', async () => {
    const t = await setup();
    const created = (await t.as(t.owner).post(t.base, { format: 'slack', url: SLACK_URL })).body.webhook;
    expect((await t.as(t.owner).post(`${t.base}/${created.id}/test`)).status).toBe(200);
    expect((await t.as(t.admin).delete(`${t.base}/${created.id}`)).status).toBe(204);
    expect((await t.as(t.admin).delete(`${t.base}/${created.id}`)).status).toBe(404);
    expect(await h.db.webhookDelivery.count({ where: { destinationId: created.id } })).toBe(0);
  });

  it('a switched-off webhook is listed as such and cannot be tested (400 INVALID_PARAM)', async () => {
    const t = await setup();
    const created = (await t.as(t.owner).post(t.base, { format: 'slack', url: SLACK_URL })).body.webhook;
    const off = await t.as(t.owner).patch(`${t.base}/${created.id}`, { enabled: false });
    expect(off.body.webhook.enabled).toBe(false);
    const test = await t.as(t.owner).post(`${t.base}/${created.id}/test`);
    expect(test.status).toBe(400);
    expect(test.body.error.code).toBe('INVALID_PARAM');
  });
});

describe('a test event, delivered for real', () => {
  it('reaches the receiver signed with the secret shown; the log shows the attempt, members read it', async () => {
    const worker = await startWebhookDeliveryWorker({ prefix: lan.prefix, policy: { allowPrivateTargets: true } });
    const receiver = await startWebhookReceiver([
      { status: 500, body: 'not yet' },
      { status: 202, body: 'thanks' },
    ]);
    try {
      const t = await setup(lan);
      const created = (await t.as(t.admin).post(t.base, { format: 'standard', url: receiver.url })).body.webhook;
      const sent = await t.as(t.admin).post(`${t.base}/${created.id}/test`);
      expect(sent.status).toBe(200);
      expect(sent.body.delivery).toEqual({
        id: expect.any(String),
        eventId: expect.stringMatching(/^test_/),
        status: 'pending',
      });

      const [, second] = await receiver.waitFor(2);
      const event = new Webhook(created.secret).verify(second!.body, second!.headers as Record<string, string>);
      expect(event).toMatchObject({
        type: 'alert.test',
        data: { property: { id: t.id, name: 'Shop', domain: 'shop.example' }, details: { test: true } },
      });
      expect(second!.headers['webhook-id']).toBe(sent.body.delivery.eventId);

      const log = await vi.waitFor(
        async () => {
          const res = await t.as(t.member).get(`${t.base}/${created.id}/log`);
          expect(res.body.attempts).toHaveLength(2);
          return res.body;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(
        log.attempts.map((a: { attempt: number; outcome: string; statusCode: number }) => [
          a.attempt,
          a.outcome,
          a.statusCode,
        ]),
      ).toEqual([
        [2, 'delivered', 202],
        [1, 'retrying', 500],
      ]);
      expect(log.attempts[1]).toMatchObject({ eventType: 'alert.test', responseSnippet: 'not yet', errorClass: null });
      expect(log.pending).toEqual([]);
      expect(JSON.stringify(log)).not.toContain(created.secret);
      const listed = (await t.as(t.member).get(t.base)).body.webhooks[0];
      expect(listed).toMatchObject({ lastAttempt: { outcome: 'delivered', statusCode: 202 }, pendingDeliveries: 0 });
    } finally {
      await worker.close();
      await receiver.close();
    }
  });

  it('shows a test event pending while no worker runs (the one above has stopped)', async () => {
    const t = await setup(lan);
    const created = (await t.as(t.admin).post(t.base, { format: 'slack', url: 'http://127.0.0.1:9/hook' })).body
      .webhook;
    const sent = await t.as(t.admin).post(`${t.base}/${created.id}/test`);
    expect(sent.status).toBe(200);
    const log = (await t.as(t.member).get(`${t.base}/${created.id}/log`)).body;
    expect(log.attempts).toEqual([]);
    expect(log.pending).toEqual([
      {
        deliveryId: sent.body.delivery.id,
        eventId: sent.body.delivery.eventId,
        eventType: 'alert.test',
        attempts: 0,
        nextAttemptAt: expect.any(String),
      },
    ]);
    expect((await t.as(t.member).get(t.base)).body.webhooks[0].pendingDeliveries).toBe(1);
  });
});
