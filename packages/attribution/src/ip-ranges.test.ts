import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFixtureRanges } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED_AGENT_CATALOGUE,
  CrawlerIpIndex,
  OPERATOR_RANGE_SOURCES,
  PublishedRangesError,
  parseCidr,
  parsePublishedRanges,
} from './index.ts';

/** The generator's fixture ranges, parsed: operator → prefixes. */
function fixtureSets() {
  const dir = writeFixtureRanges();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({
      operator: f.replace(/\.json$/, ''),
      ...parsePublishedRanges(JSON.parse(readFileSync(join(dir, f), 'utf8'))),
    }));
}

describe('parsePublishedRanges', () => {
  it('reads the operators published shape, ignoring other keys; a creationTime without offset is UTC', () => {
    const parsed = parsePublishedRanges({
      creationTime: '2026-11-20T08:30:00.123456',
      syncToken: '1700000000000',
      prefixes: [{ ipv4Prefix: '192.0.2.0/26' }, { ipv6Prefix: '2001:db8:1::/48' }],
    });
    expect(parsed).toEqual({
      creationTime: new Date('2026-11-20T08:30:00.123Z'),
      prefixes: ['192.0.2.0/26', '2001:db8:1::/48'],
    });
    expect(parsePublishedRanges({ prefixes: [{ ipv4Prefix: '192.0.2.0/24' }] }).creationTime).toBeNull();
    expect(
      parsePublishedRanges({ creationTime: '2026-11-20T08:30:00+02:00', prefixes: [{ ipv4Prefix: '192.0.2.0/24' }] })
        .creationTime,
    ).toEqual(new Date('2026-11-20T06:30:00Z'));
  });

  it('reads every fixture file the traffic generator writes', () => {
    const sets = fixtureSets();
    expect(sets.map((s) => s.operator).sort()).toEqual([
      'amazon',
      'anthropic',
      'bytedance',
      'commoncrawl',
      'duckduckgo',
      'meta',
      'mistral',
      'openai',
      'perplexity',
    ]);
    expect(sets.find((s) => s.operator === 'openai')?.prefixes).toEqual(['192.0.2.0/26', '2001:db8:1::/48']);
    for (const set of sets) expect(set.creationTime).toEqual(new Date('2026-11-20T00:00:00Z'));
  });

  it('rejects a bad CIDR, naming the entry', () => {
    const bad = (prefixes: unknown[]) => () => parsePublishedRanges({ creationTime: null, prefixes });
    expect(bad([{ ipv4Prefix: '192.0.2.0/24' }, { ipv4Prefix: '192.0.2.300/24' }])).toThrow(
      /prefixes\.1\.ipv4Prefix: "192\.0\.2\.300\/24" is not an IPv4 CIDR/,
    );
    expect(bad([{ ipv4Prefix: '192.0.2.0/33' }])).toThrow(PublishedRangesError);
    expect(bad([{ ipv4Prefix: '192.0.2.0' }])).toThrow(/not an IPv4 CIDR/);
    expect(bad([{ ipv4Prefix: '2001:db8::/32' }])).toThrow(/not an IPv4 CIDR/);
    expect(bad([{ ipv6Prefix: '192.0.2.0/24' }])).toThrow(/not an IPv6 CIDR/);
    expect(bad([{ ipv6Prefix: '2001:db8::/129' }])).toThrow(/not an IPv6 CIDR/);
    expect(bad([{ ipv4Prefix: '010.0.2.0/24' }])).toThrow(/not an IPv4 CIDR/);
    expect(bad([{ somethingElse: '192.0.2.0/24' }])).toThrow(PublishedRangesError);
  });

  it('rejects a file that is not the shape at all, an empty list and an unreadable creationTime', () => {
    expect(() => parsePublishedRanges(null)).toThrow(PublishedRangesError);
    expect(() => parsePublishedRanges({ prefixes: 'x' })).toThrow(/prefixes/);
    expect(() => parsePublishedRanges({ prefixes: [] })).toThrow(/no prefixes/);
    expect(() =>
      parsePublishedRanges({ creationTime: 'yesterday', prefixes: [{ ipv4Prefix: '192.0.2.0/24' }] }),
    ).toThrow(/creationTime: "yesterday" is not an ISO 8601 date-time/);
  });
});

