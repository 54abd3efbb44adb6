import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express, { type ErrorRequestHandler } from 'express';
import { Registry } from 'prom-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelope } from './error-envelope.ts';
import { defineErrorStatuses } from './error-statuses.ts';
import type { Operation } from './operation.ts';
import { createOperationRouter } from './operation-router.ts';
import { Refusal } from './refusal.ts';
import { StreamedAnswer } from './streamed-answer.ts';

// An operation that `streams`: its answer is written as it is produced, with the declared media
// type, over real HTTP on loopback. A body that fails after its first bytes cuts the connection
// (the client sees an incomplete answer, never a complete-looking one), and the failure reaches
// the app's error handler; HEAD never reads the body.

const STATUS = defineErrorStatuses({ NOT_THERE: 404 });
type Code = keyof typeof STATUS;
class TestRefusal extends Refusal<Code> {}

/** Lines `0` to `count - 1`, then a failure when `failAfter` lines are out. */
function lines(count: number, failAfter?: number, pulled?: { lines: number }) {
  return Readable.from(
    (async function* () {
      for (let i = 0; i < count; i++) {
        if (i === failAfter) throw new Error('the database went away');
        if (pulled) pulled.lines++;
        yield `${i}\n`;
      }
    })(),
  );
}

const pulledByHead = { lines: 0 };
const failures: unknown[] = [];
const operation = (operationId: string, path: string, body: () => Readable): Operation<object, object> => ({
  operationId,
  method: 'get',
  path,
  streams: 'text/csv; charset=utf-8',
  meta: {},
  query: z.object({ missing: z.string().optional() }),
  handle: async (input) => {
    if ((input.query as { missing?: string }).missing) throw new TestRefusal('NOT_THERE', 'No such thing.');
    return new StreamedAnswer(body(), { 'Content-Disposition': 'attachment; filename="numbers.csv"' });
  },
});

function buildApp() {
  const app = express();
  app.use(
    createOperationRouter<object, object, Code>({
      operations: [
        operation('numbers', '/numbers', () => lines(50_000)),
        operation('broken', '/broken', () => lines(50_000, 20_000)),
        operation('counted', '/counted', () => lines(10, undefined, pulledByHead)),
      ],
      metrics: { registry: new Registry(), prefix: 'vt_stream_test', subject: 'Stream test' },
      sendError: errorEnvelope<Code>({ statuses: STATUS, body: (code, message) => ({ error: { code, message } }) }),
      refusal: TestRefusal,
      context: async () => ({}),
      invalidInput: () => new TestRefusal('NOT_THERE', 'bad'),
      methodNotAllowed: () => new TestRefusal('NOT_THERE', 'no'),
    }),
  );
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    failures.push(err);
    if (!res.headersSent) res.status(500).json({ error: { code: 'INTERNAL_ERROR', message: 'failed' } });
  };
  app.use(onError);
  return app;
}

const app = buildApp();
let server: ReturnType<typeof app.listen>;
let base = '';
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A GET read to its end or its cut: the status, the bytes, and whether the answer ended whole. */
function fetchWhole(path: string) {
  return new Promise<{ status: number; text: string; complete: boolean }>((resolve, reject) => {
    get(`${base}${path}`, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('error', () => {});
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text, complete: res.complete }));
    }).on('error', reject);
  });
}

describe('a streamed answer', () => {
  it('is written whole with its status, media type and headers', async () => {
    const res = await fetchWhole('/numbers');
    expect(res).toMatchObject({ status: 200, complete: true });
    const written = res.text.split('\n');
    expect(written).toHaveLength(50_001);
    expect(written[49_999]).toBe('49999');
    const head = await request(app).get('/numbers');
    expect(head.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(head.headers['content-disposition']).toBe('attachment; filename="numbers.csv"');
  });

  it('refuses in the envelope while nothing is written yet', async () => {
    const res = await request(app).get('/numbers?missing=1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'NOT_THERE', message: 'No such thing.' } });
  });

  it('cuts the connection when the body fails after its first bytes, and hands the failure to the app', async () => {
    const before = failures.length;
    const res = await fetchWhole('/broken');
    expect(res.status).toBe(200);
    expect(res.complete).toBe(false);
    expect(res.text.startsWith('0\n1\n')).toBe(true);
    expect(res.text.split('\n').length).toBeLessThanOrEqual(20_001);
    expect(failures.length).toBe(before + 1);
    expect((failures.at(-1) as Error).message).toBe('the database went away');
  });

  it('answers HEAD with the headers and never reads the body', async () => {
    const res = await request(app).head('/counted');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(pulledByHead.lines).toBe(0);
  });
});
