import { describe, expect, it } from 'vitest';
import { CRAWL_EVENT_CAPS, crawlEventSchema, keptCrawlEventSchema } from './crawl-event.ts';

const GPTBOT = 'Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)';
const line = (extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-11-20T10:00:00Z',
  host: 'example.com',
  path: '/pricing',
  userAgent: GPTBOT,
  statusCode: 200,
  ...extra,
});
const read = (value: unknown) => crawlEventSchema.safeParse(value);

describe('crawlEventSchema: one line of a crawl batch', () => {
  it('[CRAWL-6] takes the required fields alone, with no optional key present', () => {
    expect(read(line()).data).toEqual({
      occurredAt: '2026-11-20T10:00:00.000Z',
      host: 'example.com',
      path: '/pricing',
      userAgent: GPTBOT,
      statusCode: 200,
    });
  });

  it('[CRAWL-6] reads timestamps with an offset or in epoch ms as the UTC instant', () => {
    expect(read(line({ timestamp: '2026-11-20T12:00:00+02:00' })).data?.occurredAt).toBe('2026-11-20T10:00:00.000Z');
    expect(read(line({ timestamp: '2026-11-20T12:00:00+0200' })).data?.occurredAt).toBe('2026-11-20T10:00:00.000Z');
    expect(read(line({ timestamp: Date.UTC(2026, 10, 20, 10) })).data?.occurredAt).toBe('2026-11-20T10:00:00.000Z');
    for (const timestamp of [
      '2026-11-20T10:00:00',
      '2026-11-20 10:00:00Z',
      '2026-11-20t10:00:00Z',
      '2026-13-45T00:00:00Z',
    ]) {
      expect(read(line({ timestamp })).success, timestamp).toBe(false);
    }
    expect(read(line({ timestamp: 9e15 })).success).toBe(false); // past the last Date
  });

  it('[CRAWL-7] strips the query string and fragment from the path and the referer', () => {
    const event = read(line({ path: '/a?utm=1#x', referer: 'https://chatgpt.com/c/1?q=secret' })).data;
    expect(event).toMatchObject({ path: '/a', referer: 'https://chatgpt.com/c/1' });
    expect(read(line({ path: '?only=query' })).data?.path).toBe('/');
  });

  it('[CRAWL-8] a line without a user agent, or with an empty one, is unusable', () => {
    const { userAgent: _, ...noAgent } = line();
    expect(read(noAgent).success).toBe(false);
    expect(read(line({ userAgent: '' })).success).toBe(false);
  });

  it('refuses what could never be stored: NUL, over-long fields, a status outside 100-999', () => {
    expect(read(line({ host: 'a\u0000b' })).success).toBe(false);
    expect(read(line({ referer: 'https://chatgpt.com/\u0000' })).success).toBe(false);
    expect(read(line({ host: 'h'.repeat(CRAWL_EVENT_CAPS.host + 1) })).success).toBe(false);
    expect(read(line({ userAgent: 'u'.repeat(CRAWL_EVENT_CAPS.userAgent + 1) })).success).toBe(false);
    expect(read(line({ path: `/${'p'.repeat(CRAWL_EVENT_CAPS.path)}` })).success).toBe(false);
    // The cap applies to what is kept: a long query string is stripped first.
    expect(read(line({ path: `/p?${'q'.repeat(CRAWL_EVENT_CAPS.path)}` })).success).toBe(true);
    for (const statusCode of [99, 1000, 200.5, '200']) expect(read(line({ statusCode })).success).toBe(false);
  });

  it('applies the host and method caps after case mapping, so a read line always fits the job', () => {
    // 'İ' lower-cases to two characters: 212 sent, 412 kept.
    const host = `${'İ'.repeat(200)}.example.com`;
    expect(host.length).toBeLessThanOrEqual(CRAWL_EVENT_CAPS.host);
    expect(read(line({ host })).success).toBe(false);
    // 'ß' upper-cases to 'SS': within the cap as sent, over it as kept, so it is left out.
    const method = 'ß'.repeat(CRAWL_EVENT_CAPS.method);
    expect(read(line({ method })).data).not.toHaveProperty('method');
    const fits = read(line({ host: `${'İ'.repeat(100)}.example.com`, method: 'ß'.repeat(8) })).data;
    expect(fits?.host).toHaveLength(212);
    expect(keptCrawlEventSchema.safeParse(fits).success).toBe(true);
  });

  it('[CRAWL-6] leaves out odd optional fields instead of refusing the line; ignores unknown keys', () => {
    const event = read(line({ method: 7, referer: 42, ip: ['1.2.3.4'], cookie: 'x', extra: { host: 'other' } })).data;
    expect(event).toEqual(read(line()).data);
    expect(read(line({ method: 'x'.repeat(CRAWL_EVENT_CAPS.method + 1) })).data).not.toHaveProperty('method');
    expect(read(line({ method: 'get', referer: '', ip: '192.0.2.1' })).data).toMatchObject({
      method: 'GET',
      ip: '192.0.2.1',
    });
    expect(read(line({ referer: '' })).data).not.toHaveProperty('referer');
    expect(read(line({ host: 'WWW.Example.COM' })).data?.host).toBe('www.example.com');
  });

  it('[CRAWL-14] what is kept of a line, with the gateway’s decision, fits the job’s kept event; an ip does not', () => {
    const { ip, ...kept } = read(line({ ip: '192.0.2.1', method: 'GET' })).data!;
    const decided = { ...kept, crawler: 'GPTBot', operator: 'openai', verification: 'verified' as const };
    expect(keptCrawlEventSchema.parse(decided)).toEqual(decided);
    expect(keptCrawlEventSchema.safeParse({ ...decided, ip }).success).toBe(false);
  });
});
