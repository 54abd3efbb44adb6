import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type AgentCatalogue,
  type CatalogueSources,
  mergeCatalogueSources,
  nextCatalogueVersion,
} from '@vt/attribution';
import { loadCurrentCatalogue, storeBundledCatalogue, storeCatalogue } from '@vt/catalogue-store';
import { formatUtcDay, utcDay } from '@vt/db';
import type { OpsContext } from '../context.ts';

// The catalogue part of `pnpm ops crawlers refresh`: the community lists merged into the current
// catalogue (new agents added, known ones keep our fields) and stored as the next version, which
// every gateway picks up on its next reload.

/** Where the community lists are published. */
export const CATALOGUE_SOURCE_URLS: Readonly<Record<keyof CatalogueSources, string>> = {
  robotsJson: 'https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json',
  crawlerUserAgents: 'https://raw.githubusercontent.com/monperrus/crawler-user-agents/master/crawler-user-agents.json',
};
/** Their file names in `--from DIR/catalogue/`. */
const SOURCE_FILES: Record<keyof CatalogueSources, string> = {
  robotsJson: 'robots.json',
  crawlerUserAgents: 'crawler-user-agents.json',
};
const MAX_SOURCE_BYTES = 5 * 1024 * 1024;

export interface CatalogueRefresh {
  /** The current catalogue after the refresh (unchanged when nothing new was found). */
  catalogue: AgentCatalogue;
  version: string;
  stored: boolean;
  added: { name: string; operator: string; category: string; source: string }[];
  sources: string[];
  failures: { source: string; message: string }[];
}

async function fromDirectory(dir: string) {
  const sources: CatalogueSources = {};
  const read: string[] = [];
  const failures: CatalogueRefresh['failures'] = [];
  for (const [key, file] of Object.entries(SOURCE_FILES) as [keyof CatalogueSources, string][]) {
    const path = join(resolve(dir), 'catalogue', file);
    const text = await readFile(path, 'utf8').catch(() => null);
    if (text === null) continue; // a list not given is not refreshed
    try {
      sources[key] = JSON.parse(text);
      read.push(path);
    } catch (err) {
      failures.push({ source: path, message: (err as Error).message });
    }
  }
  return { sources, read, failures };
}

async function fromNetwork(fetchImpl: typeof fetch, urls: Partial<Record<keyof CatalogueSources, string>>) {
  const sources: CatalogueSources = {};
  const read: string[] = [];
  const failures: CatalogueRefresh['failures'] = [];
  for (const [key, url] of Object.entries(urls) as [keyof CatalogueSources, string][]) {
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(15_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const text = await response.text();
      if (text.length > MAX_SOURCE_BYTES) throw new Error(`larger than ${MAX_SOURCE_BYTES} bytes`);
      sources[key] = JSON.parse(text);
      read.push(url);
    } catch (err) {
      failures.push({ source: url, message: (err as Error).message });
    }
  }
  return { sources, read, failures };
}

/** The lists read and merged, nothing stored yet: what `storeCatalogueRefresh` stores. */
export interface PreparedCatalogueRefresh {
  current: AgentCatalogue;
  merged: ReturnType<typeof mergeCatalogueSources> | null;
  sources: string[];
  failures: CatalogueRefresh['failures'];
}

/**
 * Reads the lists from `from/catalogue/` (robots.json, crawler-user-agents.json), or fetches them
 * from `urls`, and merges them into the current catalogue, writing nothing: a caller that refuses
 * on a failure (`crawlers refresh --from`) does so before anything is stored.
 */
export async function prepareCatalogueRefresh(
  ctx: OpsContext,
  input: { from?: string; fetchImpl?: typeof fetch; urls?: Partial<Record<keyof CatalogueSources, string>> },
): Promise<PreparedCatalogueRefresh> {
  const { sources, read, failures } = input.from
    ? await fromDirectory(input.from)
    : await fromNetwork(input.fetchImpl ?? fetch, input.urls ?? CATALOGUE_SOURCE_URLS);
  const { catalogue: current } = await loadCurrentCatalogue(ctx.db);
  try {
    const merged = mergeCatalogueSources(
      current,
      sources,
      nextCatalogueVersion(current.version, formatUtcDay(utcDay(new Date()))),
    );
    return { current, merged, sources: read, failures };
  } catch (err) {
    // A list in an unexpected shape: nothing of it is merged.
    failures.push({ source: read.join(', '), message: (err as Error).message });
    return { current, merged: null, sources: read, failures };
  }
}

/** Stores a prepared refresh: a new version only when an agent was added. */
export async function storeCatalogueRefresh(
  ctx: OpsContext,
  prepared: PreparedCatalogueRefresh,
): Promise<CatalogueRefresh> {
  const { current, merged, sources, failures } = prepared;
  await storeBundledCatalogue(ctx.db);
  if (!merged || merged.added.length === 0)
    return { catalogue: current, version: current.version, stored: false, added: [], sources, failures };
  await storeCatalogue(ctx.db, merged.catalogue, `refresh: ${sources.join(', ')}`);
  const { catalogue } = merged;
  return { catalogue, version: catalogue.version, stored: true, added: merged.added, sources, failures };
}

/**
 * Merges the lists into the current catalogue and stores the next version when an agent was
 * added. A list that cannot be read is a failure reported with the others; the rest still merge.
 */
export async function refreshAgentCatalogue(
  ctx: OpsContext,
  input: { from?: string; fetchImpl?: typeof fetch; urls?: Partial<Record<keyof CatalogueSources, string>> },
): Promise<CatalogueRefresh> {
  return storeCatalogueRefresh(ctx, await prepareCatalogueRefresh(ctx, input));
}
