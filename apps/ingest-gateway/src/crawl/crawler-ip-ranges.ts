import { CrawlerIpIndex } from '@vt/attribution';
import type { PrismaClient } from '@vt/db';
import type { Logger } from '@vt/logger';

export interface CrawlerRangeCache {
  current: () => CrawlerIpIndex;
  takenAt: () => Date | null;
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
  let takenAt: Date | null = null;
  const load = async () => {
    try {
      const sets = await db.crawlerIpRangeSet.findMany();
      index = new CrawlerIpIndex(sets.map((s) => ({ operator: s.operator, prefixes: s.prefixes })));
      // The oldest set's date: how stale the index may be.
      takenAt = sets.reduce<Date | null>((oldest, s) => (!oldest || s.takenAt < oldest ? s.takenAt : oldest), null);
    } catch (err) {
      logger.error({ err }, 'could not load crawler IP ranges; keeping the previous set');
    }
  };
  await load();
  const timer = setInterval(load, refreshMs);
  timer.unref();
  return { current: () => index, takenAt: () => takenAt, stop: () => clearInterval(timer) };
}
