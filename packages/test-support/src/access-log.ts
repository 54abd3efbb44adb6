import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { GENERATOR } from './paths.ts';

// The traffic generator's output and its own tables, for tests and benchmarks (no vitest here:
// benchmarks import this module through `@vt/test-support/access-log`).

export { GENERATOR };

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
    prefixes: publishedPrefixes(JSON.parse(readFileSync(join(rangesDir, file), 'utf8'))),
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

/** The prefixes of an operator's published ranges file (`{prefixes: [{ipv4Prefix} | {ipv6Prefix}]}`). */
function publishedPrefixes(published: { prefixes: { ipv4Prefix?: string; ipv6Prefix?: string }[] }): string[] {
  return published.prefixes.flatMap((p) => p.ipv4Prefix ?? p.ipv6Prefix ?? []);
}

/** Writes the generator's fixture ranges, one `<operator>.json` each and nothing else, to a new temporary directory. */
export function writeFixtureRanges(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vt-ranges-'));
  const truth = join(mkdtempSync(join(tmpdir(), 'vt-ranges-truth-')), 'truth.json');
  execFileSync(process.execPath, [GENERATOR, '--lines', '1', '--truth', truth, '--ranges-out', dir]);
  return dir;
}

/** A top-level `const NAME = [...];` literal of the generator, evaluated: the exact strings it sends. */
function generatorTable<T>(name: string): T {
  const source = readFileSync(GENERATOR, 'utf8');
  const found = new RegExp(`^const ${name} = (\\[[\\s\\S]*?^\\]);`, 'm').exec(source);
  if (!found?.[1]) throw new Error(`${name} not found in ${GENERATOR}`);
  return new Function(`return ${found[1]};`)() as T;
}

/** [agent, operator, user agent] of every AI crawler the generator sends. */
export const generatorAiCrawlers = () => generatorTable<[string, string, string][]>('AI_CRAWLERS');
export const generatorHumans = () => generatorTable<string[]>('HUMANS');
export const generatorOtherBots = () => generatorTable<string[]>('OTHER_BOTS');
