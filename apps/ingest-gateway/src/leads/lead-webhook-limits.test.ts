import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { deriveWebhookSecret } from '@vt/credentials';
import { recentDeliveries } from '@vt/delivery-log';
import { taggedRedisKey } from '@vt/redis';
import { testEnv } from '@vt/test-support';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAILED_AUTH_UNREACHED } from '../failed-auth-limiter.ts';
import { createGatewayHarness } from '../testing/gateway-harness.ts';
import { rawPost as postInChunks, split, uploadWholeBody } from '../testing/upload-whole-body.ts';

// The lead webhook's limits: the 64 KB body cap (honest, absent and lying Content-Length), the
// five-minute window at its edges, the id and field lengths, the 50-row delivery log, an
// unconfigured deployment, a queue that is gone, and hostile input.

const KEY = testEnv.WEBHOOK_SIGNING_KEY;
const CAP = 65536;
/** When set, the gateway's clock (ms); otherwise the real one. */
let pinnedMs: number | undefined;
// Many refused deliveries from one address: the failed-attempt limits are tested in tests/security.
const h = await createGatewayHarness({
  leads: { now: () => pinnedMs ?? Date.now() },
  failedAuthLimits: FAILED_AUTH_UNREACHED,
});
const unconfigured = await createGatewayHarness({ leads: { signingKey: undefined } });
const queueDown = await createGatewayHarness();
// Both queues share the connection: let both finish starting before Redis goes away.
await Promise.all([queueDown.leadQueue.waitUntilReady(), queueDown.queue.waitUntilReady()]);
await queueDown.redis.quit();

