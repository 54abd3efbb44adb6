import { hashApiKey } from '@vt/credentials';
import { dropDatabase } from '@vt/db';
import { freePort, isolatedQueuePrefix, runScript, testEnv } from '@vt/test-support';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

// `pnpm start` (= build the apps, then node apps/ops/dist/main.js start; the run's global setup
// built them from these sources) as a new user runs it, on a database that does not exist yet: it
// must create and migrate it, seed the demo team, start every compiled app, print the demo key,
// the demo login and URLs, and stop everything cleanly on SIGTERM.

const databaseUrl = testEnv.DATABASE_URL.replace(/\/([^/]+)$/, '/$1_quickstart');

describe('pnpm start', () => {
  afterAll(() => dropDatabase(databaseUrl));

  it('creates the database, seeds the demo, starts every app, prints a working demo key, and stops cleanly', async () => {
    const ports = {
      READ_API_PORT: await freePort(),
      CONSOLE_PORT: await freePort(),
      INGEST_GATEWAY_PORT: await freePort(),
      CRAWL_WORKER_METRICS_PORT: await freePort(),
      LEAD_WORKER_METRICS_PORT: await freePort(),
      ANSWER_COLLECTOR_METRICS_PORT: await freePort(),
      NOTIFIER_PORT: await freePort(),
    };
    const proc = runScript('apps/ops/dist/main.js', ['start'], {
      DATABASE_URL: databaseUrl,
      // Its workers must not take other test files' jobs.
      QUEUE_PREFIX: isolatedQueuePrefix(),
      HOST: '127.0.0.1',
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    });
    try {
      // A fresh clone builds the web UI and seeds 90 days first: about a minute on a quiet machine.
      const deadline = Date.now() + 150_000;
      while (!proc.stdout().includes('Operator CLI:') && Date.now() < deadline && proc.child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 200));
      }
      const out = proc.stdout();
      expect(out).toContain('AI visibility tracking is running.');
      expect(out).toContain(`http://localhost:${ports.READ_API_PORT}`);
      for (const port of Object.values(ports)) {
        expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status, `port ${port}`).toBe(200);
      }
      const key = /Demo API key: (vt_live_\w+)/.exec(out)?.[1];
      expect(key).toBeDefined();
      expect(out).toContain(`/api/ingest/crawl/`);
      expect(out).toContain(`/api/webhooks/leads/`);
      // The banner's read API lines work with the demo key: the demo data is on paid plans.
      const api = `http://127.0.0.1:${ports.READ_API_PORT}`;
      for (const path of ['/v1/responses?limit=5', '/v1/tasks', '/v1/visibility?limit=5']) {
        expect(out).toContain(path);
        const res = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${key}` } });
        const body = (await res.json()) as { data: unknown[]; total: number };
        expect(res.status, path).toBe(200);
        expect(body.data.length, path).toBeGreaterThan(0);
      }
      expect((await fetch(`${api}/docs`)).status).toBe(200);

      // The banner's demo login signs in to the console and sees the demo team's properties.
      const login = /Demo login: (\S+) \/ (\S+)/.exec(out);
      expect(login).not.toBeNull();
      const consoleUrl = `http://127.0.0.1:${ports.CONSOLE_PORT}`;
      expect(out).toContain(`http://localhost:${ports.CONSOLE_PORT}/api`);
      const signIn = await fetch(`${consoleUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: login?.[1], password: login?.[2] }),
      });
      expect(signIn.status).toBe(200);
      const { token } = (await signIn.json()) as { token: string };
      const properties = await fetch(`${consoleUrl}/api/properties`, { headers: { authorization: `Bearer ${token}` } });
      expect(properties.status).toBe(200);
      expect(((await properties.json()) as { properties: unknown[] }).properties.length).toBeGreaterThan(0);
      expect((await fetch(`${consoleUrl}/api/docs`)).status).toBe(200);

      // Mail: the embedded catcher takes what the notifier sends, and the console shows it.
      expect(out).toMatch(/Mail: caught by the embedded mail catcher at smtp:\/\/127\.0\.0\.1:\d+/);
      const session = { authorization: `Bearer ${token}` };
      const test = await fetch(`${consoleUrl}/api/team/emails/test`, { method: 'POST', headers: session });
      expect(test.status).toBe(201);
      const { email } = (await test.json()) as { email: { id: string } };
      const mailDeadline = Date.now() + 20_000;
      let listed: { emails: { id: string; status: string }[]; caughtMail: boolean } | undefined;
      for (;;) {
        listed = (await (await fetch(`${consoleUrl}/api/team/emails`, { headers: session })).json()) as typeof listed;
        if (listed?.emails.find((e) => e.id === email.id)?.status === 'sent' || Date.now() > mailDeadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(listed?.caughtMail).toBe(true);
      expect(listed?.emails.find((e) => e.id === email.id)?.status).toBe('sent');
      const caught = await fetch(`${consoleUrl}/api/team/emails/${email.id}/caught`, { headers: session });
      expect(caught.status).toBe(200);
      expect(await caught.json()).toMatchObject({ subject: 'AI Visibility: test email', to: login?.[1] });
      // The web UI was built on the way up and is served at / (and at any route it has).
      for (const path of ['/', '/sign-in']) {
        const page = await fetch(`${consoleUrl}${path}`);
        expect(page.status, path).toBe(200);
        expect(await page.text(), path).toContain('<div id="root"></div>');
      }

      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const stored = await client.query('SELECT 1 FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [
        hashApiKey(key!),
      ]);
      const responses = await client.query('SELECT count(*)::int AS n FROM responses');
      await client.end();
      expect(stored.rowCount).toBe(1);
      expect(responses.rows[0].n).toBeGreaterThan(1000);
    } finally {
      proc.child.kill('SIGTERM');
    }
    const code = await proc.exited;
    expect(code, `pnpm start exited ${code}; its output ends:\n${proc.stdout().slice(-4000)}`).toBe(0);
    // Each app got exactly one signal: a second one would have cut its graceful shutdown short.
    expect(proc.stdout()).not.toContain('second signal');
    for (const app of [
      'ingest-gateway',
      'crawl-worker',
      'lead-worker',
      'answer-collector',
      'notifier',
      'read-api',
      'console',
    ]) {
      expect(proc.stdout()).toMatch(new RegExp(`\\[${app}\\] .*shut down cleanly`));
    }
  }, 180_000);

  it('names Postgres, and how to start it, when Postgres does not answer', async () => {
    const proc = runScript('apps/ops/dist/main.js', ['start'], {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/visibility`,
    });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr().trim().split('\n')).toHaveLength(1);
    expect(proc.stderr()).toMatch(
      /^Postgres is not reachable at 127\.0\.0\.1:\d+ .*docker compose up -d postgres redis/,
    );
  });

  it('names Redis, and how to start it, when Redis does not answer', async () => {
    const proc = runScript('apps/ops/dist/main.js', ['start'], { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toMatch(/^Redis is not reachable at 127\.0\.0\.1:\d+ .*docker compose up -d postgres redis/);
  });
});
