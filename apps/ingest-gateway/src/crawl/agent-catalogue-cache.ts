import { type AgentMatcher, createAgentMatcher } from '@vt/attribution';
import { bundledMatcher, cachedMatcher, loadCurrentCatalogue, storeBundledCatalogue } from '@vt/catalogue-store';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { type ReloadingValue, reloadingValue } from './reloading-value.ts';

export type AgentCatalogueCache = ReloadingValue<AgentMatcher>;

/**
 * The AI agent catalogue every replica matches with: the release's bundled version is stored at
 * start, then the highest stored version (a refresh's, or the bundled) is loaded and reloaded on
 * the IP ranges' interval. A failed load keeps the version in use; a new version starts with an
 * empty per-user-agent cache.
 */
export async function loadAgentCatalogueCache(
  db: PrismaClient,
  logger: Logger,
  refreshMs: number,
): Promise<AgentCatalogueCache> {
  try {
    await storeBundledCatalogue(db);
  } catch (err) {
    logger.error({ err }, 'could not store the bundled AI agent catalogue');
  }
  return reloadingValue({
    initial: bundledMatcher,
    load: async (inUse) => {
      const { catalogue, source } = await loadCurrentCatalogue(db);
      if (inUse.version === catalogue.version) return inUse;
      logger.info({ version: catalogue.version, source, agents: catalogue.agents.length }, 'AI agent catalogue loaded');
      return cachedMatcher(createAgentMatcher(catalogue));
    },
    refreshMs,
    logger,
    what: 'the AI agent catalogue',
  });
}
