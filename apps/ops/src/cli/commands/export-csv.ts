import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseUtcDay } from '@vt/db';
import { type ExportKind, exportRangeProblem, openCsvExport } from '@vt/exports';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { findProperty, parseOptions } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';

// `ops export <kind>`: the console's CSV exports (packages/exports, the same bytes) for an
// operator, to stdout or to a file.

const utcDayOption = z
  .string()
  .refine((text) => parseUtcDay(text) !== null, 'a UTC day, YYYY-MM-DD')
  .transform((text) => parseUtcDay(text) as Date);

const exportOptions = z.object({
  property: z.string(),
  from: utcDayOption,
  to: utcDayOption,
  out: z.string().min(1).optional(),
});

/**
 * Writes the export to `--out` or to `stdout`. A file is written beside its final name and renamed
 * into place once whole, so a failed export leaves no file that looks complete (and replaces
 * nothing); the command then prints what it wrote. To stdout nothing is printed besides the CSV,
 * and a failure once bytes are out is reported on stderr, never appended to the CSV.
 */
export async function exportCsv(
  ctx: OpsContext,
  kind: ExportKind,
  options: unknown,
  stdout: () => Writable,
): Promise<object | undefined> {
  const input = parseOptions(exportOptions, options);
  const problem = exportRangeProblem(input.from, input.to);
  if (problem) throw new OpsError('invalid_argument', `--from/--to: ${problem}`);
  const property = await findProperty(ctx, input.property);
  let rows = 0;
  const csv = await openCsvExport(
    ctx.db,
    { kind, property, from: input.from, to: input.to },
    { onPage: (read) => (rows += read) },
  );
  if (input.out === undefined) {
    try {
      await pipeline(csv.body, stdout(), { end: false });
    } catch (err) {
      throw new OpsError(
        'export_failed',
        `the export stopped after some rows; the output is incomplete: ${(err as Error).message}`,
        {
          outputBegun: true,
        },
      );
    }
    return undefined;
  }
  const partial = join(dirname(input.out), `.${basename(input.out)}.${randomBytes(4).toString('hex')}.partial`);
  try {
    await pipeline(csv.body, createWriteStream(partial, { flags: 'wx' }));
    await rename(partial, input.out);
  } catch (err) {
    await rm(partial, { force: true });
    throw new OpsError('export_failed', `nothing written to ${input.out}: ${(err as Error).message}`);
  }
  return {
    kind,
    propertyId: property.id,
    from: input.from.toISOString().slice(0, 10),
    to: input.to.toISOString().slice(0, 10),
    file: input.out,
    rows,
  };
}
