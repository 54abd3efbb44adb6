import express, { type ErrorRequestHandler } from 'express';
import { Registry } from 'prom-client';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelope } from './error-envelope.ts';
import { defineErrorStatuses } from './error-statuses.ts';
import { operationFamily } from './operation.ts';
import { createOperationRouter } from './operation-router.ts';
import { Refusal } from './refusal.ts';

// The kit's router over real HTTP (supertest on loopback) with a small family of its own: the
// methods of a path, OPTIONS and 405 with Allow, validation into the family's envelope, refusals,
// the answer parsed by its schema, and the per-operation metrics under the family's names.

const STATUS = defineErrorStatuses({ INVALID_INPUT: 400, NO_CALLER: 401, NOT_JSON: 415 });
type Code = keyof typeof STATUS;
class TestRefusal extends Refusal<Code> {}

const defineOperation = operationFamily<{ caller: string }, { open: boolean }>();
const operations = [
  defineOperation({
    operationId: 'listThings',
    method: 'get',
    path: '/t/things',
    meta: { open: true },
    query: z.object({ limit: z.string().regex(/^\d+$/).transform(Number).optional() }),
    response: z.object({ limit: z.number(), caller: z.string() }),
    // The answer carries a field the schema does not name: it must not leave.
    handle: async ({ query, caller }) => ({ limit: query.limit ?? 10, caller, secret: 'hash' }),
  }),
  defineOperation({
    operationId: 'createThing',
    method: 'post',
    path: '/t/things',
    status: 201,
    meta: { open: false },
    body: z.object({ name: z.string().min(1) }),
    response: z.object({ name: z.string() }),
    handle: async ({ body }) => {
      if (body.name === 'taken') throw new TestRefusal('INVALID_INPUT', 'That name is taken.');
      if (body.name === 'crash') throw new Error('database away');
      return { name: body.name };
    },
  }),
  defineOperation({
    operationId: 'deleteThing',
    method: 'delete',
    path: '/t/things/{id}',
    status: 204,
    meta: { open: false },
    params: z.object({ id: z.uuid() }),
    handle: async () => undefined,
  }),
];

function buildApp() {
  const registry = new Registry();
  const app = express();
  app.use(express.json());
  app.use(
    '/t',
    createOperationRouter({
      operations,
      mountedAt: '/t',
      metrics: { registry, prefix: 'vt_test', subject: 'Test API' },
      sendError: errorEnvelope<Code>({
        statuses: STATUS,
        body: (code, message, details) => ({ error: { code, message, ...(details ? { details } : {}) } }),
        challenge: (_code, status) => (status === 401 ? 'Bearer realm="test"' : undefined),
      }),
      refusal: TestRefusal,
      context: async (req, _res, operation) => {
        const caller = req.get('x-caller');
        if (!caller && !operation.meta.open) throw new TestRefusal('NO_CALLER', 'Say who you are.');
        return { caller: caller ?? 'anyone' };
      },
      invalidInput: (part, error) =>
        new TestRefusal('INVALID_INPUT', `Invalid ${part}.`, [
          { path: error.issues[0]?.path.join('.') ?? '', message: 'bad' },
        ]),
      bodyNotJson: () => new TestRefusal('NOT_JSON', 'Send JSON.'),
      methodNotAllowed: (method, allow) => new TestRefusal('METHOD_NOT_ALLOWED', `${method}: use ${allow}.`),
    }),
  );
  const onError: ErrorRequestHandler = (_err, _req, res, _next) => {
    res.status(500).json({ error: { code: 'INTERNAL_ERROR', message: 'failed' } });
  };
  app.use(onError);
  return { app, registry };
}

describe('createOperationRouter', () => {
  it('answers each method of a path with its operation, HEAD with GET’s headers, and OPTIONS with 204 and Allow', async () => {
    const { app } = buildApp();
    const list = await request(app).get('/t/things?limit=5');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ limit: 5, caller: 'anyone' });
    const head = await request(app).head('/t/things');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    const created = await request(app).post('/t/things').set('x-caller', 'ann').send({ name: 'lamp' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: 'lamp' });
    const options = await request(app).options('/t/things');
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('answers any other method 405 with Allow, in the family’s envelope', async () => {
    const { app } = buildApp();
    const res = await request(app).put('/t/things/3f0b6c1e-9a4d-4c1b-8f2e-2a6b7c8d9e0f');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('DELETE, OPTIONS');
    expect(res.body).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'PUT: use DELETE, OPTIONS.' } });
  });

  it('checks the caller before any input, then params, query and body, each refused in the family’s envelope', async () => {
    const { app } = buildApp();
    const anonymous = await request(app).post('/t/things').send({ name: '' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="test"');
    expect(anonymous.body.error.code).toBe('NO_CALLER');
    const badQuery = await request(app).get('/t/things?limit=ten');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body).toEqual({
      error: { code: 'INVALID_INPUT', message: 'Invalid query.', details: [{ path: 'limit', message: 'bad' }] },
    });
    const badParams = await request(app).delete('/t/things/not-a-uuid').set('x-caller', 'ann');
    expect(badParams.body.error.message).toBe('Invalid params.');
    const notJson = await request(app).post('/t/things').set('x-caller', 'ann').type('text').send('name=lamp');
    expect(notJson.status).toBe(415);
    const badBody = await request(app).post('/t/things').set('x-caller', 'ann').send({ name: '' });
    expect(badBody.body.error).toMatchObject({ code: 'INVALID_INPUT', message: 'Invalid body.' });
  });

  it('sends a handler’s refusal in the envelope and passes any other error to the app’s handler', async () => {
    const { app } = buildApp();
    const taken = await request(app).post('/t/things').set('x-caller', 'ann').send({ name: 'taken' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ error: { code: 'INVALID_INPUT', message: 'That name is taken.' } });
    const crash = await request(app).post('/t/things').set('x-caller', 'ann').send({ name: 'crash' });
    expect(crash.status).toBe(500);
  });

  it('answers a 204 with no body', async () => {
    const { app } = buildApp();
    const res = await request(app).delete('/t/things/3f0b6c1e-9a4d-4c1b-8f2e-2a6b7c8d9e0f').set('x-caller', 'ann');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('counts and times every request by operation and status under the family’s metric names', async () => {
    const { app, registry } = buildApp();
    await request(app).get('/t/things');
    await request(app).get('/t/things?limit=x');
    await request(app).post('/t/things').send({});
    const text = await registry.metrics();
    expect(text).toContain('# HELP vt_test_requests_total Test API requests by operation and answer status.');
    expect(text).toContain('vt_test_requests_total{operation="listThings",status="200"} 1');
    expect(text).toContain('vt_test_requests_total{operation="listThings",status="400"} 1');
    expect(text).toContain('vt_test_requests_total{operation="createThing",status="401"} 1');
    expect(text).toContain('vt_test_request_duration_seconds_count{operation="listThings",status="200"} 1');
  });
});
