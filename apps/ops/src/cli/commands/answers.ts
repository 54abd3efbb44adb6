import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { importAnswers } from '@vt/answers';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { parseOptions } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';

const importInput = z.object({ file: z.string().min(1) });

/**
 * `answers import --file F`: answers collected elsewhere, one JSON object per line, judged and
 * stored like collected ones. Progress goes to stderr on a terminal; the result is one object.
 */
export async function importAnswersFile(ctx: OpsContext, options: unknown, progress?: (text: string) => void) {
  const { file } = parseOptions(importInput, options);
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (err) {
    throw new OpsError('file_unreadable', `cannot read ${file}: ${(err as Error).message}`);
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const result = await importAnswers(ctx.db, lines, {
    onProgress: progress
      ? (done, read) => progress(`\r${read} lines read, ${done.imported} imported, ${done.rejected.length} rejected`)
      : undefined,
  });
  progress?.('\n');
  return result;
}
