import type { PrismaClient } from '@vt/db';
import { CRAWL_CONNECTION_STATUSES, countByStatus, crawlConnections } from '@vt/delivery-log';
import { withTimeout } from '@vt/service-runtime';
import { Gauge, type Registry } from 'prom-client';

/** A scrape waits at most this long for the counts (Prometheus gives a scrape 10 s by default). */
const COUNT_TIMEOUT_MS = 2000;

/**
 * `vt_crawl_connections{status}`: how many properties are in each crawl connection status,
 * counted from the delivery log at scrape time. Counts, not a series per property: a property id
 * is not a label (the number of properties is not bounded); `pnpm ops crawl connections
 * --status nothing_arriving` names them. Every gateway replica reports the same counts.
 */
export function crawlConnectionMetrics(registry: Registry, db: PrismaClient): void {
  new Gauge({
    name: 'vt_crawl_connections',
    help: `Properties by crawl connection status (${CRAWL_CONNECTION_STATUSES.join(', ')}), from the delivery log at scrape time.`,
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      // Absent rather than stale while Postgres does not answer, or not in time.
      this.reset();
      const connections = await withTimeout(crawlConnections(db), COUNT_TIMEOUT_MS).catch(() => undefined);
      if (!connections) return;
      const counts = countByStatus(connections);
      for (const status of CRAWL_CONNECTION_STATUSES) this.set({ status }, counts[status]);
    },
  });
}
