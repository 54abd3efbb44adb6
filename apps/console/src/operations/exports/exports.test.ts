import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPrismaClient } from '@vt/db';
import { openCsvExport } from '@vt/exports';
import { BOM, parseCsv, seedExportRows } from '@vt/exports/testing';
import { testEnv } from '@vt/test-support';
import type request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// GET /api/properties/{id}/exports/{answers,crawlers,referrals,leads}?from=&to=: the CSV of
// packages/exports as a download, with the view's rules: members export what they see, only
// owners and admins export leads (personal data), another team's property is a 404, and a bad
// range is a 400 in the envelope. An export that fails after its first bytes is cut, not ended.

const TODAY = new Date('2026-04-20T15:00:00Z');
const h = createConsoleHarness({ now: TODAY });
afterAll(() => h.close());

const KINDS = ['answers', 'crawlers', 'referrals', 'leads'] as const;

async function teamWithProperty() {
  const owner = await h.signUp('owner');
  const admin = await h.signUp('admin');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [
    { person: admin, role: 'admin' },
    { person: member, role: 'member' },
  ]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', {
    name: 'Acme Analytics',
    domain: 'acme.example',
    plan: 'growth',
  });
  const id: string = created.body.property.id;
  await seedExportRows(h.db, id);
  const property = await h.db.property.findUniqueOrThrow({ where: { id } });
  return { owner, admin, member, teamId, as, id, property };
}

/** The bytes of a CSV answer, whatever supertest would make of them. */
const bytes = (test: request.Test) =>
  test.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

const day = (text: string) => new Date(`${text}T00:00:00Z`);

