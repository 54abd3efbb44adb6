import { CrawlerIpIndex, loadStoredRangeIndex } from '@vt/attribution';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';

export interface CrawlerRangeCache {
  current: () => CrawlerIpIndex;
  stop: () => void;
}

/**
 * The AI crawler IP ranges every replica verifies against: the set `ops crawlers refresh` stored
 * in Postgres, reloaded on an interval. Until the first load (or if it fails) nothing verifies:
 * every crawler is unverifiable rather than wrongly unverified.
 */
export async function loadCrawlerRangeCache(
  db: PrismaClient,
  logger: Logger,
  refreshMs: number,
): Promise<CrawlerRangeCache> {
  let index = new CrawlerIpIndex([]);
  const load = async () => {
    try {
      ({ index } = await loadStoredRangeIndex(db));
    } catch (err) {
      logger.error({ err }, 'could not load crawler IP ranges; keeping the previous set');
    }
  };
  await load();
  const timer = setInterval(load, refreshMs);
  timer.unref();
  return { current: () => index, stop: () => clearInterval(timer) };
}
