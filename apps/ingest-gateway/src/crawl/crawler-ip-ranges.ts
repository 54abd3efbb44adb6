import { CrawlerIpIndex, loadStoredRangeIndex } from '@vt/attribution';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';
import { type ReloadingValue, reloadingValue } from './reloading-value.ts';

export type CrawlerRangeCache = ReloadingValue<CrawlerIpIndex>;

/**
 * The AI crawler IP ranges every replica verifies against: the set `ops crawlers refresh` stored
 * in Postgres, reloaded on an interval. Until the first load (or if it fails) nothing verifies:
 * every crawler is unverifiable rather than wrongly unverified.
 */
export function loadCrawlerRangeCache(db: PrismaClient, logger: Logger, refreshMs: number): Promise<CrawlerRangeCache> {
  return reloadingValue({
    initial: new CrawlerIpIndex([]),
    load: async () => (await loadStoredRangeIndex(db)).index,
    refreshMs,
    logger,
    what: 'crawler IP ranges',
  });
}