describe('CSV exports in the console', () => {
  it('answers each kind as a CSV download: the package’s exact bytes, its media type and a file name', async () => {
    const t = await teamWithProperty();
    for (const kind of KINDS) {
      const res = await bytes(
        t.as(t.owner).get(`/api/properties/${t.id}/exports/${kind}?from=2026-04-01&to=2026-04-02`),
      );
      expect(res.status, kind).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="acme-analytics-${kind}-2026-04-01-to-2026-04-02.csv"`,
      );
      expect(res.headers['cache-control']).toBe('no-store');
      const expected = await openCsvExport(h.db, {
        kind,
        property: t.property,
        from: day('2026-04-01'),
        to: day('2026-04-02'),
      });
      const chunks: Buffer[] = [];
      for await (const chunk of expected.body) chunks.push(chunk as Buffer);
      expect((res.body as Buffer).equals(Buffer.concat(chunks)), kind).toBe(true);
    }
    const answers = await bytes(
      t.as(t.member).get(`/api/properties/${t.id}/exports/answers?from=2026-04-01&to=2026-04-02`),
    );
    const rows = parseCsv((answers.body as Buffer).toString('utf8'));
    expect(rows.map((r) => [r[0], r[1], r[5]])).toEqual([
      ['Date', 'Platform', 'Rank among brands'],
      ['2026-04-01', 'ChatGPT', '1'],
      ['2026-04-01', 'Perplexity', '2'],
      ['2026-04-02', 'ChatGPT', ''],
    ]);
    // A spreadsheet shows the hostile prompt as text instead of running it.
    expect(rows[3]?.[2]).toBe(`'=HYPERLINK("http://evil.example","click")`);
  });

  it('lets members export answers, crawlers and referrals, and only owners and admins export leads', async () => {
    const t = await teamWithProperty();
    const leads = `/api/properties/${t.id}/exports/leads?from=2026-04-01&to=2026-04-02`;
    for (const kind of ['answers', 'crawlers', 'referrals']) {
      expect((await t.as(t.member).get(`/api/properties/${t.id}/exports/${kind}`)).status, kind).toBe(200);
    }
    const refused = await t.as(t.member).get(leads);
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect(refused.text).not.toContain('zoe@example.com');
    for (const person of [t.owner, t.admin]) {
      const res = await bytes(t.as(person).get(leads));
      expect(res.status).toBe(200);
      expect((res.body as Buffer).toString('utf8')).toContain('zoe@example.com');
    }
  });

  it('answers another team’s property, a made-up id and an unknown kind with 404', async () => {
    const t = await teamWithProperty();
    const other = await teamWithProperty();
    for (const path of [
      `/api/properties/${other.id}/exports/answers`,
      '/api/properties/00000000-0000-4000-8000-000000000000/exports/crawlers',
      '/api/properties/not-a-uuid/exports/referrals',
      `/api/properties/${t.id}/exports/tasks`,
      `/api/properties/${t.id}/exports`,
    ]) {
      const res = await t.as(t.owner).get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(res.text).not.toContain('Acme');
    }
  });

  it('refuses a malformed, reversed or over-long range with 400 INVALID_PARAM, and takes a whole leap year', async () => {
    const t = await teamWithProperty();
    const answers = (query: string) => t.as(t.owner).get(`/api/properties/${t.id}/exports/answers?${query}`);
    for (const query of [
      'from=2026-02-30&to=2026-03-01',
      'from=yesterday',
      'from=2026-04-02&to=2026-04-01',
      'from=2025-01-01&to=2026-01-02',
      `from=${'9'.repeat(5000)}`,
    ]) {
      const res = await answers(query);
      expect(res.status, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.error.code).toBe('INVALID_PARAM');
      expect(res.text).not.toMatch(/at .+\.ts:\d+/);
    }
    const leapYear = await bytes(answers('from=2024-01-01&to=2024-12-31'));
    expect(leapYear.status).toBe(200);
    expect(leapYear.headers['content-disposition']).toContain('answers-2024-01-01-to-2024-12-31.csv');
  });

  it('covers the 30 UTC days ending today when no range is given', async () => {
    const t = await teamWithProperty();
    const res = await bytes(t.as(t.owner).get(`/api/properties/${t.id}/exports/referrals`));
    expect(res.headers['content-disposition']).toContain('referrals-2026-03-22-to-2026-04-20.csv');
    expect(parseCsv((res.body as Buffer).toString('utf8')).map((r) => r[0])).toEqual([
      'Date',
      '2026-04-01',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
    ]);
  });

  it('cuts the connection when the database goes away in the middle of an export: the download is visibly incomplete', async () => {
    // A console of its own, over a Prisma client of its own that the test takes away.
    const own = createPrismaClient({
      DATABASE_URL: testEnv.DATABASE_URL,
      DATABASE_POOL_MAX: 2,
      DATABASE_CONNECT_TIMEOUT_MS: 2000,
      DATABASE_IDLE_TIMEOUT_MS: 1000,
      DATABASE_STATEMENT_TIMEOUT_MS: 10_000,
    });
    const cut = createConsoleHarness({ now: TODAY, db: own });
    const owner = await cut.signUp('cut-owner');
    const { teamId } = await cut.teamOf(owner);
    const created = await cut
      .as(owner.token, teamId)
      .post('/api/properties', { name: 'Big', domain: 'big.example', plan: 'growth' });
    const propertyId: string = created.body.property.id;
    // 4,000 leads of about 4 KB each: 16 MB of CSV, far more than the socket buffers between the
    // console and a client that stops reading, so the export is mid-way when the database goes.
    await h.db.$executeRaw`
      INSERT INTO leads (id, property_id, event_id, contact, landing_path, referrer, matched, received_at, day)
      SELECT gen_random_uuid(), ${propertyId}::uuid, 'evt-' || n, 'lead ' || n, '/' || repeat('p', 2000),
        'https://ref.example/' || repeat('r', 2000), false, '2026-04-10T12:00:00Z'::timestamptz + n * interval '1 ms', '2026-04-10'
      FROM generate_series(1, 4000) AS n`;
    const server = cut.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; text: string; complete: boolean }>((resolve, reject) => {
        const req = get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/properties/${propertyId}/exports/leads?from=2026-04-01&to=2026-04-20`,
            headers: { authorization: `Bearer ${owner.token}`, 'x-team-id': teamId },
          },
          (res: IncomingMessage) => {
            let text = '';
            res.setEncoding('utf8');
            res.once('data', async (first: string) => {
              text += first;
              res.pause();
              await own.$disconnect(); // no further page can be read
              res.on('data', (chunk: string) => {
                text += chunk;
              });
              res.resume();
            });
            res.on('error', () => {});
            res.on('close', () => resolve({ status: res.statusCode ?? 0, text, complete: res.complete }));
          },
        );
        req.on('error', reject);
      });
      expect(answer.status).toBe(200);
      expect(answer.complete).toBe(false);
      expect(answer.text.startsWith(`${BOM}Received at (UTC),Date,`)).toBe(true);
      const rows = answer.text.split('\r\n').length - 2;
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(4000);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await cut.close();
    }
  });
});
