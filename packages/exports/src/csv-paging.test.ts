import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createPrismaClient } from '@vt/db';
import { testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { openCsvExport } from './csv-export.ts';
import { seedProperty } from './testing/index.ts';

// A year of rows leaves in keyset pages, each read only once the reader has taken most of the
// page before: counted in rows, not timed. A reader that goes away stops the reading; a database
// that goes away mid-export fails the body, which its writer turns into a cut connection.

const db = testDb();
const FROM = new Date('2025-01-01T00:00:00Z');
const TO = new Date('2026-01-01T00:00:00Z'); // 366 days
const PLATFORMS = ['chatgpt', 'claude', 'copilot', 'gemini', 'perplexity'];
const PATHS = 10;
const ROWS = 366 * PLATFORMS.length * PATHS;
const PAGE = 500;

let property: Awaited<ReturnType<typeof seedProperty>>['property'];
beforeAll(async () => {
  ({ property } = await seedProperty(db, uniqueSlug('export-year')));
  // One statement: as many rows through Prisma's createMany take seconds to build.
  await db.$executeRaw`
    INSERT INTO ai_referral_daily_counts (property_id, day, platform, landing_path, visits)
    SELECT ${property.id}::uuid, d::date, platform, '/page-' || p, extract(doy FROM d)::int + p
    FROM generate_series(${FROM}::timestamptz, ${TO}::timestamptz, interval '1 day') AS d,
      unnest(${PLATFORMS}::text[]) AS platform, generate_series(0, ${PATHS - 1}) AS p`;
  expect(await db.aiReferralDailyCount.count({ where: { propertyId: property.id } })).toBe(ROWS);
});

/** Records (CRLF-ended lines: no referral cell holds a line break) in a chunk of CSV. */
const recordsIn = (chunk: Buffer) => chunk.toString('latin1').split('\r\n').length - 1;

describe('a year of rows', () => {
  it('is read a page at a time, only as fast as a slow reader takes the CSV', async () => {
    const pages: number[] = [];
    let read = 0;
    let written = -1; // the header is not a row
    let mostInFlight = 0;
    const csv = await openCsvExport(
      db,
      { kind: 'referrals', property, from: FROM, to: TO },
      {
        pageRows: PAGE,
        onPage: (rows) => {
          pages.push(rows);
          read += rows;
          mostInFlight = Math.max(mostInFlight, read - written);
        },
      },
    );
    // A reader with a 1 KiB buffer that takes each chunk on a later turn of the event loop.
    const slowReader = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        written += recordsIn(chunk);
        setImmediate(done);
      },
    });
    await pipeline(csv.body, slowReader);

    expect(written).toBe(ROWS);
    expect(pages).toHaveLength(Math.ceil(ROWS / PAGE));
    expect(Math.max(...pages)).toBe(PAGE);
    // Rows read from Postgres and not yet taken by the reader, at their most: the page just read,
    // the 64 rows buffered before the CSV writer, its 16 records and 16 KiB of CSV (about 550 of
    // these 29-byte rows), the reader's 1 KiB: about 1,180. Reading ahead would reach 18,300.
    expect(mostInFlight).toBeGreaterThan(PAGE);
    expect(mostInFlight).toBeLessThan(PAGE + 800);
  });

  it('stops reading pages when its reader goes away', async () => {
    const pages: number[] = [];
    const csv = await openCsvExport(
      db,
      { kind: 'referrals', property, from: FROM, to: TO },
      { pageRows: 100, onPage: (rows) => pages.push(rows) },
    );
    await new Promise<void>((resolve) => csv.body.once('data', () => resolve()));
    csv.body.destroy();
    await new Promise((resolve) => csv.body.once('close', resolve));
    // Let a page already asked for come back: nothing asks for another.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pages.length).toBeLessThanOrEqual(12);
    expect(pages.length).toBeLessThan(ROWS / 100);
  });

  it('fails its body when the database goes away after the first page', async () => {
    const own = createPrismaClient({
      DATABASE_URL: testEnv.DATABASE_URL,
      DATABASE_POOL_MAX: 1,
      DATABASE_CONNECT_TIMEOUT_MS: 2000,
      DATABASE_IDLE_TIMEOUT_MS: 1000,
      DATABASE_STATEMENT_TIMEOUT_MS: 5000,
    });
    await own.$queryRaw`SELECT 1`;
    let pagesRead = 0;
    const csv = await openCsvExport(
      own,
      { kind: 'referrals', property, from: FROM, to: TO },
      { pageRows: 100, onPage: () => pagesRead++ },
    );
    let records = 0;
    const failed = new Promise<Error>((resolve) => csv.body.once('error', resolve));
    csv.body.on('data', (chunk: Buffer) => {
      records += recordsIn(chunk);
    });
    await own.$disconnect(); // ends its pool: the next page cannot be read
    const error = await failed;
    expect(error.message).toMatch(/pool/i);
    expect(pagesRead).toBe(1);
    expect(records).toBeLessThanOrEqual(101);
  });
});