let server: http.Server;
beforeAll(async () => {
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterEach(() => {
  pinnedMs = undefined;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await Promise.all([h.close(), unconfigured.close(), queueDown.close()]);
});

/** The sender's side of the contract, written from the spec. */
function hmacHex(secret: string, id: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}.${timestamp}.`).update(body).digest('hex');
}

/** The webhook headers of a correctly signed delivery of `body`. */
function signedHeaders(propertyId: string, body: Buffer, id: string = randomUUID(), timestamp = nowSeconds()) {
  const signature = hmacHex(deriveWebhookSecret(KEY, propertyId), id, timestamp, body);
  return { 'x-webhook-id': id, 'x-webhook-timestamp': timestamp, 'x-webhook-signature': signature };
}
const nowSeconds = () => String(Math.floor((pinnedMs ?? Date.now()) / 1000));
const bytesOf = (body: object | string | Buffer) =>
  Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));

function deliver(
  propertyId: string,
  body: object | string | Buffer,
  headers: Record<string, string | null> = {},
  app: Express = h.app,
) {
  const bytes = bytesOf(body);
  const all = { ...signedHeaders(propertyId, bytes), ...headers };
  const req = request(app).post(`/api/webhooks/leads/${propertyId}`).set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(all)) if (value !== null) req.set(name, value);
  return req.serialize((b) => b).send(bytes);
}

/** A body of exactly `size` bytes: a contact and an ignored `pad` key, mostly of `unit`. */
function paddedBody(size: number, unit = 'x'): Buffer {
  const room = size - Buffer.byteLength(JSON.stringify({ contact: 'Ada', pad: '' }));
  const units = Math.floor(room / Buffer.byteLength(unit));
  const pad = 'x'.repeat(room - units * Buffer.byteLength(unit)) + unit.repeat(units);
  const body = Buffer.from(JSON.stringify({ contact: 'Ada', pad }));
  expect(body.length).toBe(size);
  return body;
}

interface Answer {
  status: number;
  text: string;
}

/** Writes `chunks` one at a time (chunked unless a Content-Length is given); errors after the answer are ignored. */
function rawPost(path: string, headers: http.OutgoingHttpHeaders, chunks: Buffer[]): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return postInChunks(port, path, headers, chunks, { pauseMs: 2 });
}

/** Sends `head` and `body` on a bare socket (so Content-Length can lie), and returns all it answers. */
function rawSocket(head: string, body: Buffer): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      out += d;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(out));
    socket.write(head);
    socket.write(body, () => setTimeout(() => socket.end(), 500));
  });
}

function expectRejection(res: Answer, status: number, reason: string) {
  expect(res.status, res.text).toBe(status);
  const body = JSON.parse(res.text);
  const expected = reason === 'invalid_payload' ? ['details', 'error', 'hint', 'reason'] : ['error', 'hint', 'reason'];
  expect(Object.keys(body).sort()).toEqual(expected);
  expect(body.reason).toBe(reason);
  expect(body.error).toEqual(expect.stringMatching(/\S/));
  expect(body.hint).toEqual(expect.stringMatching(/\S/));
  return body;
}

const leadJobsOf = async (propertyId: string) => (await h.leadJobs()).filter((j) => j.propertyId === propertyId);
/** The webhook's delivery log, once every row the answers so far (of any harness here) handed over is written. */
async function webhookRows(propertyId: string) {
  await Promise.all([h, unconfigured, queueDown].map((harness) => harness.flushDeliveryLog()));
  return recentDeliveries(h.db, propertyId, 'webhook');
}
const ADA = { contact: 'Ada' };

describe('lead webhook body cap', () => {
  it('[LEAD-1] a body of exactly 65536 bytes is accepted, in ASCII or in two-byte characters', async () => {
    const { property } = await h.createProperty();
    for (const unit of ['x', 'é']) {
      const res = await deliver(property.id, paddedBody(CAP, unit));
      expect(res.status, res.text).toBe(200);
      expect(res.body.ignoredFields).toEqual(['pad']);
    }
    expect(await leadJobsOf(property.id)).toHaveLength(2);
  });

  it('[LEAD-1] 65537 bytes with an honest Content-Length answer 413 body_too_large; no lead, a counted row without the body', async () => {
    const { property } = await h.createProperty();
    for (const unit of ['x', 'é'])
      expectRejection(await deliver(property.id, paddedBody(CAP + 1, unit)), 413, 'body_too_large');
    expect(await leadJobsOf(property.id)).toEqual([]);
    const rows = await webhookRows(property.id);
    // Refused before the signature was checked: one summary row counting both (issue 33).
    expect(rows.map((r) => [r.statusCode, r.reason, r.requestBody, r.attempts, r.authenticated])).toEqual([
      [413, 'body_too_large', null, 2, false],
    ]);
    for (const row of rows) expect(row.fix).toEqual(expect.stringMatching(/\S/));
  });

  it('[LEAD-1] with no Content-Length (chunked) 65536 bytes are accepted and 65537 answer 413', async () => {
    const { property } = await h.createProperty();
    const path = `/api/webhooks/leads/${property.id}`;
    const fits = paddedBody(CAP);
    const ok = await rawPost(
      path,
      { 'Content-Type': 'application/json', ...signedHeaders(property.id, fits) },
      split(fits, 8192),
    );
    expect(ok.status, ok.text).toBe(200);
    const over = paddedBody(CAP + 1);
    const res = await rawPost(
      path,
      { 'Content-Type': 'application/json', ...signedHeaders(property.id, over) },
      split(over, 8192),
    );
    expectRejection(res, 413, 'body_too_large');
    expect(await leadJobsOf(property.id)).toHaveLength(1);
  });

  it('[LEAD-1] a signed 1 MB body with no Content-Length is answered 413 at the cap, before the rest is sent', async () => {
    const { property } = await h.createProperty();
    const huge = paddedBody(1024 * 1024);
    const { port } = server.address() as AddressInfo;
    // Only the first 80 KiB go out, and the chunked body is never ended: the answer must not wait for more.
    const res = await new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: `/api/webhooks/leads/${property.id}`,
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...signedHeaders(property.id, huge) },
        },
        (answer) => {
          let text = '';
          answer.setEncoding('utf8');
          answer.on('data', (chunk: string) => {
            text += chunk;
          });
          answer.on('end', () => {
            req.destroy();
            resolve({ status: answer.statusCode ?? 0, text });
          });
        },
      );
      req.on('error', reject);
      req.write(huge.subarray(0, 80 * 1024));
    });
    expectRejection(res, 413, 'body_too_large');
    expect(await leadJobsOf(property.id)).toEqual([]);
    expect((await webhookRows(property.id)).map((r) => [r.statusCode, r.reason, r.requestBody])).toEqual([
      [413, 'body_too_large', null],
    ]);
  });

  it('[LEAD-1] a sender that keeps uploading a whole 16 MB body reads the 413, without a reset or write error', async () => {
    const { property } = await h.createProperty();
    const huge = paddedBody(16 * 1024 * 1024); // far more than the sockets buffer
    const { port } = server.address() as AddressInfo;
    for (const lengthHeader of [{}, { 'Content-Length': String(huge.length) }]) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const outcome = await uploadWholeBody(
          port,
          `/api/webhooks/leads/${property.id}`,
          { 'Content-Type': 'application/json', ...signedHeaders(property.id, huge), ...lengthHeader },
          huge,
        );
        expect(outcome.senderError).toBeUndefined();
        expect(outcome.status).toBe(413);
        expect(JSON.parse(outcome.text).reason).toBe('body_too_large');
      }
    }
    expect(await leadJobsOf(property.id)).toEqual([]);
  });

  it('[LEAD-1] a Content-Length over the cap answers 413 at once, without waiting for a body that never comes', async () => {
    const { property } = await h.createProperty();
    const headers = signedHeaders(property.id, paddedBody(CAP + 1));
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let out = '';
      const done = () => {
        socket.destroy();
        resolve(out);
      };
      const timer = setTimeout(done, 3000);
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        out += d;
        if (out.includes('"reason"')) {
          clearTimeout(timer);
          done();
        }
      });
      socket.on('error', () => {});
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
      socket.write(
        `POST /api/webhooks/leads/${property.id} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n${lines.join('\r\n')}\r\nContent-Length: ${CAP + 1}\r\n\r\n`,
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"reason":"body_too_large"');
  });

  it('[LEAD-1] a Content-Length smaller than the body: only the declared bytes are the body, and no lead is taken', async () => {
    const { property } = await h.createProperty();
    const over = paddedBody(CAP + 1);
    const headers = signedHeaders(property.id, over);
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
    const answer = await rawSocket(
      `POST /api/webhooks/leads/${property.id} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n${lines.join('\r\n')}\r\nContent-Length: 100\r\n\r\n`,
      over,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(answer).not.toMatch(/<html|<!doctype|\n\s+at /i);
    expect(await leadJobsOf(property.id)).toEqual([]);
    expect((await webhookRows(property.id)).filter((r) => r.statusCode === 200)).toEqual([]);
  });

  it('[LEAD-1] [LEAD-4] over the cap and badly signed is body_too_large (size is checked before the signature is verified)', async () => {
    const { property } = await h.createProperty();
    expectRejection(
      await deliver(property.id, paddedBody(CAP + 1), { 'x-webhook-signature': 'c'.repeat(64) }),
      413,
      'body_too_large',
    );
  });

  it('[LEAD-1] [LEAD-3] [LEAD-4] over the cap without a signature, or stale, answers the header check that comes first', async () => {
    const { property } = await h.createProperty();
    const over = paddedBody(CAP + 1);
    expectRejection(await deliver(property.id, over, { 'x-webhook-signature': null }), 401, 'missing_signature');
    const staleTs = String(Math.floor(Date.now() / 1000) - 3600);
    expectRejection(await deliver(property.id, over, { 'x-webhook-timestamp': staleTs }), 400, 'stale_timestamp');
  });
});

describe('lead webhook timestamp window', () => {
  const T = 1_750_000_000; // whole seconds, so the window edges fall on whole seconds

  it.each([-300, 0, 300])('[LEAD-3] a timestamp %i s from the service clock is accepted', async (offset) => {
    pinnedMs = T * 1000;
    const { property } = await h.createProperty();
    const res = await deliver(
      property.id,
      ADA,
      signedHeaders(property.id, bytesOf(ADA), randomUUID(), String(T + offset)),
    );
    expect(res.status, res.text).toBe(200);
    // The lead arrived when the service says, not when the sender says.
    const [job] = await leadJobsOf(property.id);
    expect(job?.receivedAt && Date.parse(job.receivedAt)).toBe(T * 1000);
  });

  it.each([-301, 301, -86_400, 86_400])(
    '[LEAD-3] a timestamp %i s from the service clock is stale_timestamp',
    async (offset) => {
      pinnedMs = T * 1000;
      const { property } = await h.createProperty();
      const res = await deliver(
        property.id,
        ADA,
        signedHeaders(property.id, bytesOf(ADA), randomUUID(), String(T + offset)),
      );
      expectRejection(res, 400, 'stale_timestamp');
      expect(await leadJobsOf(property.id)).toEqual([]);
    },
  );

  it.each([
    'abc',
    String(T * 1000),
    `${T}.5`,
    `${T}.0`,
    '1.75e9',
    '0x684ee180',
    `-${T}`,
    new Date(T * 1000).toISOString(),
  ])('[LEAD-3] a timestamp that is not Unix seconds (%s) is stale_timestamp, even when signed', async (timestamp) => {
    pinnedMs = T * 1000;
    const { property } = await h.createProperty();
    const res = await deliver(property.id, ADA, signedHeaders(property.id, bytesOf(ADA), randomUUID(), timestamp));
    expectRejection(res, 400, 'stale_timestamp');
  });
});

describe('lead webhook id length', () => {
  it('[LEAD-2] an x-webhook-id of 128 characters is accepted and deduplicated whole; 129 or empty is missing_event_id', async () => {
    const { property } = await h.createProperty();
    const id128 = `${'i'.repeat(127)}1`;
    const first = await deliver(property.id, ADA, signedHeaders(property.id, bytesOf(ADA), id128));
    expect(first.status, first.text).toBe(200);
    const again = await deliver(property.id, ADA, signedHeaders(property.id, bytesOf(ADA), id128));
    expect(again.body).toEqual({ ...first.body, warnings: ['duplicate_event'] });
    // Same first 128 characters, one more: not the same event, and not acceptable.
    const id129 = `${id128}2`;
    expectRejection(
      await deliver(property.id, ADA, signedHeaders(property.id, bytesOf(ADA), id129)),
      400,
      'missing_event_id',
    );
    expectRejection(await deliver(property.id, ADA, { 'x-webhook-id': '' }), 400, 'missing_event_id');
    const jobs = await leadJobsOf(property.id);
    expect(jobs.map((j) => j.eventId)).toEqual([id128]);
    const rows = await webhookRows(property.id);
    expect(rows.filter((r) => r.authenticated).map((r) => r.statusCode)).toEqual([200, 200]);
    // The two ids refused before the signature was checked: one summary row counting both.
    expect(rows.filter((r) => !r.authenticated).map((r) => [r.statusCode, r.reason, r.attempts])).toEqual([
      [400, 'missing_event_id', 2],
    ]);
  });
});

describe('lead webhook field lengths', () => {
  /** A valid address of exactly `length` characters: a 64-character local part and labels of at most 63. */
  function emailOf(length: number): string {
    const local = 'a'.repeat(64);
    let domain = 'com';
    while (local.length + 1 + domain.length < length) {
      const room = length - (local.length + 1 + domain.length) - 1;
      domain = `${'d'.repeat(Math.min(63, Math.max(1, room)))}.${domain}`;
    }
    const email = `${local}@${domain}`;
    expect(email).toHaveLength(length);
    return email;
  }
  const atMax = {
    contact: 'c'.repeat(320),
    email: emailOf(320),
    sessionId: 's'.repeat(128),
    landingPath: `/${'p'.repeat(2047)}`,
    referrer: `https://chatgpt.com/${'r'.repeat(2048 - 20)}`,
    utmSource: 'u'.repeat(256),
    utmMedium: 'm'.repeat(256),
  };

  it('[LEAD-6] every field at its maximum length is accepted and carried unchanged', async () => {
    const { property } = await h.createProperty();
    for (const [field, value] of Object.entries(atMax))
      expect(value, field).toHaveLength(field === 'contact' || field === 'email' ? 320 : value.length);
    const res = await deliver(property.id, atMax);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ matched: true, platform: 'chatgpt' });
    const [job] = await leadJobsOf(property.id);
    expect(job?.lead).toEqual(atMax);
  });

  const overByOne: [string, string][] = [
    ['contact', 'c'.repeat(321)],
    ['email', emailOf(321)],
    ['sessionId', 's'.repeat(129)],
    ['landingPath', `/${'p'.repeat(2048)}`],
    ['referrer', `https://chatgpt.com/${'r'.repeat(2049 - 20)}`],
    ['utmSource', 'u'.repeat(257)],
    ['utmMedium', 'm'.repeat(257)],
  ];
  it.each(overByOne)(
    '[LEAD-5] [LEAD-6] %s one character over its limit is invalid_payload naming that field',
    async (field, value) => {
      const { property } = await h.createProperty();
      const res = await deliver(property.id, { ...atMax, [field]: value });
      const body = expectRejection(res, 400, 'invalid_payload');
      expect(body.details.map((d: { field: string }) => d.field)).toEqual([field]);
      expect(await leadJobsOf(property.id)).toEqual([]);
    },
  );

  it('[LEAD-6] an email that is not a valid address is invalid_payload naming email', async () => {
    const { property } = await h.createProperty();
    for (const email of ['not-an-email', 'ada@', '@example.com', 'ada example.com', 'ada@example']) {
      const body = expectRejection(await deliver(property.id, { contact: 'Ada', email }), 400, 'invalid_payload');
      expect(
        body.details.map((d: { field: string }) => d.field),
        email,
      ).toEqual(['email']);
    }
  });
});

