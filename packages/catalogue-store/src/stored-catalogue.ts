import {
  type AgentCatalogue,
  type AgentMatch,
  type AgentMatcher,
  agentCatalogueSchema,
  BUNDLED_AGENT_CATALOGUE,
  BUNDLED_AGENT_MATCHER,
  compareCatalogueVersions,
} from '@vt/attribution';
import type { PrismaClient } from '@vt/db';

// The AI agent catalogue as Postgres keeps it: every version a deployment used, the highest one
// current. A release stores its bundled catalogue when it starts; `ops crawlers refresh` stores a
// merged one. Gateways load the current version and reload it on an interval, so every replica
// matches with the same one.

/** Stores the release's bundled catalogue unless that version is already stored. */
export async function storeBundledCatalogue(db: PrismaClient): Promise<void> {
  await storeCatalogue(db, BUNDLED_AGENT_CATALOGUE, 'bundled');
}

/** Stores a catalogue version; an existing version is left as it is (versions never change). */
export async function storeCatalogue(db: PrismaClient, catalogue: AgentCatalogue, source: string): Promise<boolean> {
  const { count } = await db.agentCatalogueVersion.createMany({
    data: [{ version: catalogue.version, catalogue, source }],
    skipDuplicates: true,
  });
  return count === 1;
}

/**
 * The current catalogue: the highest stored version, or the bundled one when nothing is stored or
 * the bundled one is higher (a release newer than the last refresh). A stored version that no
 * longer passes the schema is skipped for the next one down.
 */
export async function loadCurrentCatalogue(db: PrismaClient): Promise<{ catalogue: AgentCatalogue; source: string }> {
  const versions = (await db.agentCatalogueVersion.findMany({ select: { version: true } }))
    .map((v) => v.version)
    .sort(compareCatalogueVersions)
    .reverse();
  for (const version of versions) {
    if (compareCatalogueVersions(version, BUNDLED_AGENT_CATALOGUE.version) <= 0) break;
    const row = await db.agentCatalogueVersion.findUnique({ where: { version } });
    const parsed = agentCatalogueSchema.safeParse(row?.catalogue);
    if (parsed.success) return { catalogue: parsed.data, source: row?.source ?? '' };
  }
  return { catalogue: BUNDLED_AGENT_CATALOGUE, source: 'bundled' };
}

/** User agents longer than this are matched every time, never remembered (real ones are far shorter). */
const MAX_REMEMBERED_USER_AGENT = 512;

/**
 * A matcher that remembers its answer per distinct user agent (a site's traffic has few), bounded
 * whatever senders send: at `max` distinct agents it starts over, and an agent longer than any
 * real one is not remembered (10,000 made-up 1 MB agents would be 10 GB). This runs for every line
 * of every batch, and a plain Map's get measured a fraction of an LRU's; a flood of distinct agents
 * only costs what matching without a cache costs.
 */
export function cachedMatcher(matcher: AgentMatcher, max = 10_000): AgentMatcher {
  const cache = new Map<string, AgentMatch | null>();
  return {
    version: matcher.version,
    markers: matcher.markers,
    matchSignatureAgent: matcher.matchSignatureAgent,
    match(userAgent) {
      if (userAgent.length > MAX_REMEMBERED_USER_AGENT) return matcher.match(userAgent);
      let found = cache.get(userAgent);
      if (found === undefined) {
        found = matcher.match(userAgent);
        if (cache.size >= max) cache.clear();
        // Copied: the caller's string may be a slice that would keep a whole body chunk alive.
        cache.set(JSON.parse(JSON.stringify(userAgent)) as string, found);
      }
      return found;
    },
  };
}

/** The bundled catalogue's cached matcher, for a classifier given no other. */
export const bundledMatcher = cachedMatcher(BUNDLED_AGENT_MATCHER);

let recent: { catalogue: AgentCatalogue; at: number } | null = null;

/**
 * The current catalogue for readers that ask often (the activity views): loaded at most once a
 * minute per process. A refresh shows in their categories within the minute.
 */
export async function recentCatalogue(db: PrismaClient, maxAgeMs = 60_000): Promise<AgentCatalogue> {
  if (!recent || Date.now() - recent.at > maxAgeMs) {
    recent = { catalogue: (await loadCurrentCatalogue(db)).catalogue, at: Date.now() };
  }
  return recent.catalogue;
}
