import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, dropDatabase, ensureDatabaseExists, listMigrations } from './index.ts';
import { runDatabaseUrl, runDatabase as testDb } from './testing/run-database.ts';

const MIGRATIONS = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));

interface RuntimeField {
  name: string;
  kind: 'scalar' | 'enum' | 'object';
  type: string;
  dbName?: string;
}
interface RuntimeModel {
  dbName: string | null;
  fields: RuntimeField[];
}

// Which Postgres types each Prisma scalar may be stored as in this schema.
const COMPATIBLE_TYPES: Record<string, string[]> = {
  String: ['text', 'character varying', 'uuid', 'ARRAY'],
  Int: ['integer', 'ARRAY'],
  BigInt: ['bigint'],
  Float: ['double precision'],
  Boolean: ['boolean'],
  DateTime: ['timestamp with time zone', 'date'],
  Json: ['jsonb'],
};

describe('schema and migrations', () => {
  const db = testDb();

  it('after migrating a fresh database, every model has exactly the columns the Prisma schema names, with compatible types', async () => {
    // The generated client's own data model: the same one it builds queries from.
    const models = (db as unknown as { _runtimeDataModel: { models: Record<string, RuntimeModel> } })._runtimeDataModel
      .models;
    const schemaText = await readFile(new URL('../../../prisma/schema.prisma', import.meta.url), 'utf8');
    expect(Object.keys(models).length).toBe(schemaText.match(/^model /gm)?.length);
    const columns = await db.$queryRaw<{ table_name: string; column_name: string; data_type: string }[]>`
      SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`;
    for (const [modelName, model] of Object.entries(models)) {
      const table = model.dbName ?? modelName;
      const actual = new Map(columns.filter((c) => c.table_name === table).map((c) => [c.column_name, c.data_type]));
      const expected = model.fields.filter((f) => f.kind !== 'object');
      expect([...actual.keys()].sort(), table).toEqual(expected.map((f) => f.dbName ?? f.name).sort());
      for (const field of expected) {
        const dataType = actual.get(field.dbName ?? field.name) ?? '';
        const allowed = field.kind === 'enum' ? ['USER-DEFINED'] : (COMPATIBLE_TYPES[field.type] ?? []);
        expect(allowed, `${table}.${field.name} is ${dataType}`).toContain(dataType);
      }
    }
  });

  it('Prisma Client reads every model with every scalar field', async () => {
    const models = (db as unknown as { _runtimeDataModel: { models: Record<string, RuntimeModel> } })._runtimeDataModel
      .models;
    for (const modelName of Object.keys(models)) {
      const delegate = (db as unknown as Record<string, { findMany: (a: object) => Promise<unknown[]> }>)[
        modelName.charAt(0).toLowerCase() + modelName.slice(1)
      ];
      expect(delegate, modelName).toBeDefined();
      await expect(delegate!.findMany({ take: 1 })).resolves.toBeInstanceOf(Array);
    }
  });

  it('no crawl table has an IP column, ever', async () => {
    const ipColumns = await db.$queryRaw<{ table_name: string; column_name: string }[]>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public'
        AND (column_name ~* '(^|_)ip($|_)|ip_?addr|remote_addr' OR data_type IN ('inet', 'cidr'))`;
    expect(ipColumns).toEqual([]);
  });

  it('records applied migrations in _prisma_migrations with their sha256 checksum, as prisma migrate deploy does', async () => {
    const files = await listMigrations(MIGRATIONS);
    const rows = await db.$queryRaw<{ migration_name: string; checksum: string; finished_at: Date | null }[]>`
      SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`;
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    expect(rows.map((r) => r.checksum)).toEqual(files.map((f) => f.checksum));
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it('applying again changes nothing', async () => {
    const result = await applyMigrations(runDatabaseUrl);
    expect(result.every((m) => !m.applied)).toBe(true);
  });

  describe('on a scratch database', () => {
    const scratchUrl = runDatabaseUrl.replace(/\/([^/]+)$/, '/$1_scratch');
    afterAll(() => dropDatabase(scratchUrl));

    it('applies a new migration once, and refuses one edited after it was applied', async () => {
      expect(await ensureDatabaseExists(scratchUrl)).toBe(true);
      expect(await ensureDatabaseExists(scratchUrl)).toBe(false);
      const dir = await mkdtemp(join(tmpdir(), 'vt-migrations-'));
      await cp(MIGRATIONS, dir, { recursive: true });
      const probe = join(dir, '29991231000000_probe');
      await cp(join(MIGRATIONS, (await listMigrations(MIGRATIONS))[0]!.name), probe, { recursive: true });
      await writeFile(join(probe, 'migration.sql'), 'CREATE TABLE probe (id int);');

      const first = await applyMigrations(scratchUrl, dir);
      expect(first.filter((m) => m.applied).map((m) => m.name)).toContain('29991231000000_probe');
      const second = await applyMigrations(scratchUrl, dir);
      expect(second.some((m) => m.applied)).toBe(false);

      await writeFile(join(probe, 'migration.sql'), 'CREATE TABLE probe (id bigint);');
      await expect(applyMigrations(scratchUrl, dir)).rejects.toThrow(/29991231000000_probe was changed/);
    });

    it('a failing migration leaves nothing half-applied', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'vt-migrations-bad-'));
      await cp(MIGRATIONS, dir, { recursive: true });
      const bad = join(dir, '29991231000001_bad');
      await cp(join(MIGRATIONS, (await listMigrations(MIGRATIONS))[0]!.name), bad, { recursive: true });
      await writeFile(join(bad, 'migration.sql'), 'CREATE TABLE half_done (id int); SELECT no_such_function();');
      await expect(applyMigrations(scratchUrl, dir)).rejects.toThrow(/29991231000001_bad failed/);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: scratchUrl });
      await client.connect();
      const table = await client.query("SELECT to_regclass('half_done') AS t");
      const recorded = await client.query(
        `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29991231000001_bad'`,
      );
      await client.end();
      expect(table.rows[0].t).toBeNull();
      expect(recorded.rowCount).toBe(0);
    });
  });
});
