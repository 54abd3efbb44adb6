import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parsePublishedRanges } from '@vt/attribution';
import { ROOT } from './processes.ts';

/** The workload generator the team shares: realistic request events with their ground truth. */
export const GENERATOR = join(ROOT, '..', 'shared', 'tools', 'gen-access-log.mjs');

export interface AccessLogTruth {
  lines: number;
  host: string;
  received: number;
  unreadable: number;
  hostNotMatched: number;
  kept: number;
  crawlerHits: Record<string, number>;
  verifiedHits: Record<string, number>;
  referrals: Record<string, number>;
  hostsNotMatched: Record<string, number>;
}

export interface GeneratedAccessLog {
  /** The gzipped body as the generator wrote it. */
  gzip: Buffer;
  text: string;
  truth: AccessLogTruth;
  /** The fixture published ranges: operator → prefixes. */
  ranges: { operator: string; prefixes: string[] }[];
  rangesDir: string;
}

export function generateAccessLog(options: {
  lines: number;
  seed: number;
  format?: 'ndjson' | 'json';
}): GeneratedAccessLog {
  const dir = mkdtempSync(join(tmpdir(), 'vt-access-log-'));
  const ext = options.format === 'json' ? 'json' : 'ndjson';
  const args = [
    GENERATOR,
    '--lines',
    String(options.lines),
    '--seed',
    String(options.seed),
    '--format',
    options.format ?? 'ndjson',
    '--out',
    join(dir, `events.${ext}.gz`),
    '--truth',
    join(dir, 'truth.json'),
    '--ranges-out',
    join(dir, 'ranges'),
  ];
  execFileSync(process.execPath, args);
  const gzip = readFileSync(join(dir, `events.${ext}.gz`));
  const rangesDir = join(dir, 'ranges');
  const ranges = readdirSync(rangesDir).map((file) => ({
    operator: file.replace(/\.json$/, ''),
    prefixes: parsePublishedRanges(JSON.parse(readFileSync(join(rangesDir, file), 'utf8'))).prefixes,
  }));
  return {
    gzip,
    text: gunzipSync(gzip).toString('utf8'),
    truth: JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')),
    ranges,
    rangesDir,
  };
}

/** Counts of `key` over items, as a plain object (to compare with the truth's maps). */
export function countBy<T>(items: readonly T[], key: (item: T) => string | undefined): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    if (k !== undefined) counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}
