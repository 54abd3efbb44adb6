import type { AgentMatcher } from '@vt/attribution';
import { createAgentMatcher } from '@vt/attribution';
import { bundledMatcher, cachedMatcher, loadCurrentCatalogue, storeBundledCatalogue } from '@vt/catalogue-store';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';

export interface AgentCatalogueCache {
  current: () => AgentMatcher;
  stop: () => void;
}

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
  let matcher: AgentMatcher | null = null;
  const load = async () => {
    try {
      const { catalogue, source } = await loadCurrentCatalogue(db);
      if (matcher?.version === catalogue.version) return;
      matcher = cachedMatcher(createAgentMatcher(catalogue));
      logger.info({ version: catalogue.version, source, agents: catalogue.agents.length }, 'AI agent catalogue loaded');
    } catch (err) {
      logger.error({ err }, 'could not load the AI agent catalogue; keeping the version in use');
    }
  };
  try {
    await storeBundledCatalogue(db);
  } catch (err) {
    logger.error({ err }, 'could not store the bundled AI agent catalogue');
  }
  await load();
  const timer = setInterval(load, refreshMs);
  timer.unref();
  return { current: () => matcher ?? bundledMatcher, stop: () => clearInterval(timer) };
}
