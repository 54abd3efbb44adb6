import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { countByStatus, crawlConnections } from './crawl-connections.ts';

// Every property's crawl connection status in one statement, against the real Postgres: the same
// answers as the one rule of crawl-status.ts, property by property.

const db = testDb();
const HOUR = 3600 * 1000;

async function property(options: { enabled?: boolean; since?: Date; attempts?: [hoursAgo: number, status: number][] }) {
  const slug = uniqueSlug('conn');
  const team = await db.team.create({ data: { name: slug, slug } });
  const created = await db.property.create({
    data: {
      teamId: team.id,
      name: slug,
      domain: 'shop.example',
      brandTerms: [],
      plan: 'growth',
      crawlIngestionEnabled: options.enabled ?? true,
      crawlStatusSince: options.since ?? null,
    },
  });
  for (const [hoursAgo, statusCode] of options.attempts ?? []) {
    await db.deliveryLogEntry.create({
      data: {
        propertyId: created.id,
        channel: 'crawl',
        statusCode,
        outcome: 'test',
        createdAt: new Date(Date.now() - hoursAgo * HOUR),
      },
    });
  }
  return created.id;
}

describe('crawlConnections', () => {
  it('[CRAWL-30] derives each property’s status from its newest counted crawl attempt and its newest accepted one', async () => {
    const ids = {
      notVerified: await property({}),
      connected: await property({
        attempts: [
          [30, 401],
          [1, 202],
        ],
      }),
      // Accepted more than 24 hours ago, refused since: every attempt of the last 24 hours was turned away.
      rejecting: await property({
        attempts: [
          [23.5, 401],
          [30, 202],
          [1, 401],
        ],
      }),
      // One refusal after a batch accepted within 24 hours: still Connected (the dialog warns).
      refusedAfterAccepted: await property({
        attempts: [
          [2, 202],
          [1, 401],
        ],
      }),
      nothingArriving: await property({ attempts: [[25, 202]] }),
      disconnected: await property({ enabled: false, attempts: [[1, 202]] }),
      // Reconnected an hour ago: the attempts before it no longer count.
      reconnected: await property({ since: new Date(Date.now() - HOUR), attempts: [[2, 202]] }),
      reconnectedThenSent: await property({
        since: new Date(Date.now() - 2 * HOUR),
        attempts: [
          [30, 401],
          [1, 202],
        ],
      }),
    };
    // A webhook attempt is not a crawl attempt.
    const webhookOnly = await property({});
    await db.deliveryLogEntry.create({
      data: { propertyId: webhookOnly, channel: 'webhook', statusCode: 200, outcome: 'stored lead' },
    });

    const all = await crawlConnections(db);
    const statusOf = (id: string) => all.find((c) => c.propertyId === id)?.status;
    expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, statusOf(id)]))).toEqual({
      notVerified: 'not_verified',
      connected: 'connected',
      rejecting: 'rejecting',
      refusedAfterAccepted: 'connected',
      nothingArriving: 'nothing_arriving',
      disconnected: 'disconnected',
      reconnected: 'not_verified',
      reconnectedThenSent: 'connected',
    });
    expect(statusOf(webhookOnly)).toBe('not_verified');
    expect(all.find((c) => c.propertyId === ids.nothingArriving)?.lastCountedAttemptAt?.getTime()).toBeLessThan(
      Date.now() - 24 * HOUR,
    );
    expect(all.find((c) => c.propertyId === ids.reconnected)?.lastCountedAttemptAt).toBeNull();

    const mine = all.filter((c) => [...Object.values(ids), webhookOnly].includes(c.propertyId));
    expect(countByStatus(mine)).toEqual({
      not_verified: 3,
      connected: 3,
      rejecting: 1,
      nothing_arriving: 1,
      disconnected: 1,
    });
  });
});
