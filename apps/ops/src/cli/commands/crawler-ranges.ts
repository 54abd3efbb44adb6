import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AgentCatalogue, CatalogueSources } from '@vt/attribution';
import { CrawlerIpIndex, loadStoredRangeIndex, OPERATOR_RANGE_SOURCES, parsePublishedRanges } from '@vt/attribution';
import type { PrismaClient } from '@vt/db';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { parseOptions } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';
import { silentProgress } from '../progress.ts';
import { prepareCatalogueRefresh, storeCatalogueRefresh } from './agent-catalogue.ts';
import { readSignatureKeys, storeSignatureKeys } from './signature-keys.ts';

// The AI crawler operators' published IP ranges, stored in crawler_ip_range_sets so every gateway
// replica verifies against the same set. `pnpm ops crawlers refresh` fetches them (deployments with
// internet) or, with --from DIR, loads them from files (air-gapped deployments and tests).

export interface CrawlerRangeSet {
  operator: string;
  /** The published file's creationTime; of several files, the oldest (the set is as old as its stalest part). */
  creationTime: Date | null;
  prefixes: string[];
  /** Where the set came from: URLs or absolute file paths, comma-separated. */
  source: string;
}

/** One operator's published file, read. */
interface RangesFile {
  operator: string;
  source: string;
  creationTime: Date | null;
  prefixes: string[];
}

export interface RangeFetchFailure {
  operator: string;
  url: string;
  message: string;
}

/** `<operator>.json`, or `<operator>.<anything>.json` for one of several files of an operator. */
const RANGES_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:\.[^/]+)?\.json$/;
const MAX_RANGES_FILE_BYTES = 5 * 1024 * 1024;

/** Merges the parsed files of each operator into one set, sorted by operator. */
function mergeByOperator(files: RangesFile[]): CrawlerRangeSet[] {
  const sets = new Map<string, CrawlerRangeSet>();
  for (const file of files) {
    const set = sets.get(file.operator);
    if (!set) {
      sets.set(file.operator, { ...file, prefixes: [...new Set(file.prefixes)] });
      continue;
    }
    set.prefixes = [...new Set([...set.prefixes, ...file.prefixes])];
    set.source = `${set.source}, ${file.source}`;
    if (file.creationTime && (!set.creationTime || file.creationTime < set.creationTime)) {
      set.creationTime = file.creationTime;
    }
  }
  return [...sets.values()].sort((a, b) => a.operator.localeCompare(b.operator));
}

/**
 * Loads every `*.json` of a directory as one operator's published ranges; the operator is the file
 * name up to its first dot. Any unreadable file fails the whole load, naming the file.
 */
export async function loadRangesFromDirectory(dir: string): Promise<CrawlerRangeSet[]> {
  const root = resolve(dir);
  let names: string[];
  try {
    names = (await readdir(root)).filter((name) => name.endsWith('.json')).sort();
  } catch (err) {
    throw new OpsError('invalid_argument', `--from: cannot read the directory ${root}: ${(err as Error).message}`);
  }
  if (names.length === 0) {
    throw new OpsError('invalid_argument', `--from: ${root} holds no <operator>.json files`);
  }
  const files = await Promise.all(
    names.map(async (name) => {
      const path = join(root, name);
      const operator = RANGES_FILE.exec(name)?.[1];
      if (!operator) {
        throw new OpsError(
          'invalid_ranges_file',
          `${path}: name it <operator>.json or <operator>.<part>.json, operator in lower-case letters, digits and hyphens`,
        );
      }
      try {
        return { operator, source: path, ...parsePublishedRanges(JSON.parse(await readFile(path, 'utf8'))) };
      } catch (err) {
        throw new OpsError('invalid_ranges_file', `${path}: ${(err as Error).message}`);
      }
    }),
  );
  return mergeByOperator(files);
}

