import { parse } from 'csv-parse/sync';

/** The UTF-8 byte-order mark every export starts with. */
export const BOM = '\uFEFF';

/**
 * An export's text as rows of cells, parsed by csv-parse (an implementation of its own, not the
 * writer's). The byte-order mark is required, and every record must end with CRLF (strict RFC
 * 4180: a bare LF is allowed only inside a quoted field).
 */
export function parseCsv(text: string): string[][] {
  if (!text.startsWith(BOM)) throw new Error('the export does not start with a UTF-8 byte-order mark');
  const outsideQuotes = text.replace(/"(?:[^"]|"")*"/g, '""');
  if (/(?<!\r)\n/.test(outsideQuotes) || !text.endsWith('\r\n')) throw new Error('a record does not end with CRLF');
  return parse(text.slice(1), { record_delimiter: '\r\n' }) as string[][];
}