describe('CrawlerIpIndex', () => {
  // Built once: these tests only read it, and building it runs the traffic generator.
  const index = new CrawlerIpIndex(fixtureSets());

  it('[CRAWL-13] verifies an IP in its operator fixture block and not one outside or another operator’s', () => {
    expect(index.verify('openai', '192.0.2.1')).toBe('verified');
    expect(index.verify('openai', '192.0.2.63')).toBe('verified');
    expect(index.verify('openai', '192.0.2.64')).toBe('unverified');
    expect(index.verify('anthropic', '192.0.2.64')).toBe('verified');
    expect(index.verify('anthropic', '192.0.2.1')).toBe('unverified');
    expect(index.verify('mistral', '203.0.113.190')).toBe('verified');
    expect(index.verify('mistral', '203.0.113.192')).toBe('unverified');
    expect(index.verify('openai', '2001:db8:1:abcd::1')).toBe('verified');
    expect(index.verify('openai', '2001:db8:2::1')).toBe('unverified');
    expect(index.verify('anthropic', '2001:db8:1::1')).toBe('unverified');
  });

  it('[CRAWL-13] has ranges for every operator the generator sends crawlers of', () => {
    expect(index.operatorsWithRanges()).toEqual([
      'amazon',
      'anthropic',
      'bytedance',
      'commoncrawl',
      'duckduckgo',
      'meta',
      'mistral',
      'openai',
      'perplexity',
    ]);
    const catalogued = new Set(BUNDLED_AGENT_CATALOGUE.agents.map((a) => a.operator));
    for (const operator of index.operatorsWithRanges()) expect(catalogued).toContain(operator);
  });

  it('[CRAWL-13] is unverifiable without an IP, or for an operator that publishes no ranges', () => {
    expect(index.verify('openai', undefined)).toBe('unverifiable');
    expect(index.verify('openai', '')).toBe('unverifiable');
    expect(index.verify('cohere', '192.0.2.1')).toBe('unverifiable');
    expect(new CrawlerIpIndex([{ operator: 'cohere', prefixes: [] }]).verify('cohere', '192.0.2.1')).toBe(
      'unverifiable',
    );
  });

  it('[CRAWL-13] counts an unreadable IP as unverified', () => {
    for (const ip of [
      'not-an-ip',
      '192.0.2',
      '192.0.2.1.5',
      '192.0.2.010',
      '0xc0.0.2.1',
      '192.0.2.1:443',
      '2001:db8:::1',
    ]) {
      expect(index.verify('openai', ip), ip).toBe('unverified');
    }
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address, and tolerates surrounding spaces', () => {
    expect(index.verify('openai', '::ffff:192.0.2.5')).toBe('verified');
    expect(index.verify('openai', '::FFFF:c000:0205')).toBe('verified');
    expect(index.verify('openai', '::ffff:198.51.100.5')).toBe('unverified');
    expect(index.verify('openai', ' 192.0.2.5 ')).toBe('verified');
    expect(index.verify('openai', '2001:DB8:1::5')).toBe('verified');
  });

  it('merges several sets of one operator, and overlapping or adjacent prefixes, without losing an address', () => {
    const merged = new CrawlerIpIndex([
      { operator: 'openai', prefixes: ['10.0.0.0/24', '10.0.0.128/25'] },
      { operator: 'openai', prefixes: ['10.0.1.0/24', '10.0.3.0/24', '2001:db8::/64', '2001:db8:0:1::/64'] },
    ]);
    expect(merged.verify('openai', '10.0.0.0')).toBe('verified');
    expect(merged.verify('openai', '10.0.1.255')).toBe('verified');
    expect(merged.verify('openai', '10.0.2.0')).toBe('unverified');
    expect(merged.verify('openai', '10.0.3.9')).toBe('verified');
    expect(merged.verify('openai', '9.255.255.255')).toBe('unverified');
    expect(merged.verify('openai', '2001:db8:0:1:ffff:ffff:ffff:ffff')).toBe('verified');
    expect(merged.verify('openai', '2001:db8:0:2::')).toBe('unverified');
  });

  it('agrees with a linear scan over a thousand random prefixes', () => {
    let state = 7;
    const rand = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const prefixes = Array.from({ length: 1000 }, () => {
      const bits = 8 + Math.floor(rand() * 25);
      const n = Math.floor(rand() * 2 ** 32);
      return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}/${bits}`;
    });
    const scanned = new CrawlerIpIndex([{ operator: 'x', prefixes }]);
    const cidrs = prefixes.map((p) => parseCidr(p) as { start: number; end: number });
    for (let i = 0; i < 5000; i++) {
      const n = Math.floor(rand() * 2 ** 32);
      const ip = `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
      const expected = cidrs.some((c) => c.start <= n && n <= c.end) ? 'verified' : 'unverified';
      expect(scanned.verify('x', ip)).toBe(expected);
    }
  });

  it('refuses a prefix that is not a CIDR', () => {
    expect(() => new CrawlerIpIndex([{ operator: 'openai', prefixes: ['192.0.2.0/24', 'nope'] }])).toThrow(
      /openai: "nope" is not a CIDR/,
    );
  });
});

describe('OPERATOR_RANGE_SOURCES', () => {
  it('names https URLs only, for operators of the catalogue', () => {
    const catalogued = new Set(BUNDLED_AGENT_CATALOGUE.agents.map((a) => a.operator));
    expect(OPERATOR_RANGE_SOURCES.openai).toEqual([
      'https://openai.com/gptbot.json',
      'https://openai.com/searchbot.json',
      'https://openai.com/chatgpt-user.json',
    ]);
    for (const [operator, urls] of Object.entries(OPERATOR_RANGE_SOURCES)) {
      expect(catalogued).toContain(operator);
      for (const url of urls) expect(new URL(url).protocol).toBe('https:');
    }
  });
});
