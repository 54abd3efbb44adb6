import { createPrismaClient } from '@vt/db';
import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { openCsvExport } from './csv-export.ts';
import { exportFilename } from './export-filename.ts';
import type { ExportKind } from './export-kinds.ts';
import { BOM, parseCsv, seedExportRows, seedProperty } from './testing/index.ts';

// Each kind of export over real Postgres, read back with csv-parse: the exact cells of seeded
// rows, the inclusive UTC range, RFC 4180 quoting, and text a spreadsheet would run as a formula.

const db = testDb();
const day = (text: string) => new Date(`${text}T00:00:00Z`);

async function seeded() {
  const { property } = await seedProperty(db, uniqueSlug('export'));
  await seedExportRows(db, property.id);
  return property;
}

async function exportText(
  property: Awaited<ReturnType<typeof seeded>>,
  kind: ExportKind,
  from = '2026-04-01',
  to = '2026-04-02',
) {
  const csv = await openCsvExport(db, { kind, property, from: day(from), to: day(to) });
  const chunks: Buffer[] = [];
  for await (const chunk of csv.body) chunks.push(chunk as Buffer);
  return { filename: csv.filename, text: Buffer.concat(chunks).toString('utf8') };
}

describe('CSV exports', () => {
  it('answers: one row per answer in the range with its verdict, rank, competitors and sources, oldest first', async () => {
    const property = await seeded();
    const id = async (d: string, model: string) =>
      (await db.response.findFirstOrThrow({ where: { propertyId: property.id, day: day(d), model } })).id;
    const { filename, text } = await exportText(property, 'answers');
    expect(filename).toBe('acme-analytics-answers-2026-04-01-to-2026-04-02.csv');
    expect(parseCsv(text)).toEqual([
      [
        'Date',
        'Platform',
        'Prompt',
        'Brand mentioned',
        'Matched term',
        'Rank among brands',
        'Brands named',
        'First mention at character',
        'Sentiment',
        'Sentiment in words',
        'Competitors named',
        'Cited sources',
        'Excerpt',
        'Answer id',
      ],
      [
        '2026-04-01',
        'ChatGPT',
        'best analytics, "really" cheap?',
        'true',
        'Acme',
        '1',
        '3',
        '0',
        '-0.25',
        'negative',
        'Initech; Globex',
        '',
        'Acme first,\nthen Initech and Globex',
        await id('2026-04-01', 'chatgpt'),
      ],
      [
        '2026-04-01',
        'Perplexity',
        'best analytics, "really" cheap?',
        'true',
        'Acme',
        '2',
        '2',
        '40',
        '0.612',
        'positive',
        'Globex',
        'https://acme.example/pricing https://review.example/a,b',
        'Globex, then Acme: "fast", café-friendly',
        await id('2026-04-01', 'perplexity'),
      ],
      [
        '2026-04-02',
        'ChatGPT',
        `'=HYPERLINK("http://evil.example","click")`,
        'false',
        '',
        '',
        '1',
        '',
        '',
        '',
        'Initech',
        'https://initech.example/',
        "'-1 reason: @everyone +2",
        await id('2026-04-02', 'chatgpt'),
      ],
    ]);
  });

  it('crawlers: hits per day and crawler by verification, dual-use crawlers marked as not counted', async () => {
    const property = await seeded();
    const { text } = await exportText(property, 'crawlers');
    expect(parseCsv(text)).toEqual([
      ['Date', 'Crawler', 'Operator', 'Category', 'Counted as AI', 'Hits', 'Verified', 'Unverified', 'Unverifiable'],
      ['2026-04-01', 'ClaudeBot', 'Anthropic', 'ai-training', 'true', '11', '0', '0', '11'],
      ['2026-04-01', 'GPTBot', 'OpenAI', 'ai-training', 'true', '7', '5', '2', '0'],
      ['2026-04-02', 'Applebot', 'Apple', 'dual-use', 'false', '40', '40', '0', '0'],
    ]);
    const counting = { ...property, countDualUseAsAi: true };
    expect(parseCsv((await exportText(counting, 'crawlers')).text)[3]?.[4]).toBe('true');
  });

  it('referrals: visits per day, platform and landing path', async () => {
    const property = await seeded();
    const { text } = await exportText(property, 'referrals');
    expect(parseCsv(text)).toEqual([
      ['Date', 'Platform', 'Landing path', 'Visits'],
      ['2026-04-01', 'ChatGPT', '/pricing', '3'],
      ['2026-04-01', 'Perplexity', '/', '1'],
      ['2026-04-02', 'ChatGPT', '/a,"b"', '7'],
    ]);
  });

  it('leads: every stored field of the leads received in the range (its first and last millisecond included)', async () => {
    const property = await seeded();
    const ids = Object.fromEntries(
      (await db.lead.findMany({ where: { propertyId: property.id } })).map((l) => [l.eventId, l.id]),
    );
    const { text } = await exportText(property, 'leads');
    expect(parseCsv(text)).toEqual([
      [
        'Received at (UTC)',
        'Date',
        'Attributed to AI',
        'AI platform',
        'Contact',
        'Email',
        'Landing path',
        'Referrer',
        'UTM source',
        'UTM medium',
        'Session id',
        'Event id',
        'Lead id',
      ],
      [
        '2026-04-01T09:15:00.250Z',
        '2026-04-01',
        'true',
        'ChatGPT',
        'Zoë Martín',
        'zoe@example.com',
        '/pricing',
        'https://chatgpt.com/',
        'chatgpt.com',
        'referral',
        's-1',
        'evt-1',
        ids['evt-1'],
      ],
      [
        '2026-04-02T23:59:59.999Z',
        '2026-04-02',
        'false',
        '',
        "'=1+2",
        '',
        '',
        '',
        "'@SUM(A1)",
        "'\tcmd",
        '',
        'evt-2',
        ids['evt-2'],
      ],
    ]);
    const wider = parseCsv((await exportText(property, 'leads', '2026-03-31', '2026-04-03')).text);
    expect(wider.map((row) => row[11])).toEqual(['Event id', 'evt-0', 'evt-1', 'evt-2', 'evt-3']);
  });

  it('writes RFC 4180 on the wire: a BOM, CRLF line ends, quotes doubled inside quoted fields, accents as UTF-8', async () => {
    const property = await seeded();
    const { text } = await exportText(property, 'answers');
    expect(text.startsWith(`${BOM}Date,Platform,Prompt,`)).toBe(true);
    expect(text).toContain(',"best analytics, ""really"" cheap?",');
    expect(text).toContain('"Acme first,\nthen Initech and Globex"');
    // A negative number is a number, not text to guard.
    expect(text).toContain(',0,-0.25,negative,');
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.includes(Buffer.from('café', 'utf8'))).toBe(true);
    expect(text.split('\r\n')).toHaveLength(5); // header, three rows (one spans two lines inside quotes), ''
  });

  it('writes the header row alone for a range with nothing in it', async () => {
    const property = await seeded();
    for (const kind of ['answers', 'crawlers', 'referrals', 'leads'] as const) {
      const { text } = await exportText(property, kind, '2025-01-01', '2025-01-31');
      expect(parseCsv(text), kind).toHaveLength(1);
    }
  });

  it('refuses a range that is reversed or longer than 366 days, before reading anything', async () => {
    const property = await seeded();
    const open = (from: string, to: string) =>
      openCsvExport(db, { kind: 'answers', property, from: day(from), to: day(to) });
    await expect(open('2026-04-02', '2026-04-01')).rejects.toThrow('is after to');
    await expect(open('2025-01-01', '2026-01-02')).rejects.toThrow('at most 366 days (this one 367)');
    const year = await open('2025-01-01', '2026-01-01');
    year.body.destroy();
  });

  it('names the file by the property (or its domain), the kind and the range', () => {
    const range = [day('2026-01-01'), day('2026-12-31')] as const;
    expect(exportFilename({ name: 'Crème Brûlée & Co.', domain: 'x.example' }, 'leads', ...range)).toBe(
      'creme-brulee-co-leads-2026-01-01-to-2026-12-31.csv',
    );
    expect(exportFilename({ name: '日本', domain: 'shop.example.jp' }, 'crawlers', ...range)).toBe(
      'shop-example-jp-crawlers-2026-01-01-to-2026-12-31.csv',
    );
  });

  it('fails the open itself when the database is away before the first byte', async () => {
    const property = await seeded();
    // Nothing listens on port 1 of loopback: every connection is refused.
    const away = createPrismaClient({
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/visibility',
      DATABASE_POOL_MAX: 1,
      DATABASE_CONNECT_TIMEOUT_MS: 2000,
      DATABASE_IDLE_TIMEOUT_MS: 1000,
      DATABASE_STATEMENT_TIMEOUT_MS: 5000,
    });
    await expect(
      openCsvExport(away, { kind: 'referrals', property, from: day('2026-04-01'), to: day('2026-04-02') }),
    ).rejects.toThrow(/ECONNREFUSED/);
    await away.$disconnect();
  });
});
