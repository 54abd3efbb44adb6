import { readdirSync, readFileSync } from 'node:fs';
import { CRAWL_EVENT_CAPS, crawlEventSchema } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import { crawlEndpoint, crawlLine, LINE_CAPS, type RequestFacts } from './batcher';

// The line a sender makes of a request, held to the service's own reading of it: whatever the
// sender cuts or leaves out, the service decides the same as on the request's whole text.

const facts = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  at: Date.parse('2026-03-01T10:00:00Z'),
  host: 'shop.example',
  path: '/pricing',
  method: 'GET',
  statusCode: 200,
  userAgent: 'GPTBot/1.2',
  ...over,
});

/** What the service keeps of a line, or null when it reads it as unusable. */
const served = (line: object) => {
  const read = crawlEventSchema.safeParse(JSON.parse(JSON.stringify(line)));
  return read.success ? read.data : null;
};

describe('crawlLine', () => {
  it('is the line the service reads: timestamp with an offset, the query dropped from path and referer', () => {
    const line = crawlLine(
      facts({ path: '/docs?token=secret#top', referer: 'https://chatgpt.com/c/1?q=x', ip: '192.0.2.1' }),
    );
    expect(line).toEqual({
      timestamp: '2026-03-01T10:00:00.000Z',
      host: 'shop.example',
      path: '/docs',
      method: 'GET',
      statusCode: 200,
      userAgent: 'GPTBot/1.2',
      referer: 'https://chatgpt.com/c/1',
      ip: '192.0.2.1',
    });
    expect(served(line)).toMatchObject({ path: '/docs', referer: 'https://chatgpt.com/c/1', ip: '192.0.2.1' });
    expect(crawlLine(facts({ path: '?only=query' })).path).toBe('/');
    // No user agent is sent as an empty one: counted by the service, never kept (CRAWL-8).
    expect(served(crawlLine(facts({ userAgent: null })))).toBeNull();
  });

  it('cuts each field over its cap to one character over it, so the service still reads the line as unusable', () => {
    const long = (n: number) => 'a'.repeat(n);
    for (const over of [
      { userAgent: `GPTBot/1.2 ${long(CRAWL_EVENT_CAPS.userAgent)}` },
      { path: `/${long(CRAWL_EVENT_CAPS.path)}` },
      { host: `${long(CRAWL_EVENT_CAPS.host)}.example` },
    ]) {
      const whole = { ...facts(), ...over, timestamp: '2026-03-01T10:00:00Z' };
      expect(served(whole)).toBeNull();
      const line = crawlLine(facts(over));
      expect(served(line)).toBeNull();
      expect(JSON.stringify(line).length).toBeLessThan(9_000);
    }
    // A referer the service cuts to its cap is cut to it: the same kept referer either way.
    const referer = `https://chatgpt.com/${long(20_000)}`;
    expect(served(crawlLine(facts({ referer })))?.referer).toBe(served({ ...crawlLine(facts()), referer })?.referer);
    // A method over its cap is left out by the service, whole or cut.
    expect(served(crawlLine(facts({ method: long(40) })))).not.toHaveProperty('method');
  });

  it('holds the caps the service keeps', () => {
    const { ip: _ip, ...caps } = LINE_CAPS;
    expect(caps).toEqual(CRAWL_EVENT_CAPS);
  });

  it('forwards the Web Bot Auth headers only for a request that names a Signature-Agent', () => {
    const signed = {
      signature: 'sig1=:abc:',
      signatureInput: 'sig1=("@authority")',
      signatureAgent: '"https://chatgpt.com"',
    };
    expect(crawlLine(facts(signed))).toMatchObject(signed);
    const unsigned = crawlLine(facts({ ...signed, signatureAgent: '' }));
    expect(Object.keys(unsigned)).not.toContain('signature');
    expect(Object.keys(unsigned)).not.toContain('signatureInput');
  });
});

describe('crawlEndpoint', () => {
  it('is the property’s endpoint under the ingest URL, and takes the endpoint itself as it is', () => {
    const id = 'c0ffee00-0000-4000-8000-000000000001';
    const endpoint = `https://ingest.example.com/api/ingest/crawl/${id}`;
    expect(crawlEndpoint('https://ingest.example.com', id)).toBe(endpoint);
    expect(crawlEndpoint('https://ingest.example.com/', id)).toBe(endpoint);
    expect(crawlEndpoint(endpoint, id)).toBe(endpoint);
  });
});

describe('the senders', () => {
  it('depend on nothing: no dependency in package.json, and no import but batcher and Node types', () => {
    const here = new URL('./', import.meta.url);
    const manifest = JSON.parse(readFileSync(new URL('../package.json', here), 'utf8'));
    expect(manifest.dependencies).toBeUndefined();
    const sources = readdirSync(here).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(sources.sort()).toEqual([
      'batcher.ts',
      'cloudflare-worker.ts',
      'express-middleware.ts',
      'next-middleware.ts',
    ]);
    for (const file of sources) {
      const imports = [
        ...readFileSync(new URL(file, here), 'utf8').matchAll(/import\s+(type\s+)?[^;]*?from\s+'([^']+)'/g),
      ];
      for (const [statement, typeOnly, from] of imports) {
        expect(from === './batcher' || (typeOnly && from?.startsWith('node:')), `${file}: ${statement}`).toBe(true);
      }
    }
  });
});
