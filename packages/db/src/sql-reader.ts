import type pg from 'pg';
import type { Prisma, PrismaClient } from './generated/prisma/client.ts';

/**
 * Runs read-only SQL (a `Prisma.sql` template: values are always parameters, never spliced into the
 * text) straight on the pg pool under a Prisma client, and returns the rows as pg parses them.
 *
 * Why not `$queryRaw`: the read API's hot pages are a few hundred rows of plain columns, and
 * Prisma's raw-query path (its query compiler, then typed values per cell) measured twice the
 * client CPU of pg for the same statement: 1.4 against 0.65 ms for a /v1/responses page and its
 * count (docs/contributors.md, "Benchmarks", "Read API"). Statements stay unnamed, so Postgres plans each one with its actual
 * values: one property and twenty want different indexes, which a cached generic plan gets wrong.
 *
 * Columns come back as pg parses them: int4 and float8 as numbers, bool, text and uuid as strings,
 * timestamptz as Date, json parsed, arrays as arrays. Queries cast to those types (`::int`,
 * `::float8`) and format days with `to_char`: a `date` would otherwise become a Date at local
 * midnight, and an int8 or numeric a string.
 */
export interface SqlReader {
  rows<Row>(query: Prisma.Sql): Promise<Row[]>;
}

/** The pool a client built by `createPrismaClient` runs on, so a reader shares its connections. */
const poolOfClient = new WeakMap<PrismaClient, pg.Pool>();

export function registerClientPool(client: PrismaClient, pool: pg.Pool): void {
  poolOfClient.set(client, pool);
}

/** A reader on the same pool (and so the same limits and timeouts) as `client`. */
export function sqlReaderOf(client: PrismaClient): SqlReader {
  const pool = poolOfClient.get(client);
  if (!pool) throw new Error('sqlReaderOf: this Prisma client was not made by createPrismaClient');
  return {
    async rows<Row>(query: Prisma.Sql) {
      const result = await pool.query({ text: query.text, values: query.values as unknown[] });
      return result.rows as Row[];
    },
  };
}