describe('lead webhook delivery log size', () => {
  it('[LEAD-9] [LEAD-15] 55 attempts leave the newest 50 rows', async () => {
    const { property } = await h.createProperty();
    for (let i = 0; i < 55; i++) {
      const id = `attempt-${i}`;
      // Every fifth one accepted, the rest signed but refused (not JSON), so both kinds are pruned alike.
      const body = i % 5 === 0 ? ADA : 'not json';
      const res = await deliver(property.id, body, signedHeaders(property.id, bytesOf(body), id));
      expect(res.status).toBe(i % 5 === 0 ? 200 : 400);
    }
    const rows = await webhookRows(property.id);
    expect(rows.map((r) => r.eventId)).toEqual(Array.from({ length: 50 }, (_, i) => `attempt-${54 - i}`));
  });

  it('[LEAD-8] [LEAD-9] a redelivery is a duplicate while the first attempt is among the 50; once it is gone, a replay is stale', async () => {
    const T = 1_750_000_000;
    pinnedMs = T * 1000;
    const { property } = await h.createProperty();
    const body = bytesOf({ contact: 'Ada', referrer: 'claude.ai' });
    const original = signedHeaders(property.id, body, 'order-42', String(T));
    const first = await deliver(property.id, body, original);
    expect(first.status).toBe(200);
    // The sender's own refused attempts (signed, not JSON): strangers' cannot push rows out (issue 33).
    for (let i = 0; i < 49; i++) await deliver(property.id, 'not json');
    // The first attempt is the oldest of the 50 kept: a retry (fresh timestamp and signature) is recognised.
    pinnedMs = (T + 60) * 1000;
    const retry = await deliver(property.id, body, signedHeaders(property.id, body, 'order-42', String(T + 60)));
    expect(retry.body).toEqual({ ...first.body, warnings: ['duplicate_event'] });
    const rows = await webhookRows(property.id);
    expect(rows).toHaveLength(50);
    expect(rows.some((r) => r.eventId === 'order-42' && r.statusCode === 200 && r.leadId === first.body.leadId)).toBe(
      true,
    );
    // Pushed out of the log, the original delivery replayed as captured is stopped by the window.
    for (let i = 0; i < 50; i++) await deliver(property.id, 'not json');
    expect((await webhookRows(property.id)).some((r) => r.eventId === 'order-42')).toBe(false);
    pinnedMs = (T + 301) * 1000;
    expectRejection(await deliver(property.id, body, original), 400, 'stale_timestamp');
    expect(await leadJobsOf(property.id)).toHaveLength(1);
  });

  it('[LEAD-9] duplicates are remembered 24 h in Redis, beyond the 50-row log: a retry after its attempt left the log is still duplicate_event', async () => {
    const { property } = await h.createProperty();
    const body = bytesOf({ contact: 'Ada', referrer: 'claude.ai' });
    const first = await deliver(property.id, body, signedHeaders(property.id, body, 'order-43'));
    expect(first.status).toBe(200);
    expect(first.body.warnings).toEqual([]);
    // 50 of the sender's own rejected attempts push the lead's attempt out of the last 50 rows.
    for (let i = 0; i < 50; i++) {
      expect((await deliver(property.id, 'not json')).status).toBe(400);
    }
    const rows = await webhookRows(property.id);
    expect(rows).toHaveLength(50);
    expect(rows.some((r) => r.eventId === 'order-43')).toBe(false);
    // The sender's retry: same id, fresh timestamp and signature.
    const retry = await deliver(property.id, body, signedHeaders(property.id, body, 'order-43'));
    expect(retry.status).toBe(200);
    expect(retry.body).toStrictEqual({ ...first.body, warnings: ['duplicate_event'] });
    expect(await leadJobsOf(property.id)).toHaveLength(1);
    const ttl = await h.redis.ttl(taggedRedisKey(h.keyPrefix, property.id, 'lead-event', 'order-43'));
    expect(ttl).toBeGreaterThan(86340);
    expect(ttl).toBeLessThanOrEqual(86400);
  });
});

