import type { PrismaClient } from '@vt/db';
import {
  CRAWL_CONNECTION_STATUSES,
  type CrawlConnectionStatus,
  crawlConnectionStatus,
  isAcceptedCrawlAttempt,
} from './crawl-status.ts';

export interface PropertyCrawlConnection {
  propertyId: string;
  status: CrawlConnectionStatus;
  /**
   * The newest attempt that counts toward the status: since verification last (re)started, on
   * reconnect. Not `ops crawl status`'s lastAttemptAt, the newest attempt of all.
   */
  lastCountedAttemptAt: Date | null;
}

/**
 * Every property's crawl connection status at once, for the metrics and `ops crawl connections`:
 * one statement that reads each property's newest counted attempt (of its own senders) and its newest accepted one
 * through the log's (property, channel, created_at) index, then the one rule of crawl-status.ts
 * decides (those two are all it needs).
 */
export async function crawlConnections(db: PrismaClient, now = new Date()): Promise<PropertyCrawlConnection[]> {
  const rows = await db.$queryRaw<
    {
      propertyId: string;
      ingestionEnabled: boolean;
      statusSince: Date | null;
      createdAt: Date | null;
      statusCode: number | null;
      acceptedAt: Date | null;
      acceptedStatusCode: number | null;
    }[]
  >`
    SELECT p.id AS "propertyId", p.crawl_ingestion_enabled AS "ingestionEnabled",
           p.crawl_status_since AS "statusSince", newest.created_at AS "createdAt", newest.status_code AS "statusCode",
           accepted.created_at AS "acceptedAt", accepted.status_code AS "acceptedStatusCode"
    FROM properties p
    LEFT JOIN LATERAL (
      SELECT d.created_at, d.status_code FROM delivery_log_entries d
      WHERE d.property_id = p.id AND d.channel = 'crawl' AND d.authenticated
        AND (p.crawl_status_since IS NULL OR d.created_at >= p.crawl_status_since)
      ORDER BY d.created_at DESC, d.id DESC
      LIMIT 1
    ) newest ON true
    LEFT JOIN LATERAL (
      SELECT d.created_at, d.status_code FROM delivery_log_entries d
      WHERE d.property_id = p.id AND d.channel = 'crawl' AND d.authenticated AND d.status_code IN (200, 202)
        AND (p.crawl_status_since IS NULL OR d.created_at >= p.crawl_status_since)
      ORDER BY d.created_at DESC, d.id DESC
      LIMIT 1
    ) accepted ON true
    ORDER BY p.id`;
  return rows.map((row) => {
    const attempts =
      row.createdAt && row.statusCode !== null ? [{ createdAt: row.createdAt, statusCode: row.statusCode }] : [];
    // The newest accepted attempt too: a refusal after it leaves the status Connected for 24 hours.
    const newest = attempts[0];
    if (newest && !isAcceptedCrawlAttempt(newest) && row.acceptedAt && row.acceptedStatusCode !== null)
      attempts.push({ createdAt: row.acceptedAt, statusCode: row.acceptedStatusCode });
    return {
      propertyId: row.propertyId,
      status: crawlConnectionStatus({
        ingestionEnabled: row.ingestionEnabled,
        statusSince: row.statusSince,
        attempts,
        now,
      }),
      lastCountedAttemptAt: attempts[0]?.createdAt ?? null,
    };
  });
}

/** How many properties are in each crawl connection status (every status present, 0 or more). */
export function countByStatus(connections: readonly PropertyCrawlConnection[]): Record<CrawlConnectionStatus, number> {
  const counts = Object.fromEntries(CRAWL_CONNECTION_STATUSES.map((s) => [s, 0])) as Record<
    CrawlConnectionStatus,
    number
  >;
  for (const { status } of connections) counts[status] += 1;
  return counts;
}