async function fetchRangesFile(fetchImpl: typeof fetch, url: string, timeoutMs: number) {
  const response = await fetchImpl(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const text = await response.text();
  if (text.length > MAX_RANGES_FILE_BYTES) throw new Error(`larger than ${MAX_RANGES_FILE_BYTES} bytes`);
  return parsePublishedRanges(JSON.parse(text));
}

/**
 * Fetches every operator's published files. An operator is returned only when all its files were
 * fetched and read; otherwise each failing URL is listed in `failures` and the operator is left out,
 * so a partial set never replaces a complete one.
 */
export async function fetchPublishedRanges(
  fetchImpl: typeof fetch = fetch,
  sources: Readonly<Record<string, readonly string[]>> = OPERATOR_RANGE_SOURCES,
  timeoutMs = 15_000,
  /** Called as each file is fetched or fails: how many are done, of how many. */
  onFile: (done: number, total: number) => void = () => {},
): Promise<{ sets: CrawlerRangeSet[]; failures: RangeFetchFailure[] }> {
  const total = Object.values(sources).reduce((sum, urls) => sum + urls.length, 0);
  let done = 0;
  const results = await Promise.all(
    Object.entries(sources).flatMap(([operator, urls]) =>
      urls.map(async (url): Promise<RangesFile | RangeFetchFailure> => {
        try {
          return { operator, source: url, ...(await fetchRangesFile(fetchImpl, url, timeoutMs)) };
        } catch (err) {
          const cause = (err as Error & { cause?: Error }).cause?.message;
          return { operator, url, message: cause ? `${(err as Error).message}: ${cause}` : (err as Error).message };
        } finally {
          onFile(++done, total);
        }
      }),
    ),
  );
  const failures = results.filter((r): r is RangeFetchFailure => 'message' in r);
  const failed = new Set(failures.map((f) => f.operator));
  const files = results.filter((r): r is RangesFile => !('message' in r) && !failed.has(r.operator));
  return { sets: mergeByOperator(files), failures };
}

/**
 * Replaces the stored set of each given operator, all in one transaction; operators not given
 * keep theirs. Validates every prefix first. Returns the time the sets were taken.
 */
export async function storeRangeSets(db: PrismaClient, sets: readonly CrawlerRangeSet[]): Promise<Date> {
  new CrawlerIpIndex(sets);
  const takenAt = new Date();
  await db.$transaction(
    sets.map(({ operator, creationTime, prefixes, source }) =>
      db.crawlerIpRangeSet.upsert({
        where: { operator },
        create: { operator, creationTime, takenAt, source, prefixes },
        update: { creationTime, takenAt, source, prefixes },
      }),
    ),
  );
  return takenAt;
}

/** The stored sets as a lookup index; lives in @vt/attribution (the gateway loads it too). */
export { loadStoredRangeIndex };

/** A file of a `--from` directory that did not parse: the whole refresh is refused, nothing stored. */
function refuseDirectoryFailures(code: string, failures: readonly { source: string; message: string }[]) {
  if (failures.length === 0) return;
  const named = failures.map((f) => `${f.source}: ${f.message}`).join('; ');
  throw new OpsError(code, `--from: nothing was stored: ${named}`);
}

const refreshOptions = z.object({ from: z.string().min(1).optional() });

export interface RefreshDeps {
  fetchImpl?: typeof fetch;
  sources?: Readonly<Record<string, readonly string[]>>;
  /** Where the catalogue's community lists are fetched from; `{}` skips them. */
  catalogueUrls?: Partial<Record<keyof CatalogueSources, string>>;
  /** The catalogue whose operators' key directories are refreshed; the current one by default. */
  keyCatalogue?: AgentCatalogue;
}

/**
 * `pnpm ops crawlers refresh [--from DIR]`: refreshes the AI agent catalogue from the community
 * lists (DIR/catalogue/, or the network), then loads the IP-range sets from DIR, or fetches them
 * from the operators, and stores them. When a list or some operators could not be fetched, the
 * rest is stored and the command still fails (exit 1) naming what failed; what failed keeps its
 * previous version. A directory is the operator's input, not the network: it is read and checked
 * whole first, and any file of it that does not parse refuses the command with nothing stored.
 */
export async function refreshCrawlerRanges(ctx: OpsContext, options: unknown, deps: RefreshDeps = {}) {
  const from = parseOptions(refreshOptions, options).from ?? ctx.config.CRAWLER_RANGES_DIR;
  const progress = ctx.progress ?? silentProgress;
  const source = from ? `from ${from}` : 'fetching';
  // A directory is read whole before anything is stored: one that is refused (no <operator>.json,
  // an unreadable ranges file, a catalogue list or key directory that does not parse) changes
  // nothing, the catalogue included (issue 33, finding 7 and "bad input changes nothing").
  const fromFiles = from ? await loadRangesFromDirectory(from) : undefined;
  progress.update(`crawlers refresh: the AI agent catalogue's community lists (${source})`);
  const preparedCatalogue = await prepareCatalogueRefresh(ctx, {
    from,
    fetchImpl: deps.fetchImpl,
    urls: deps.catalogueUrls,
  });
  if (from) refuseDirectoryFailures('invalid_catalogue_file', preparedCatalogue.failures);
  progress.update(`crawlers refresh: Web Bot Auth key directories (${source})`);
  const keyCatalogue =
    deps.keyCatalogue ??
    (preparedCatalogue.merged?.added.length ? preparedCatalogue.merged.catalogue : preparedCatalogue.current);
  const keysRead = await readSignatureKeys({ catalogue: keyCatalogue, from, fetchImpl: deps.fetchImpl });
  if (from) refuseDirectoryFailures('invalid_key_directory', keysRead.failures);
  const catalogue = await storeCatalogueRefresh(ctx, preparedCatalogue);
  const signatureKeys = await storeSignatureKeys(ctx, keysRead);
  progress.update(`crawlers refresh: the operators' IP ranges (${source})`);
  const { sets, failures } = fromFiles
    ? { sets: fromFiles, failures: [] }
    : await fetchPublishedRanges(deps.fetchImpl, deps.sources, undefined, (done, total) =>
        progress.update(`crawlers refresh: the operators' IP ranges, ${done} of ${total} files fetched`),
      );
  progress.update(`crawlers refresh: storing the IP ranges of ${sets.length} operators`);
  const failed = failures.map((f) => `${f.operator} (${f.url}: ${f.message})`).join('; ');
  if (sets.length === 0) {
    throw new OpsError('ranges_fetch_failed', `no operator's ranges could be fetched: ${failed}`);
  }
  const takenAt = await storeRangeSets(ctx.db, sets);
  if (failures.length > 0) {
    throw new OpsError(
      'ranges_fetch_failed',
      `stored ${sets.map((s) => s.operator).join(', ')}; failed, previous set kept: ${failed}`,
    );
  }
  if (catalogue.failures.length > 0) {
    const lists = catalogue.failures.map((f) => `${f.source}: ${f.message}`).join('; ');
    throw new OpsError('catalogue_fetch_failed', `IP ranges stored; the catalogue kept ${catalogue.version}: ${lists}`);
  }
  if (signatureKeys.failures.length > 0) {
    const keys = signatureKeys.failures.map((f) => `${f.source}: ${f.message}`).join('; ');
    throw new OpsError('keys_fetch_failed', `IP ranges stored; these key directories kept their stored keys: ${keys}`);
  }
  return {
    operators: sets.map((s) => ({
      operator: s.operator,
      prefixes: s.prefixes.length,
      creationTime: s.creationTime?.toISOString() ?? null,
      source: s.source,
    })),
    takenAt: takenAt.toISOString(),
    catalogue: {
      version: catalogue.version,
      stored: catalogue.stored,
      added: catalogue.added,
      sources: catalogue.sources,
    },
    signatureKeys: signatureKeys.directories,
  };
}