describe('lead webhook dependencies', () => {
  it('[LEAD-13] [LEAD-14] without a signing key every delivery answers 503 with error and hint, no reason; nothing enqueued', async () => {
    const { property } = await unconfigured.createProperty();
    const signed = await deliver(property.id, ADA, {}, unconfigured.app);
    const bare = await deliver(
      property.id,
      'x',
      { 'x-webhook-id': null, 'x-webhook-timestamp': null, 'x-webhook-signature': null },
      unconfigured.app,
    );
    for (const res of [signed, bare]) {
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(['error', 'hint']);
      expect(res.body.hint).toEqual(expect.stringMatching(/\S/));
    }
    expect((await unconfigured.leadJobs()).filter((j) => j.propertyId === property.id)).toEqual([]);
    // An unknown property is still 404 first.
    expect((await deliver(randomUUID(), ADA, {}, unconfigured.app)).status).toBe(404);
  });

  it('[LEAD-13] [LEAD-14] with the queue gone the lead answers 500 storage_failed; the retry under the same id is a new lead', async () => {
    const { property } = await queueDown.createProperty();
    const id = randomUUID();
    const res = await deliver(property.id, ADA, signedHeaders(property.id, bytesOf(ADA), id), queueDown.app);
    expectRejection(res, 500, 'storage_failed');
    const rows = await webhookRows(property.id);
    expect(rows.map((r) => [r.statusCode, r.reason, r.leadId])).toEqual([[500, 'storage_failed', null]]);
    // The retry the spec asks for (same id, fresh timestamp and signature) reaches a working gateway.
    const retry = await deliver(property.id, ADA, signedHeaders(property.id, bytesOf(ADA), id));
    expect(retry.status).toBe(200);
    expect(retry.body.warnings).toEqual([]);
    expect((await leadJobsOf(property.id)).map((j) => j.leadId)).toEqual([retry.body.leadId]);
  });
});

