import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createConsoleHarness, TEST_PASSWORD } from '../testing/index.ts';

// Accounts and sessions through real HTTP: sign-up, sign-in and sign-out, the session as cookie
// and as bearer, what is stored of passwords and tokens, the CSRF check on cookie writes, and the
// sign-in failure limit shared through Redis.

const h = createConsoleHarness({ signInLimits: { failuresPerEmail: 3, failuresPerClient: 8 } });
afterAll(() => h.close());

const signIn = (email: string, password: string, client = '203.0.113.1') =>
  request(h.app).post('/api/auth/sign-in').set('X-Forwarded-For', client).send({ email, password });

describe('sign-up and sign-in', () => {
  it('signs up with a session token and an httpOnly, SameSite=Lax cookie; the email is stored lower-cased', async () => {
    const email = `Ada-${Date.now()}@Example.TEST`;
    const res = await request(h.app).post('/api/auth/sign-up').send({ email, password: TEST_PASSWORD, name: ' Ada ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.any(String), email: email.toLowerCase(), name: 'Ada' },
      token: expect.stringMatching(/^vts_/),
      expiresAt: expect.any(String),
    });
    const cookie = res.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toContain(`vt_session=${res.body.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);

    const again = await request(h.app)
      .post('/api/auth/sign-up')
      .send({ email: email.toUpperCase(), password: TEST_PASSWORD, name: 'B' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('EMAIL_TAKEN');
  });

  it('marks the cookie Secure when the request came over TLS through the trusted proxy', async () => {
    const res = await request(h.app)
      .post('/api/auth/sign-up')
      .set('X-Forwarded-Proto', 'https')
      .send({ email: `tls-${Date.now()}@example.test`, password: TEST_PASSWORD, name: 'T' });
    expect(res.headers['set-cookie']?.[0]).toMatch(/; Secure/);
  });

  it('stores the password only as an argon2id hash and the session token only as its SHA-256', async () => {
    const person = await h.signUp('stored');
    const user = await h.db.user.findUniqueOrThrow({ where: { id: person.user.id }, include: { sessions: true } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user.passwordHash).not.toContain(TEST_PASSWORD);
    expect(user.sessions).toHaveLength(1);
    expect(JSON.stringify(user.sessions)).not.toContain(person.token);
  });

  it('refuses a short password, an unknown field and a bad email, naming each field', async () => {
    const res = await request(h.app)
      .post('/api/auth/sign-up')
      .send({ email: 'not-an-email', password: 'short', name: 'X', admin: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BODY');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['admin', 'email', 'password']);
  });

  it('answers an unknown email and a wrong password with the same 401, and signs in with the right one', async () => {
    const person = await h.signUp('login');
    const unknown = await signIn(`nobody-${Date.now()}@example.test`, TEST_PASSWORD, '198.51.100.7');
    const wrong = await signIn(person.email, 'wrong password!', '198.51.100.7');
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="console"');
    }
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');

    const ok = await signIn(person.email, TEST_PASSWORD, '198.51.100.7');
    expect(ok.status).toBe(200);
    expect(ok.body.user).toEqual(person.user);
    expect(ok.body.token).not.toBe(person.token);
  });
});

describe('sessions', () => {
  it('works as a bearer token and as the cookie, and GET /api/me names the person and their teams', async () => {
    const person = await h.signUp('me');
    const { teamId } = await h.teamOf(person);
    const viaBearer = await h.as(person.token).get('/api/me');
    const viaCookie = await request(h.app).get('/api/me').set('Cookie', person.cookie);
    expect(viaBearer.status).toBe(200);
    expect(viaCookie.body).toEqual(viaBearer.body);
    expect(viaBearer.body).toMatchObject({
      user: person.user,
      teams: [{ id: teamId, role: 'owner' }],
      currentTeamId: teamId,
    });
  });

  it('is revoked by sign-out at once, as bearer and as cookie, while another session of the person goes on', async () => {
    const person = await h.signUp('out');
    const other = (await signIn(person.email, TEST_PASSWORD, '198.51.100.9')).body.token as string;
    const out = await request(h.app)
      .post('/api/auth/sign-out')
      .set('Cookie', person.cookie)
      .set('Origin', CONSOLE_ORIGIN);
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie']?.[0]).toMatch(/vt_session=; .*Max-Age=0/);
    expect((await h.as(person.token).get('/api/me')).status).toBe(401);
    expect((await request(h.app).get('/api/me').set('Cookie', person.cookie)).status).toBe(401);
    expect((await h.as(other).get('/api/me')).status).toBe(200);
    expect(await h.db.session.count({ where: { userId: person.user.id } })).toBe(1);
  });

  it('ends when it expires', async () => {
    const short = createConsoleHarness({ sessionTtlMs: 60_000 });
    try {
      const person = await short.signUp('expiry');
      expect((await short.as(person.token).get('/api/me')).status).toBe(200);
      short.setNow(new Date(Date.now() + 61_000));
      const res = await short.as(person.token).get('/api/me');
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    } finally {
      await short.close();
    }
  });

  it('answers 401 with WWW-Authenticate for no session, a malformed header, a made-up token and an API key', async () => {
    const answers = await Promise.all([
      request(h.app).get('/api/me'),
      request(h.app).get('/api/me').set('Authorization', 'Basic YTpi'),
      request(h.app)
        .get('/api/me')
        .set('Authorization', `Bearer vts_${'x'.repeat(43)}`),
      request(h.app).get('/api/me').set('Authorization', 'Bearer vt_live_0000000000000000000000000000000000000000'),
      request(h.app).get('/api/me').set('Cookie', 'vt_session=nonsense'),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="console"');
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('CSRF: cookie-authenticated writes come from the console’s own origin', () => {
  const createTeam = (person: { cookie: string }, slug: string) =>
    request(h.app).post('/api/teams').set('Cookie', person.cookie).send({ name: 'CSRF', slug });

  it('refuses a cookie write with no Origin or Referer, a foreign Origin, a foreign Referer or Origin null, and writes nothing', async () => {
    const person = await h.signUp('csrf');
    const slug = `csrf-${Date.now()}`;
    const refused = await Promise.all([
      createTeam(person, slug),
      createTeam(person, slug).set('Origin', 'https://evil.example'),
      createTeam(person, slug).set('Referer', 'https://evil.example/page'),
      createTeam(person, slug).set('Origin', 'null'),
      createTeam(person, slug).set('Origin', 'https://console.example.test.evil.example'),
    ]);
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('CSRF_REJECTED');
    }
    expect(await h.db.team.count({ where: { slug } })).toBe(0);
  });

  it('accepts a cookie write from the console’s public origin, from the host it was sent to, or with its Referer', async () => {
    const person = await h.signUp('csrf-ok');
    const fromConsole = await createTeam(person, `ok1-${Date.now()}`).set('Origin', CONSOLE_ORIGIN);
    expect(fromConsole.status).toBe(201);
    const sameHost = await createTeam(person, `ok2-${Date.now()}`)
      .set('Host', 'console.internal:3002')
      .set('Origin', 'http://console.internal:3002');
    expect(sameHost.status).toBe(201);
    const byReferer = await createTeam(person, `ok3-${Date.now()}`).set('Referer', `${CONSOLE_ORIGIN}/settings`);
    expect(byReferer.status).toBe(201);
  });

  it('does not check reads, nor bearer writes (a browser never adds that header itself)', async () => {
    const person = await h.signUp('csrf-bearer');
    expect(
      (await request(h.app).get('/api/me').set('Cookie', person.cookie).set('Origin', 'https://evil.example')).status,
    ).toBe(200);
    const bearer = await h.as(person.token).post('/api/teams', { name: 'B', slug: `bearer-${Date.now()}` });
    expect(bearer.status).toBe(201);
  });

  it('refuses sign-in posted from a foreign page (login CSRF), and takes it from curl with no Origin', async () => {
    const person = await h.signUp('login-csrf');
    const foreign = await signIn(person.email, TEST_PASSWORD, '198.51.100.20').set('Origin', 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('CSRF_REJECTED');
    expect((await signIn(person.email, TEST_PASSWORD, '198.51.100.20')).status).toBe(200);
  });
});

describe('sign-in failure limit', () => {
  it('after the email’s failures, answers 429 with Retry-After even for the right password; other emails go on', async () => {
    const person = await h.signUp('limited');
    for (let i = 0; i < 3; i++)
      expect((await signIn(person.email, 'wrong password!', `192.0.2.${i}`)).status).toBe(401);
    const blocked = await signIn(person.email, TEST_PASSWORD, '192.0.2.50');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);
    const other = await h.signUp('not-limited');
    expect((await signIn(other.email, TEST_PASSWORD, '192.0.2.51')).status).toBe(200);
  });

  it('limits an unknown email exactly like a known one', async () => {
    const ghost = `ghost-${Date.now()}@example.test`;
    for (let i = 0; i < 3; i++) expect((await signIn(ghost, 'whatever-it-is', `192.0.2.${60 + i}`)).status).toBe(401);
    const blocked = await signIn(ghost, 'whatever-it-is', '192.0.2.70');
    expect(blocked.status).toBe(429);
  });

  it('limits one client across many emails', async () => {
    const client = '203.0.113.99';
    for (let i = 0; i < 8; i++) {
      expect((await signIn(`spray-${i}-${Date.now()}@example.test`, 'guess-number-1', client)).status).toBe(401);
    }
    const person = await h.signUp('sprayed');
    expect((await signIn(person.email, TEST_PASSWORD, client)).status).toBe(429);
    expect((await signIn(person.email, TEST_PASSWORD, '203.0.113.100')).status).toBe(200);
  });

  it('clears an email’s failures on a success', async () => {
    const person = await h.signUp('cleared');
    for (let i = 0; i < 2; i++) await signIn(person.email, 'wrong password!', `192.0.2.${80 + i}`);
    expect((await signIn(person.email, TEST_PASSWORD, '192.0.2.82')).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await signIn(person.email, 'wrong password!', `192.0.2.${83 + i}`)).status).toBe(401);
    expect((await signIn(person.email, TEST_PASSWORD, '192.0.2.85')).status).toBe(200);
  });

  it('is shared by every console replica through Redis', async () => {
    const replica = createConsoleHarness({
      prefix: h.prefix,
      signInLimits: { failuresPerEmail: 3, failuresPerClient: 8 },
    });
    try {
      const person = await h.signUp('shared');
      await signIn(person.email, 'wrong password!', '192.0.2.90');
      await request(replica.app)
        .post('/api/auth/sign-in')
        .set('X-Forwarded-For', '192.0.2.91')
        .send({ email: person.email, password: 'wrong password!' });
      await signIn(person.email, 'wrong password!', '192.0.2.92');
      const res = await request(replica.app)
        .post('/api/auth/sign-in')
        .set('X-Forwarded-For', '192.0.2.93')
        .send({ email: person.email, password: TEST_PASSWORD });
      expect(res.status).toBe(429);
    } finally {
      await replica.close();
    }
  });
});
