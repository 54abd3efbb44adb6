import { CrawlerIpIndex } from '@vt/attribution';
import { countBy, generateAccessLog } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { BatchClassifier, MAX_TRACKED_MISSED_HOSTS } from './batch-classifier.ts';
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

describe('lines for other hosts', () => {
  const line = (host: string) =>
    JSON.stringify({ timestamp: 1, host, path: '/', userAgent: 'Mozilla/5.0', statusCode: 200 });

  it('[CRAWL-11] a host per line counts every line but remembers a bounded number of hosts', () => {
    const classifier = new BatchClassifier('example.com', new CrawlerIpIndex([]));
    // The frequent hosts come early, as in a shared log; then a made-up host per line.
    for (let i = 0; i < 30; i++) classifier.line(line(i % 3 === 0 ? 'shop.other.org' : 'blog.other.org'));
    const madeUp = 5 * MAX_TRACKED_MISSED_HOSTS;
    for (let i = 0; i < madeUp; i++) classifier.line(line(`h${i}.attacker.test`));
    const summary = classifier.summary();
    expect(summary.hostNotMatched.count).toBe(30 + madeUp);
    expect(summary.hostNotMatched.hosts.slice(0, 2)).toEqual(['blog.other.org', 'shop.other.org']);
    const tracked = (classifier as unknown as { missedHosts: Map<string, number> }).missedHosts;
    expect(tracked.size).toBe(MAX_TRACKED_MISSED_HOSTS);
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

describe('the raw-text decision agrees with parsing on lines shaped to mislead it', () => {
  const ips = { verify: () => 'unverifiable' as const };
  const base = '"timestamp":"2026-11-20T00:00:00Z","path":"/p","statusCode":200';
  const plain = `{${base},"host":"example.com","userAgent":"Mozilla/5.0","referer":"https://www.google.com/"}`;
  // Each after a line that parsed, so the raw-text decision is in play; what parsing says of each.
  const cases: [string, string, { crawler?: string; aiPlatform?: string; hostMiss?: number; unreadable?: number }][] = [
    [
      'a repeated key (JSON.parse keeps the last)',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0","userAgent":"GPTBot/1.1"}`,
      { crawler: 'GPTBot' },
    ],
    [
      'an AI agent named through an escape',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0 \\u0047PTBot/1.1"}`,
      { crawler: 'GPTBot' },
    ],
    [
      'escaped slashes in an AI referer',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0","referer":"https:\\/\\/chatgpt.com\\/"}`,
      { aiPlatform: 'chatgpt' },
    ],
    [
      'spaces around the colon',
      `{${base},"host":"example.com","userAgent" : "Mozilla/5.0","referer" : "https://chatgpt.com/"}`,
      { aiPlatform: 'chatgpt' },
    ],
    [
      'an AI referer in capitals',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0","referer":"https://CHATGPT.COM/c/1"}`,
      { aiPlatform: 'chatgpt' },
    ],
    ['the host key only nested', `{${base},"meta":{"host":"other.example"},"userAgent":"Mozilla/5.0"}`, {}],
    [
      'a nested host before the real one',
      `{${base},"meta":{"host":"other.example"},"host":"example.com","userAgent":"GPTBot/1.1"}`,
      { crawler: 'GPTBot' },
    ],
    ['another host', `{${base},"host":"Other.Example:8080","userAgent":"Mozilla/5.0"}`, { hostMiss: 1 }],
    [
      'keys that end like host and Agent',
      `{${base},"ghost":"x","host":"example.com","myAgent":"GPTBot","userAgent":"Mozilla/5.0"}`,
      {},
    ],
    ['values that end like a key', `{${base},"method":"host","host":"example.com","userAgent":"Mozilla/5.0"}`, {}],
    [
      'an AI host in the path only',
      `{"timestamp":"2026-11-20T00:00:00Z","path":"/chatgpt.com","statusCode":200,"host":"example.com","userAgent":"Mozilla/5.0"}`,
      {},
    ],
    [
      'braces in a value',
      `{"timestamp":"2026-11-20T00:00:00Z","path":"/{id}","statusCode":200,"host":"example.com","userAgent":"ClaudeBot/1.0"}`,
      { crawler: 'ClaudeBot' },
    ],
    ['a referer that is not a string', `{${base},"host":"example.com","userAgent":"Mozilla/5.0","referer":null}`, {}],
    ['an unterminated user agent', `{${base},"host":"example.com","userAgent":"Mozilla/5.0}`, { unreadable: 1 }],
    [
      'empty Web Bot Auth headers, as a log format that always writes them leaves them',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0","signature":"","signatureInput":"","signatureAgent":""}`,
      {},
    ],
    [
      'empty Web Bot Auth headers on an AI crawler',
      `{${base},"host":"example.com","userAgent":"GPTBot/1.1","signature":"","signatureInput":"","signatureAgent":""}`,
      { crawler: 'GPTBot' },
    ],
    [
      'empty Web Bot Auth headers on another host',
      `{${base},"host":"other.example","userAgent":"Mozilla/5.0","signature":"","signatureInput":"","signatureAgent":""}`,
      { hostMiss: 1 },
    ],
    [
      'a real Signature-Agent, then an empty one (JSON.parse keeps the empty one: unsigned)',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0","signature":"sig1=:AA==:","signatureInput":"sig1=()","signatureAgent":"https://chatgpt.com","signatureAgent":""}`,
      {},
    ],
    [
      'a Signature-Agent on an ordinary user agent',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0","signature":"sig1=:AA==:","signatureInput":"sig1=()","signatureAgent":"https://chatgpt.com"}`,
      { crawler: 'ChatGPT Agent' },
    ],
    [
      'an empty Signature-Agent, then a real one (JSON.parse keeps the last)',
      `{${base},"host":"example.com","userAgent":"Mozilla/5.0","signature":"sig1=:AA==:","signatureInput":"sig1=()","signatureAgent":"","signatureAgent":"https://chatgpt.com"}`,
      { crawler: 'ChatGPT Agent' },
    ],
    [
      'Unicode white space around it',
      ` \u00a0{${base},"host":"example.com","userAgent":"GPTBot/1.1"}\u2028 `,
      { crawler: 'GPTBot' },
    ],
  ];
  // Signed lines are kept as their agent once their signatures are checked; any answer will do here.
  const signatures = { verify: async () => 'unverified' as const };
  it.each(cases)('%s', async (_name, line, expected) => {
    const classifier = new BatchClassifier('example.com', ips);
    classifier.useText(`${plain}\n${line}\n${plain}`);
    classifier.lineAt(0, plain.length);
    classifier.lineAt(plain.length + 1, plain.length + 1 + line.length);
    classifier.lineAt(plain.length + line.length + 2, 2 * plain.length + line.length + 2);
    await classifier.settleSignatures(signatures);
    const summary = classifier.summary();
    expect(summary.received).toBe(3);
    expect(summary.unreadable).toBe(expected.unreadable ?? 0);
    expect(summary.hostNotMatched.count).toBe(expected.hostMiss ?? 0);
    const kept = expected.crawler || expected.aiPlatform ? 1 : 0;
    expect(summary.events).toHaveLength(kept);
    if (expected.crawler) expect(summary.events[0]).toMatchObject({ crawler: expected.crawler });
    if (expected.aiPlatform) expect(summary.events[0]).toMatchObject({ aiPlatform: expected.aiPlatform });
  });
});
