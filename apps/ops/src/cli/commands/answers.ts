import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { importAnswers } from '@vt/answers';
import { formatUtcDay, utcDay } from '@vt/db';
import { answerScheduleJob, createQueue, enqueue } from '@vt/queue';
import { closeRedisConnection, createProducerConnection } from '@vt/redis';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { parseOptions } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';
import { silentProgress } from '../progress.ts';

const importInput = z.object({ file: z.string().min(1) });

/**
 * `answers import --file F`: answers collected elsewhere, one JSON object per line, judged and
 * stored like collected ones. Progress goes to stderr on a terminal; the result is one object.
 */
export async function importAnswersFile(ctx: OpsContext, options: unknown) {
  const { file } = parseOptions(importInput, options);
  // A directory opens like a file and fails only at the first read: refused here, before any line.
  const found = await stat(file).catch(() => null);
  if (found && !found.isFile()) throw new OpsError('file_unreadable', `cannot read ${file}: not a file`);
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
  const progress = ctx.progress ?? silentProgress;
  return importAnswers(ctx.db, lines, {
    onProgress: (done, read) =>
      progress.update(
        `answers import: ${read} lines read, ${done.imported} imported, ${done.rejected.length} rejected`,
      ),
  });
}

const collectInput = z.object({ day: z.iso.date().optional() });

/**
 * `answers collect [--day D]`: asks the answer collector for the questions of a UTC day now (today
 * by default), as its daily schedule does. Questions already answered that day are not asked again.
 */
export async function requestCollection(ctx: OpsContext, options: unknown) {
  const { day } = parseOptions(collectInput, options);
  const redis = createProducerConnection({
    redisUrl: ctx.config.REDIS_URL,
    clusterNodes: ctx.config.REDIS_CLUSTER_NODES,
    onError: () => {},
  });
  const queue = createQueue(answerScheduleJob, redis, ctx.config.QUEUE_PREFIX);
  try {
    const date = day ?? formatUtcDay(utcDay(new Date()));
    await enqueue(queue, answerScheduleJob, { day: date }, `collect-day-${date}-${Date.now()}`);
    return {
      day: date,
      requested: true,
      note: 'The answer collector asks every question of the day not answered yet.',
    };
  } finally {
    await queue.close();
    await closeRedisConnection(redis);
  }
}
