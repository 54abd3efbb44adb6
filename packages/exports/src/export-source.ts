import type { PrismaClient, SqlReader } from '@vt/db';

/** What one CSV export covers: one property over inclusive UTC days. */
export interface ExportScope {
  propertyId: string;
  /** Whether the property counts dual-use crawlers as AI (the activity view's setting). */
  countDualUseAsAi: boolean;
  /** Midnight UTC of the first day. */
  from: Date;
  /** Midnight UTC of the last day (included). */
  to: Date;
}

/** A CSV cell: text (guarded against formulas), a number, or empty. */
export type Cell = string | number | null;

/**
 * The rows of one export, read in keyset pages: each page is one statement that starts after the
 * last row of the page before, in the export's order, so no page costs more than its own rows
 * and nothing holds a connection between pages.
 */
export interface ExportSource<Row> {
  /** The header row, in the order of `cells`. */
  columns: readonly string[];
  /** At most `limit` rows after `after` (null: from the first), in the export's order. */
  page(after: Row | null, limit: number): Promise<Row[]>;
  /** One row as its cells. */
  cells(row: Row): Cell[];
}

export interface ExportSourceDeps {
  db: PrismaClient;
  sql: SqlReader;
}

/** Builds a kind's source for a scope (reading what it needs once, such as the agent catalogue). */
export type ExportSourceFactory = (deps: ExportSourceDeps, scope: ExportScope) => Promise<ExportSource<unknown>>;

/** `true`/`false`, which spreadsheets read as booleans. */
export const yesNo = (value: boolean): string => (value ? 'true' : 'false');

/** The day after `day`: exclusive upper bounds on timestamps. */
export const dayAfter = (day: Date): Date => new Date(day.getTime() + 86_400_000);
