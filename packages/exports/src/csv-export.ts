import { pipeline, Readable } from 'node:stream';
import { type PrismaClient, sqlReaderOf } from '@vt/db';
import { stringify } from 'csv-stringify';
import { exportFilename } from './export-filename.ts';
import { type ExportKind, exportSources } from './export-kinds.ts';
import { exportRangeProblem } from './export-range.ts';
import type { Cell, ExportSource } from './export-source.ts';

/** Rows read per statement: about a megabyte of answers, a few hundred kilobytes of the rest. */
export const EXPORT_PAGE_ROWS = 1000;

/** Rows waiting between the pages read and the CSV written. */
const ROWS_BUFFERED = 64;

export interface CsvExportRequest {
  kind: ExportKind;
  property: { id: string; name: string; domain: string; countDualUseAsAi: boolean };
  /** Midnight UTC of the first and the last day, both included. */
  from: Date;
  to: Date;
}

export interface CsvExportOptions {
  pageRows?: number;
  /** Told each page's row count as it is read (what the tests watch the reading with). */
  onPage?: (rows: number) => void;
}

export interface CsvExport {
  /** `acme-answers-2026-04-01-to-2026-04-30.csv` */
  filename: string;
  /** The CSV as UTF-8 bytes, produced as it is read: pipe it with backpressure. */
  body: Readable;
}

/**
 * Opens one CSV export: a header row, then every row of the kind for the property and range, read
 * in keyset pages of `pageRows` only as fast as `body` is consumed, so a year of rows never sits
 * in memory (at most a page and a few buffers' worth). The first page is read before this
 * resolves: a database that is away fails here, while the caller can still answer with an error;
 * a failure after that destroys `body` with it.
 *
 * The CSV: RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line break),
 * UTF-8 with a byte-order mark (without one Excel reads UTF-8 as Windows-1252 and garbles every
 * accent), and text cells that start with = + - @, a tab or a carriage return prefixed with `'`,
 * so a spreadsheet shows them instead of running them as formulas (numbers are left as they are).
 */
export async function openCsvExport(
  db: PrismaClient,
  request: CsvExportRequest,
  options: CsvExportOptions = {},
): Promise<CsvExport> {
  const problem = exportRangeProblem(request.from, request.to);
  if (problem) throw new RangeError(problem);
  const pageRows = options.pageRows ?? EXPORT_PAGE_ROWS;
  const { property } = request;
  const source = await exportSources[request.kind](
    { db, sql: sqlReaderOf(db) },
    { propertyId: property.id, countDualUseAsAi: property.countDualUseAsAi, from: request.from, to: request.to },
  );
  const first = await source.page(null, pageRows);
  options.onPage?.(first.length);

  const rows = Readable.from(recordsOf(source, first, pageRows, options.onPage), {
    objectMode: true,
    highWaterMark: ROWS_BUFFERED,
  });
  const csv = stringify({
    header: true,
    columns: [...source.columns],
    bom: true,
    record_delimiter: 'windows',
    escape_formulas: true,
  });
  // A failed page destroys the CSV with its error; a CSV destroyed by its reader (the client went
  // away) ends the rows, so no further page is read.
  pipeline(rows, csv, () => {});
  return { filename: exportFilename(property, request.kind, request.from, request.to), body: csv };
}

/** The records of every page, the next page read only once the last row of this one was taken. */
async function* recordsOf<Row>(
  source: ExportSource<Row>,
  first: Row[],
  pageRows: number,
  onPage: ((rows: number) => void) | undefined,
): AsyncGenerator<Cell[]> {
  let page = first;
  for (;;) {
    for (const row of page) yield source.cells(row);
    const last = page.at(-1);
    if (page.length < pageRows || last === undefined) return;
    page = await source.page(last, pageRows);
    onPage?.(page.length);
  }
}
