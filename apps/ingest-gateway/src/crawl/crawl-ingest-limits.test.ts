import { randomBytes, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { recentDeliveries } from '@vt/delivery-log';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayHarness } from '../testing/gateway-harness.ts';
import { rawPost as postInChunks, split, uploadWholeBody } from '../testing/upload-whole-body.ts';

// The crawl ingest's size caps and unavailable dependencies, on gateways built for them: tiny caps
// (so a test body crosses them cheaply), no CRAWL_TOKEN_SECRET, and a queue whose Redis is gone.

const LIMITS = { maxWireBytes: 64 * 1024, maxInflatedBytes: 256 * 1024 };
const h = await createGatewayHarness({ crawl: { limits: LIMITS } });
const unconfigured = await createGatewayHarness({ crawl: { crawlTokenSecret: undefined } });
const redisDown = await createGatewayHarness();
await Promise.all([redisDown.queue.waitUntilReady(), redisDown.leadQueue.waitUntilReady()]);
await redisDown.redis.quit();

let server: http.Server;
beforeAll(async () => {
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await Promise.all([h.close(), unconfigured.close(), redisDown.close()]);
});

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';

/** `count` GPTBot visits to example.com, as NDJSON: every line would be kept if the body were read. */
function gptbotLines(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    out += `${JSON.stringify({ timestamp: '2025-03-01T12:00:00Z', host: 'example.com', path: `/p/${i}`, userAgent: GPTBOT, statusCode: 200 })}\n`;
  }
  return out;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** Posts `chunks` one write at a time (see the shared rawPost) and reads the answer as JSON. */
async function rawPost(
  path: string,
  headers: http.OutgoingHttpHeaders,
  chunks: Buffer[],
  options?: { pauseMs?: number; end?: boolean },
): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  const { status, text } = await postInChunks(port, path, headers, chunks, options);
  return { status, body: JSON.parse(text) };
}

function expectRejection(res: Answer, status: number, reason: string) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'hint', 'reason']);
  for (const value of Object.values(res.body)) expect(value).toEqual(expect.stringMatching(/\S/));
  expect(res.body.reason).toBe(reason);
}

/** Every size the text names (`64 KiB`, `0.25 MiB`, `65536 bytes`), in bytes. */
function statedSizes(text: string): number[] {
  const unit: Record<string, number> = { bytes: 1, B: 1, KiB: 1024, KB: 1000, MiB: 1024 ** 2, MB: 1e6, GiB: 1024 ** 3 };
  return [...text.matchAll(/(\d+(?:\.\d+)?)\s*(bytes|B|KiB|KB|MiB|MB|GiB)\b/g)].map(
    ([, value, name]) => Number(value) * (unit[name!] ?? Number.NaN),
  );
}

/** A harness's crawl delivery log, once every row its answers so far handed to the writer is written. */
async function deliveriesOf(harness: typeof h, propertyId: string) {
  await harness.flushDeliveryLog();
  return recentDeliveries(harness.db, propertyId, 'crawl');
}

async function crawlJobsOf(harness: typeof h, propertyId: string) {
  return (await harness.jobs()).filter((j) => j.propertyId === propertyId);
}

