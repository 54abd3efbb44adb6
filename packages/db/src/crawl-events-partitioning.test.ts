import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from './client.ts';
import { applyMigrations, dropDatabase, ensureDatabaseExists } from './index.ts';
import { migrationsBefore, removeMigrationCopies } from './testing/migrations-before.ts';
import { runDatabaseUrl } from './testing/run-database.ts';

// The migration that partitions crawl_events, run where it matters: on a database migrated to the
// migration before it and holding raw events of several days.

const PARTITIONING = '20261126130000_crawl_events_partitioned';
const url = runDatabaseUrl.replace(/\/([^/]+)$/, '/$1_partitioning');

afterAll(async () => {
  await dropDatabase(url);
  await removeMigrationCopies();
});

describe(`migration ${PARTITIONING}`, () => {
  it('converts a populated crawl_events into day partitions, every row kept as it was', async () => {
    await dropDatabase(url);
    await ensureDatabaseExists(url);
    await applyMigrations(url, await migrationsBefore(PARTITIONING));
    const db = createPrismaClient({
      DATABASE_URL: url,
      DATABASE_POOL_MAX: 2,
      DATABASE_CONNECT_TIMEOUT_MS: 5000,
      DATABASE_IDLE_TIMEOUT_MS: 10000,
      DATABASE_STATEMENT_TIMEOUT_MS: 30000,
    });
    try {
      // The team and property in SQL: the client knows today's columns, which later migrations add
      // (this database stops before the partitioning migration).
      const [team] = await db.$queryRaw<{ id: string }[]>`
        INSERT INTO teams (id, name, slug, updated_at)
        VALUES (gen_random_uuid(), 'Before', 'before-partitioning', now()) RETURNING id`;
      const [property] = await db.$queryRaw<{ id: string }[]>`
        INSERT INTO properties (id, team_id, name, domain, brand_terms, plan, updated_at)
        VALUES (gen_random_uuid(), ${team!.id}::uuid, 'Acme', 'acme.example', '{}', 'starter', now()) RETURNING id`;
      if (!property) throw new Error('the property was not made');
      // 300 events over three receipt days, midnight edges included, and one received just now.
      const received = ['2026-11-20T00:00:00.000Z', '2026-11-20T23:59:59.999Z', '2026-11-21T12:00:00.000Z'];
      await db.crawlEvent.createMany({
        data: Array.from({ length: 300 }, (_, i) => ({
          propertyId: property.id,
          occurredAt: new Date(Date.UTC(2026, 10, 19, 0, i)),
          receivedAt: new Date(received[i % 3]!),
          host: 'acme.example',
          path: `/p/${i}`,
          userAgent: 'GPTBot/1.0',
          statusCode: 200,
          crawler: 'GPTBot',
          operator: 'OpenAI',
          verification: 'verified',
        })),
      });
      await db.crawlEvent.create({
        data: {
          propertyId: property.id,
          occurredAt: new Date(),
          host: 'acme.example',
          path: '/now',
          userAgent: 'x',
          statusCode: 200,
        },
      });
      const before = await db.crawlEvent.findMany({ orderBy: { id: 'asc' } });

      const applied = await applyMigrations(url);
      expect(applied.find((m) => m.name === PARTITIONING)?.applied).toBe(true);

      expect(await db.crawlEvent.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
      const placement = await db.$queryRaw<{ partition: string; day: string; n: number }[]>`
        SELECT tableoid::regclass::text AS partition, to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
               count(*)::int AS n
        FROM crawl_events GROUP BY 1, 2 ORDER BY 2`;
      const today = new Date().toISOString().slice(0, 10);
      expect(placement).toEqual([
        { partition: 'crawl_events_p20261120', day: '2026-11-20', n: 200 },
        { partition: 'crawl_events_p20261121', day: '2026-11-21', n: 100 },
        { partition: `crawl_events_p${today.replaceAll('-', '')}`, day: today, n: 1 },
      ]);
      const [shape] = await db.$queryRaw<{ kind: string; key: string; old: string | null }[]>`
        SELECT c.relkind::text AS kind, pg_get_constraintdef(k.oid) AS key, to_regclass('crawl_events_unpartitioned')::text AS old
        FROM pg_class c JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'p'
        WHERE c.oid = 'crawl_events'::regclass`;
      expect(shape).toEqual({ kind: 'p', key: 'PRIMARY KEY (id, received_at)', old: null });
      // The week ahead is made, and the foreign key still cascades a property's deletion.
      const days = await db.$queryRaw<{ name: string }[]>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'crawl_events'::regclass`;
      const weekAhead = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
      expect(days.map((d) => d.name)).toEqual(
        expect.arrayContaining(['crawl_events_default', `crawl_events_p${weekAhead}`]),
      );
      await db.property.delete({ where: { id: property.id } });
      expect(await db.crawlEvent.count()).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });
});
