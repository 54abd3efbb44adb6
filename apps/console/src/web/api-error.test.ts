import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, answer, done } from '../../web/src/api-error.ts';
import type { paths } from '../../web/src/console-api';
import { createConsoleHarness } from '../testing/index.ts';

// How the web UI's typed client hands the console API's answers to the pages: the body, or an
// ApiError with the envelope's code, message and field details, as the pages show them. Against
// the real app over loopback, and a proxy-like server whose error page is not the envelope.

const h = createConsoleHarness();
const servers: Server[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let api: ReturnType<typeof createClient<paths>>;
beforeAll(async () => {
  api = createClient<paths>({ baseUrl: await listen(createServer(h.app)) });
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await h.close();
});

describe('the web client’s answers and errors', () => {
  it('resolves to the answer’s body, and a 204 to undefined', async () => {
    const person = await h.signUp('client');
    const auth = { headers: { authorization: `Bearer ${person.token}` } };
    const me = await answer(api.GET('/api/me', auth));
    expect(me.user.email).toBe(person.email);
    await expect(done(api.POST('/api/auth/sign-out', auth))).resolves.toBeUndefined();
  });

  it('turns an error answer into an ApiError with its status, code, message and field details', async () => {
    const refused = await answer(
      api.POST('/api/auth/sign-up', { body: { email: 'not-an-email', password: 'x', name: 'A' } }),
    ).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    const error = refused as ApiError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_BODY');
    expect(error.message).toEqual(expect.any(String));
    expect(error.details.map((d) => d.path).sort()).toEqual(['email', 'password']);

    const unauthenticated = await done(api.POST('/api/auth/sign-out')).catch((err: unknown) => err);
    expect(unauthenticated).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', details: [] });
  });

  it('names an answer without the envelope (a proxy’s page, an empty body) by its status', async () => {
    const proxy = await listen(
      createServer((req, res) => {
        if (req.url === '/api/me') res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
        else res.writeHead(503).end();
      }),
    );
    const behindProxy = createClient<paths>({ baseUrl: proxy });
    await expect(answer(behindProxy.GET('/api/me'))).rejects.toMatchObject({
      status: 502,
      code: 'UNKNOWN',
      message: 'HTTP 502',
      details: [],
    });
    await expect(answer(behindProxy.GET('/api/team'))).rejects.toMatchObject({ status: 503, message: 'HTTP 503' });
  });
});