describe('crawl ingest size caps', () => {
  it('[CRAWL-25] a body over the wire cap with an honest Content-Length answers 413; nothing stored, one row', async () => {
    const { property, token } = await h.createProperty();
    const body = gptbotLines(1000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(LIMITS.maxWireBytes);
    const res = await request(h.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(body);
    expectRejection(res, 413, 'body_too_large');
    expect(await crawlJobsOf(h, property.id)).toEqual([]);
    const rows = await deliveriesOf(h, property.id);
    expect(rows.map((r) => [r.statusCode, r.reason])).toEqual([[413, 'body_too_large']]);
  });

  it('[CRAWL-25] a chunked body with no Content-Length that crosses the wire cap answers 413; nothing stored', async () => {
    const { property, token } = await h.createProperty();
    const body = Buffer.from(gptbotLines(1000));
    const res = await rawPost(
      `/api/ingest/crawl/${property.id}`,
      { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
      // Up to the first chunk over the cap; the rest is never sent.
      split(body, 8 * 1024).slice(0, LIMITS.maxWireBytes / (8 * 1024) + 1),
      { end: false },
    );
    expectRejection(res, 413, 'body_too_large');
    expect(await crawlJobsOf(h, property.id)).toEqual([]);
    const rows = await deliveriesOf(h, property.id);
    expect(rows.map((r) => r.statusCode)).toEqual([413]);
  });

  it('[CRAWL-25] a shipper that keeps uploading a whole oversized body reads the 413, without a reset or write error', async () => {
    const { property, token } = await h.createProperty();
    const body = Buffer.from(gptbotLines(20_000)); // many times the wire cap
    expect(body.length).toBeGreaterThan(8 * LIMITS.maxWireBytes);
    const { port } = server.address() as AddressInfo;
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' };
    for (const lengthHeader of [{}, { 'Content-Length': String(body.length) }]) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const outcome = await uploadWholeBody(
          port,
          `/api/ingest/crawl/${property.id}`,
          { ...headers, ...lengthHeader },
          body,
        );
        expect(outcome.senderError).toBeUndefined();
        expect(outcome.status).toBe(413);
        expect(JSON.parse(outcome.text).reason).toBe('body_too_large');
      }
    }
    expect(await crawlJobsOf(h, property.id)).toEqual([]);
  });

  it('[CRAWL-25] a gzip bomb (small on the wire, over the inflated cap) answers 413; nothing stored', async () => {
    const { property, token } = await h.createProperty();
    const bomb = gzipSync(gptbotLines(20_000));
    expect(bomb.length).toBeLessThan(LIMITS.maxWireBytes);
    const res = await request(h.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(bomb);
    expectRejection(res, 413, 'body_too_large');
    expect(await crawlJobsOf(h, property.id)).toEqual([]);
    const rows = await deliveriesOf(h, property.id);
    expect(rows.map((r) => r.statusCode)).toEqual([413]);
  });

  it('[CRAWL-25] a gzipped body under both caps is accepted in full', async () => {
    const { property, token } = await h.createProperty();
    const lines = gptbotLines(1100); // about 225 KiB inflated
    expect(Buffer.byteLength(lines)).toBeLessThan(LIMITS.maxInflatedBytes);
    const res = await request(h.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(gzipSync(lines));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 1100, received: 1100 });
  });

  it('[CRAWL-25] the 413 hint states both caps as they are configured', async () => {
    const { property, token } = await h.createProperty();
    const res = await request(h.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(gptbotLines(1000));
    expect(res.status).toBe(413);
    const sizes = statedSizes(res.body.hint);
    // A stated cap may be rounded down (a sender who keeps under it is safe), never up.
    for (const cap of [LIMITS.maxWireBytes, LIMITS.maxInflatedBytes]) {
      expect(
        sizes.some((size) => size <= cap && size >= cap * 0.9),
        `${res.body.hint} states ${cap} bytes`,
      ).toBe(true);
    }
  });
});

describe('crawl ingest gzip detection', () => {
  it('[CRAWL-5] a gzipped body is recognised even when its first chunk on the wire is one byte', async () => {
    const { property, token } = await h.createProperty();
    const gz = gzipSync(gptbotLines(3));
    const res = await rawPost(
      `/api/ingest/crawl/${property.id}`,
      { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
      [gz.subarray(0, 1), gz.subarray(1)],
      { pauseMs: 50 },
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ kept: 3, received: 3 });
  });
});

describe('crawl ingest dependencies', () => {
  it('[CRAWL-26] without CRAWL_TOKEN_SECRET every attempt answers 503 ingest_not_configured; nothing read or recorded', async () => {
    const { property, token } = await unconfigured.createProperty();
    const res = await request(unconfigured.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(gptbotLines(2));
    expectRejection(res, 503, 'ingest_not_configured');
    expect(await crawlJobsOf(unconfigured, property.id)).toEqual([]);
    expect(await deliveriesOf(unconfigured, property.id)).toEqual([]);
  });

  it('[CRAWL-26] with Redis gone the batch answers 503 queue_unavailable, is not recorded as accepted, and a retry is not a duplicate', async () => {
    const { property, token } = await redisDown.createProperty();
    const key = randomUUID();
    const res = await request(redisDown.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .set('Idempotency-Key', key)
      .send(gptbotLines(2));
    expectRejection(res, 503, 'queue_unavailable');
    const rows = await deliveriesOf(redisDown, property.id);
    expect(rows.map((r) => r.statusCode)).toEqual([503]);
    // The retry the hint asks for, under the same key, reaches a gateway whose queue works.
    const retry = await request(h.app)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .set('Idempotency-Key', key)
      .send(gptbotLines(2));
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ kept: 2, received: 2 });
    expect(await crawlJobsOf(h, property.id)).toHaveLength(1);
  });

  it('[CRAWL-27] a rejected oversized or random body still answers {error, hint, reason}', async () => {
    const { property, token } = await h.createProperty();
    const res = await rawPost(
      `/api/ingest/crawl/${property.id}`,
      { Authorization: `Bearer ${token}` },
      split(randomBytes(LIMITS.maxWireBytes + 4096), 16 * 1024),
      { end: false },
    );
    expectRejection(res, 413, 'body_too_large');
  });
});

describe('crawl ingest bodies that lie about their length', () => {
  /** Writes raw HTTP on a socket; resolves with all the socket read before it closed (or `waitMs`). */
  function rawExchange(head: string, body: Buffer, { close = false, waitMs = 1500 } = {}): Promise<string> {
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let read = '';
      socket.on('data', (d) => {
        read += d.toString('latin1');
      });
      const done = () => resolve(read);
      socket.on('close', done);
      socket.on('error', () => {});
      socket.write(head);
      socket.write(body, () => {
        if (close) socket.destroy();
      });
      setTimeout(() => {
        socket.destroy();
        done();
      }, waitMs).unref();
    });
  }
  const head = (propertyId: string, token: string, contentLength: number) =>
    `POST /api/ingest/crawl/${propertyId} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${contentLength}\r\n\r\n`;

  it('[CRAWL-27] a Content-Length larger than what is sent, then a closed connection: nothing stored, the gateway serves on', async () => {
    const { property, token } = await h.createProperty();
    const body = Buffer.from(gptbotLines(5));
    await rawExchange(head(property.id, token, body.length * 3), body, { close: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await crawlJobsOf(h, property.id)).toEqual([]);
    const next = await request(server)
      .post(`/api/ingest/crawl/${property.id}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/x-ndjson')
      .send(gptbotLines(2));
    expect(next.status).toBe(202);
    expect(next.body).toEqual({ kept: 2, received: 2 });
  });

  it('[CRAWL-27] a Content-Length smaller than the body: nothing past the declared bytes is read as the batch', async () => {
    const { property, token } = await h.createProperty();
    const lines = gptbotLines(4);
    const firstTwo = lines.split('\n').slice(0, 2).join('\n').length + 1;
    const answer = await rawExchange(head(property.id, token, firstTwo), Buffer.from(lines));
    // The bytes past the declared length are a malformed next request on the connection: the HTTP
    // parser answers 400 and closes it, with no HTML and no stack trace.
    expect(answer).toMatch(/^HTTP\/1\.1 (202|400) /);
    expect(answer).not.toMatch(/<html|<!doctype|\n\s+at /i);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const kept = (await crawlJobsOf(h, property.id)).flatMap((j) => j.events);
    expect(kept.length).toBeLessThanOrEqual(2);
  });
});
