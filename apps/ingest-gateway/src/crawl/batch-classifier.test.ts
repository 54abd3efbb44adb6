import { CrawlerIpIndex } from '@vt/attribution';
import { countBy, generateAccessLog } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { BatchClassifier } from './batch-classifier.ts';
import { JsonArraySplitter } from './json-array-splitter.ts';

// The generator's ground truth, to the line: what a batch of realistic traffic must come to.

describe.each([
  { seed: 1, lines: 40_000 },
  { seed: 7, lines: 25_000 },
])('BatchClassifier on generated traffic (seed $seed)', ({ seed, lines }) => {
  const log = generateAccessLog({ lines, seed });
  const classifier = new BatchClassifier('example.com', new CrawlerIpIndex(log.ranges));
  for (const line of log.text.split('\n')) classifier.line(line);
  const summary = classifier.summary();
  const crawlerEvents = summary.events.filter((e) => e.crawler);

  it('[CRAWL-16] received counts every line, unreadable ones included', () => {
    expect(summary.received).toBe(log.truth.received);
    expect(summary.unreadable).toBe(log.truth.unreadable);
  });

  it('[CRAWL-12] keeps exactly the AI crawler visits and AI-referred visits, roughly one line in a hundred', () => {
    expect(summary.kept).toBe(log.truth.kept);
    expect(countBy(crawlerEvents, (e) => e.crawler)).toEqual(log.truth.crawlerHits);
    expect(countBy(summary.events, (e) => e.aiPlatform)).toEqual(log.truth.referrals);
    expect(summary.kept / summary.received).toBeLessThan(0.02);
  });

  it('[CRAWL-13] verifies crawler IPs against the operators’ published ranges', () => {
    const verified = crawlerEvents.filter((e) => e.verification === 'verified');
    expect(countBy(verified, (e) => e.crawler)).toEqual(log.truth.verifiedHits);
    expect(crawlerEvents.every((e) => e.verification !== undefined)).toBe(true);
  });

  it('[CRAWL-11] counts lines for other hosts and names up to three, most frequent first', () => {
    const expectedHosts = Object.entries(log.truth.hostsNotMatched)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([host]) => host);
    expect(summary.hostNotMatched).toEqual({ count: log.truth.hostNotMatched, hosts: expectedHosts });
  });

  it('[CRAWL-14] keeps no IP and no query string', () => {
    const json = JSON.stringify(summary.events);
    const sentIps = [...log.text.matchAll(/"ip":"([^"]+)"/g)].map((m) => m[1]!);
    expect(sentIps.length).toBeGreaterThan(1000);
    const keptStrings = new Set(json.match(/"[^"]*"/g));
    expect(sentIps.filter((ip) => keptStrings.has(`"${ip}"`))).toEqual([]);
    expect(json).not.toMatch(/"ip"/);
    expect(json).not.toContain('?');
  });
});

describe('JSON array bodies', () => {
  it('[CRAWL-4] a JSON array of the same events comes to the same truth as NDJSON', () => {
    const log = generateAccessLog({ lines: 10_000, seed: 3, format: 'json' });
    const classifier = new BatchClassifier('example.com', new CrawlerIpIndex(log.ranges));
    const splitter = new JsonArraySplitter((record) => classifier.line(record));
    // Feed it in awkward chunks: boundaries inside strings, escapes and objects.
    for (let i = 0; i < log.text.length; i += 997) splitter.push(log.text.slice(i, i + 997));
    splitter.end();
    const summary = classifier.summary();
    expect(summary.received).toBe(log.truth.received);
    expect(summary.unreadable).toBe(log.truth.unreadable);
    expect(summary.kept).toBe(log.truth.kept);
    expect(summary.hostNotMatched.count).toBe(log.truth.hostNotMatched);
  });

  it('splits elements whose strings hold brackets, braces, commas and escaped quotes', () => {
    const records: string[] = [];
    const splitter = new JsonArraySplitter((r) => records.push(r));
    splitter.push('[{"a":"}],{[\\"x"},');
    splitter.push(' {"b":[1,{"c":2}]} , 3, "s,]" ]');
    splitter.end();
    expect(records.map((r) => JSON.parse(r))).toEqual([{ a: '}],{["x' }, { b: [1, { c: 2 }] }, 3, 's,]']);
  });

  it('hands over a truncated element and text that is not an array as one unreadable record each', () => {
    const truncated: string[] = [];
    const a = new JsonArraySplitter((r) => truncated.push(r));
    a.push('[{"a":1},{"b":');
    a.end();
    expect(truncated).toEqual(['{"a":1}', '{"b":']);
    const notArray: string[] = [];
    const b = new JsonArraySplitter((r) => notArray.push(r));
    b.push('hello');
    b.push(' world');
    b.end();
    expect(notArray).toEqual(['hello']);
  });
});
