import { describe, expect, it } from 'vitest';
import { crawlConnectionStatus, latestCrawlRefusal } from './crawl-status.ts';

// The one rule of the crawl connection status, on attempts given newest first as
// [hours ago, status code].

const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3600 * 1000;
const input = (attempts: [number, number][], extra: { statusSince?: Date; ingestionEnabled?: boolean } = {}) => ({
  ingestionEnabled: extra.ingestionEnabled ?? true,
  statusSince: extra.statusSince ?? null,
  attempts: attempts.map(([hoursAgo, statusCode]) => ({
    createdAt: new Date(NOW.getTime() - hoursAgo * HOUR),
    statusCode,
  })),
  now: NOW,
});

describe('crawlConnectionStatus (newest attempt first)', () => {
  it('[CRAWL-30] keeps the spec’s states: Not verified, Connected, Rejecting, Nothing arriving, Disconnected', () => {
    expect(crawlConnectionStatus(input([]))).toBe('not_verified');
    expect(crawlConnectionStatus(input([[1, 202]]))).toBe('connected');
    expect(crawlConnectionStatus(input([[1, 200]]))).toBe('connected');
    expect(
      crawlConnectionStatus(
        input([
          [1, 401],
          [2, 400],
        ]),
      ),
    ).toBe('rejecting');
    expect(crawlConnectionStatus(input([[25, 202]]))).toBe('nothing_arriving');
    expect(crawlConnectionStatus(input([[1, 202]], { ingestionEnabled: false }))).toBe('disconnected');
  });

  it('[CRAWL-30] one refusal after a batch accepted within 24 hours stays Connected, and names the refusal', () => {
    const refusedOnce = input([
      [0.5, 401],
      [2, 202],
    ]);
    expect(crawlConnectionStatus(refusedOnce)).toBe('connected');
    expect(latestCrawlRefusal(refusedOnce)).toMatchObject({ statusCode: 401 });
    // Several refusals after it still leave it Connected while the accepted batch is recent.
    expect(
      crawlConnectionStatus(
        input([
          [0.5, 413],
          [1, 401],
          [23, 202],
        ]),
      ),
    ).toBe('connected');
  });

  it('[CRAWL-30] Rejecting once every attempt of the last 24 hours was turned away', () => {
    expect(
      crawlConnectionStatus(
        input([
          [0.5, 401],
          [25, 202],
        ]),
      ),
    ).toBe('rejecting');
    expect(
      latestCrawlRefusal(
        input([
          [0.5, 401],
          [25, 202],
        ]),
      ),
    ).toBeNull();
  });

  it('[CRAWL-30] a batch accepted before a reconnect does not count', () => {
    const since = new Date(NOW.getTime() - 1.5 * HOUR);
    expect(
      crawlConnectionStatus(
        input(
          [
            [1, 401],
            [2, 202],
          ],
          { statusSince: since },
        ),
      ),
    ).toBe('rejecting');
  });

  it('no warning while the newest attempt was accepted', () => {
    expect(
      latestCrawlRefusal(
        input([
          [1, 202],
          [2, 401],
        ]),
      ),
    ).toBeNull();
    expect(latestCrawlRefusal(input([]))).toBeNull();
  });
});
