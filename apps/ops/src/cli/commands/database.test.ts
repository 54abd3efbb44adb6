import { createCrawlEventPartition, listCrawlEventPartitions, partitionName } from '@vt/db';
import { scratchDatabase, testEnv } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsProgram } from '../program.ts';

// `ops db partitions` drops whole days of every property: on a database of its own.
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
beforeAll(async () => {
  scratch = await scratchDatabase('ops_partitions');
});
afterAll(() => scratch?.drop());

async function opsOn(env: Record<string, string>, ...args: string[]) {
  let out = '';
  const code = await runOpsProgram([...args, '--json'], {
    env: { ...testEnv, DATABASE_URL: scratch.url, ...env },
    stdout: (t) => {
      out += t;
    },
    stderr: () => {},
  });
  return { code, json: JSON.parse(out.trim()) };
}

describe('ops db partitions', () => {
  it('makes the week ahead and drops the days past CRAWL_EVENT_RETENTION_HOURS', async () => {
    const weekAhead = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await scratch.db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${partitionName(weekAhead)}"`);
    await createCrawlEventPartition(scratch.db, twoDaysAgo);

    const kept = await opsOn({ CRAWL_EVENT_RETENTION_HOURS: '72' }, 'db', 'partitions');
    expect(kept.code).toBe(0);
    expect(kept.json).toEqual({ created: [partitionName(weekAhead)], dropped: [], expiredDefaultRows: 0 });

    const dropped = await opsOn({ CRAWL_EVENT_RETENTION_HOURS: '24' }, 'db', 'partitions');
    expect(dropped.json).toEqual({ created: [], dropped: [partitionName(twoDaysAgo)], expiredDefaultRows: 0 });
    expect((await listCrawlEventPartitions(scratch.db)).map((p) => p.day)).not.toContain(twoDaysAgo);
  });

  it('refuses a retention that is not a positive whole number of hours', async () => {
    const bad = await opsOn({ CRAWL_EVENT_RETENTION_HOURS: '-1' }, 'db', 'partitions');
    expect(bad.code).toBe(1);
    expect(bad.json.error.code).toBe('invalid_config');
    expect(bad.json.error.message).toContain('CRAWL_EVENT_RETENTION_HOURS');
  });
});
