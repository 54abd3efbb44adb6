import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createConsoleHarness, type SignedUp, TEST_PASSWORD } from '../testing/index.ts';

// CSRF by Origin check: a write that carries the session cookie must come from the console's
// public origin or from the host it was sent to (Origin, else Referer); refused, it changes
// nothing. Reads are not checked, nor bearer writes. Sign-in posted from a foreign page is
// refused (login CSRF) while a script's sign-in, with no Origin, goes through.

const h = createConsoleHarness();

// One server this file listens on itself, so supertest sends `Host: 127.0.0.1:<port>` with a
// port known before the request (on an app it would start a server, and a port, per request).
let server: Server;
let ownOrigin: string;
beforeAll(async () => {
  server = createServer(h.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ownOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  await h.close();
});

const newSlug = () => `csrf-${randomBytes(5).toString('hex')}`;

/** POST /api/teams authenticated by the session cookie alone; callers add Origin or Referer. */
const createTeamByCookie = (person: SignedUp, slug: string) =>
  request(server).post('/api/teams').set('Cookie', person.cookie).send({ name: 'CSRF', slug });

const signIn = (person: SignedUp) =>
  request(server).post('/api/auth/sign-in').send({ email: person.email, password: TEST_PASSWORD });

function expectRefused(res: request.Response) {
  expect(res.status).toBe(403);
  expect(res.body.error.code).toBe('CSRF_REJECTED');
}

describe('cookie-authenticated writes', () => {
  it('are refused with no Origin and no Referer, and create nothing', async () => {
    const person = await h.signUp('csrf-bare');
    const slug = newSlug();
    expectRefused(await createTeamByCookie(person, slug));
    expect(await h.db.team.count({ where: { slug } })).toBe(0);
    expect(await h.db.membership.count({ where: { userId: person.user.id } })).toBe(0);
  });

  it('are refused from a foreign Origin, a look-alike of the console’s, or another scheme or port of it', async () => {
    const person = await h.signUp('csrf-foreign');
    const slug = newSlug();
    for (const origin of [
      'https://evil.example',
      'https://console.example.test.evil.example',
      'http://console.example.test',
      'https://console.example.test:8443',
    ]) {
      expectRefused(await createTeamByCookie(person, slug).set('Origin', origin));
    }
    expect(await h.db.team.count({ where: { slug } })).toBe(0);
  });

  it('are refused with a foreign Referer and no Origin, and with Origin `null`', async () => {
    const person = await h.signUp('csrf-referer');
    const slug = newSlug();
    expectRefused(await createTeamByCookie(person, slug).set('Referer', 'https://evil.example/page'));
    expectRefused(await createTeamByCookie(person, slug).set('Origin', 'null'));
    expectRefused(await createTeamByCookie(person, slug).set('Origin', 'null').set('Referer', `${CONSOLE_ORIGIN}/x`));
    expect(await h.db.team.count({ where: { slug } })).toBe(0);
  });

  it('are refused when Origin is foreign even if the Referer is the console’s', async () => {
    const person = await h.signUp('csrf-both');
    const slug = newSlug();
    const res = await createTeamByCookie(person, slug)
      .set('Origin', 'https://evil.example')
      .set('Referer', `${CONSOLE_ORIGIN}/teams/new`);
    expectRefused(res);
    expect(await h.db.team.count({ where: { slug } })).toBe(0);
  });

  it('change nothing when refused: a forged sign-out leaves the session, a forged selection leaves none', async () => {
    const owner = await h.signUp('csrf-owner');
    const person = await h.signUp('csrf-nothing');
    const { teamId } = await h.teamOf(owner, [{ person, role: 'member' }]);
    expectRefused(
      await request(server)
        .post('/api/auth/sign-out')
        .set('Cookie', person.cookie)
        .set('Origin', 'https://evil.example'),
    );
    expectRefused(
      await request(server)
        .put('/api/session/team')
        .set('Cookie', person.cookie)
        .set('Origin', 'https://evil.example')
        .send({ teamId }),
    );
    const sessions = await h.db.session.findMany({ where: { userId: person.user.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.teamId).toBeNull();
    expect((await request(server).get('/api/me').set('Cookie', person.cookie)).status).toBe(200);
  });

  it('are accepted from the console’s public origin (CONSOLE_ORIGIN)', async () => {
    const person = await h.signUp('csrf-console');
    const slug = newSlug();
    const res = await createTeamByCookie(person, slug).set('Origin', CONSOLE_ORIGIN);
    expect(res.status).toBe(201);
    expect(await h.db.team.count({ where: { slug } })).toBe(1);
  });

  it('are accepted with no Origin when the Referer is a page of the console', async () => {
    const person = await h.signUp('csrf-console-referer');
    const slug = newSlug();
    expect((await createTeamByCookie(person, slug).set('Referer', `${CONSOLE_ORIGIN}/teams/new`)).status).toBe(201);
    expect(await h.db.team.count({ where: { slug } })).toBe(1);
  });

  it('are accepted from the origin of the host they were sent to (same origin), and only that one', async () => {
    const person = await h.signUp('csrf-same-host');
    const slug = newSlug();
    const port = new URL(ownOrigin).port;
    expectRefused(await createTeamByCookie(person, slug).set('Origin', `http://localhost:${port}`));
    expectRefused(await createTeamByCookie(person, slug).set('Origin', `https://127.0.0.1:${port}`));
    expectRefused(await createTeamByCookie(person, slug).set('Origin', `http://127.0.0.1:${Number(port) + 1}`));
    const res = await createTeamByCookie(person, slug).set('Origin', ownOrigin);
    expect(res.status).toBe(201);
    expect(await h.db.team.count({ where: { slug } })).toBe(1);
  });
});

describe('what is not checked', () => {
  it('reads: a GET with the cookie and no Origin, or a foreign one, answers', async () => {
    const person = await h.signUp('csrf-read');
    const bare = await request(server).get('/api/me').set('Cookie', person.cookie);
    expect(bare.status).toBe(200);
    expect(bare.body.user).toEqual(person.user);
    const foreign = await request(server)
      .get('/api/me')
      .set('Cookie', person.cookie)
      .set('Origin', 'https://evil.example');
    expect(foreign.status).toBe(200);
  });

  it('bearer writes need no Origin (a browser never adds that header itself)', async () => {
    const person = await h.signUp('csrf-bearer');
    const bare = newSlug();
    const foreign = newSlug();
    expect((await h.as(person.token).post('/api/teams', { name: 'B', slug: bare })).status).toBe(201);
    const withOrigin = await h
      .as(person.token)
      .post('/api/teams', { name: 'B', slug: foreign })
      .set('Origin', 'https://evil.example');
    expect(withOrigin.status).toBe(201);
    expect(await h.db.team.count({ where: { slug: { in: [bare, foreign] } } })).toBe(2);
  });
});

describe('sign-in (login CSRF)', () => {
  it('is refused from a foreign Origin, and no session starts', async () => {
    const person = await h.signUp('login-csrf');
    const res = await signIn(person).set('Origin', 'https://evil.example');
    expectRefused(res);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await h.db.session.count({ where: { userId: person.user.id } })).toBe(1);
  });

  it('goes through with no Origin at all (curl), and from the console’s origin', async () => {
    const person = await h.signUp('login-curl');
    const curl = await signIn(person);
    expect(curl.status).toBe(200);
    expect(curl.body.user).toEqual(person.user);
    expect((await signIn(person).set('Origin', CONSOLE_ORIGIN)).status).toBe(200);
    expect(await h.db.session.count({ where: { userId: person.user.id } })).toBe(3);
  });
});