describe('lead webhook hostile input', () => {
  function expectJsonAnswer(res: { status: number; text: string; headers: Record<string, string> }) {
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).not.toMatch(/<html|<!doctype|\n\s+at |node_modules/i);
    expect(() => JSON.parse(res.text)).not.toThrow();
  }

  it('[LEAD-14] a 1 MB body with no webhook headers answers 400 missing_event_id, as JSON', async () => {
    const { property } = await h.createProperty();
    const res = await request(h.app)
      .post(`/api/webhooks/leads/${property.id}`)
      .send(randomBytes(1024 * 1024));
    expectJsonAnswer(res);
    expectRejection(res, 400, 'missing_event_id');
  });

  it('[LEAD-5] [LEAD-14] signed random bytes are invalid_json; a signed JSON array is invalid_payload', async () => {
    const { property } = await h.createProperty();
    const binary = await deliver(property.id, randomBytes(4096));
    expectJsonAnswer(binary);
    expectRejection(binary, 400, 'invalid_json');
    const array = await deliver(property.id, [ADA, ADA]);
    expectJsonAnswer(array);
    expectRejection(array, 400, 'invalid_payload');
  });

  it('[LEAD-5] [LEAD-14] deeply nested JSON within the cap answers a JSON 400', async () => {
    const { property } = await h.createProperty();
    const depth = 30_000;
    const res = await deliver(property.id, `${'['.repeat(depth)}${']'.repeat(depth)}`);
    expectJsonAnswer(res);
    expect(res.status).toBe(400);
    expect(['invalid_json', 'invalid_payload']).toContain(res.body.reason);
  });

  it('[LEAD-14] a body that is not valid UTF-8 answers JSON, never an HTML page or a stack trace', async () => {
    const { property } = await h.createProperty();
    const body = Buffer.concat([Buffer.from('{"contact":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    const res = await deliver(property.id, body);
    expectJsonAnswer(res);
    expect([200, 400]).toContain(res.status);
  });

  // Postgres refuses NUL in text and \u0000 or a lone surrogate in jsonb; the attempt must still be logged.
  it('[LEAD-15] an invalid_json body holding a NUL byte is still a row in the delivery log', async () => {
    const { property } = await h.createProperty();
    const body = Buffer.concat([Buffer.from('{"contact":"Ada'), Buffer.from([0x00]), Buffer.from('"}')]);
    const res = await deliver(property.id, body);
    expectRejection(res, 400, 'invalid_json');
    expect((await webhookRows(property.id)).map((r) => [r.statusCode, r.reason])).toEqual([[400, 'invalid_json']]);
  });

  it.each([
    ['an escaped NUL', '{"contact":"Ada","a\\u0000b":1}'],
    ['a lone surrogate', '{"contact":"Ada","\\ud800":1}'],
  ])(
    '[LEAD-8] [LEAD-15] a lead with %s in a dropped key is logged, and its redelivery is a duplicate',
    async (_, body) => {
      const { property } = await h.createProperty();
      const id = randomUUID();
      const first = await deliver(property.id, body, signedHeaders(property.id, bytesOf(body), id));
      expect(first.status).toBe(200);
      expect(first.body.ignoredFields).toHaveLength(1);
      expect
        .soft((await webhookRows(property.id)).map((r) => [r.statusCode, r.leadId]))
        .toEqual([[200, first.body.leadId]]);
      const again = await deliver(property.id, body, signedHeaders(property.id, bytesOf(body), id));
      expect(again.body.warnings).toEqual(['duplicate_event']);
    },
  );

  it('[LEAD-15] an attempt whose row Postgres refuses does not cost concurrent attempts of another property their rows', async () => {
    const { property: hostile } = await h.createProperty();
    const { property } = await h.createProperty();
    const nul = Buffer.concat([Buffer.from('{"contact":"Ada'), Buffer.from([0x00]), Buffer.from('"}')]);
    const leads = () => Array.from({ length: 10 }, () => deliver(property.id, ADA));
    const answers = await Promise.all([...leads(), deliver(hostile.id, nul), ...leads()]);
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(20).fill(200), 400]);
    expect(await webhookRows(property.id)).toHaveLength(20);
  });

  it('[LEAD-13] [LEAD-14] a property id that cannot be decoded or is not an id answers a JSON 404', async () => {
    for (const path of ['%E0%A4%A', '..%2F..%2Fetc', 'x'.repeat(5000)]) {
      const res = await request(h.app)
        .post(`/api/webhooks/leads/${path}`)
        .set('Content-Type', 'application/json')
        .send('{}');
      expect(res.status).toBe(404);
      expectJsonAnswer(res);
    }
  });
});
