#!/usr/bin/env node
// Vendored, unchanged but for this header, from the team's shared tools (shared/tools/gen-access-log.mjs),
// so the project's tests and benchmarks need nothing outside this repository. To update it, copy the
// shared file over this one and keep the header.
// Realistic web-server request events for the crawl ingest endpoint, with the ground truth beside them.
//
//   node gen-access-log.mjs --lines 100000 --out events.ndjson.gz
//   node gen-access-log.mjs --lines 200000 --batch 10000 --out-dir batches/   (one file per batch)
//   node gen-access-log.mjs --ranges-out ranges/                              (fixture published IP ranges)
//
// Options: --seed N (default 1), --host www.example.com (the property's host), --format ndjson|json,
// --ai-rate 0.008 (AI crawler share), --referral-rate 0.002 (AI-referred human share),
// --truth FILE (ground truth JSON; default: printed to stderr), --day 2026-11-20 (UTC day of events).
// A file name ending in .gz is gzipped.
//
// Fixture IP ranges use the documentation blocks (RFC 5737 / RFC 3849), one block per operator, in the
// operators' published JSON shape {creationTime, prefixes:[{ipv4Prefix}|{ipv6Prefix}]}. An event whose IP
// lies in its operator's fixture block is "verified"; any other IP, or none, is not.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]?.startsWith('--') || all[i + 1] === undefined ? 'true' : all[i + 1]]);
    return acc;
  }, []),
);
const lines = Number(args.lines ?? 10000);
const host = args.host ?? 'www.example.com';
const aiRate = Number(args['ai-rate'] ?? 0.008);
const referralRate = Number(args['referral-rate'] ?? 0.002);
const day = args.day ?? '2026-11-20';

// Seeded PRNG (mulberry32) so every run with the same seed yields the same events.
let state = Number(args.seed ?? 1) >>> 0;
const rand = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

// operator -> fixture block (documentation ranges only)
const FIXTURE_RANGES = {
  openai: ['192.0.2.0/26', '2001:db8:1::/48'],
  anthropic: ['192.0.2.64/26'],
  perplexity: ['192.0.2.128/26'],
  meta: ['198.51.100.0/26'],
  amazon: ['198.51.100.64/26'],
  commoncrawl: ['198.51.100.128/26'],
  bytedance: ['203.0.113.0/26'],
  duckduckgo: ['203.0.113.64/26'],
  mistral: ['203.0.113.128/26'],
};
const ipIn = (cidr) => {
  const [base] = cidr.split('/');
  if (base.includes(':')) return base.replace('::', ':' + Math.floor(rand() * 65535).toString(16) + '::' + Math.floor(1 + rand() * 65534).toString(16));
  const p = base.split('.').map(Number);
  return `${p[0]}.${p[1]}.${p[2]}.${p[3] + 1 + Math.floor(rand() * 60)}`;
};
const randomIp = () => `${11 + Math.floor(rand() * 180)}.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}.${1 + Math.floor(rand() * 253)}`;

const AI_CRAWLERS = [
  ['GPTBot', 'openai', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)'],
  ['OAI-SearchBot', 'openai', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot'],
  ['ChatGPT-User', 'openai', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot'],
  ['ClaudeBot', 'anthropic', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)'],
  ['Claude-User', 'anthropic', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)'],
  ['Claude-SearchBot', 'anthropic', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)'],
  ['PerplexityBot', 'perplexity', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)'],
  ['Perplexity-User', 'perplexity', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)'],
  ['meta-externalagent', 'meta', 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)'],
  ['Amazonbot', 'amazon', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36'],
  ['CCBot', 'commoncrawl', 'CCBot/2.0 (https://commoncrawl.org/faq/)'],
  ['Bytespider', 'bytedance', 'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)'],
  ['DuckAssistBot', 'duckduckgo', 'DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)'],
  ['MistralAI-User', 'mistral', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)'],
];
const HUMANS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
];
const OTHER_BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
  'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  'curl/8.5.0',
  'python-requests/2.32.3',
];
const AI_REFERRERS = [
  ['chatgpt', 'https://chatgpt.com/'],
  ['chatgpt', 'https://chat.openai.com/'],
  ['perplexity', 'https://www.perplexity.ai/'],
  ['perplexity', 'https://perplexity.ai/search/best-crm-tools-abc123'],
  ['claude', 'https://claude.ai/'],
  ['gemini', 'https://gemini.google.com/app'],
  ['copilot', 'https://copilot.microsoft.com/'],
];
const OTHER_REFERRERS = ['https://www.google.com/', 'https://www.bing.com/', 'https://t.co/x1y2z3', 'https://news.ycombinator.com/', ''];
const PAGES = Array.from({ length: 400 }, (_, i) => pick(['/blog/', '/docs/', '/pricing', '/product/', '/guides/']) + (i % 5 === 2 ? '' : `item-${i}`));
const ASSETS = ['/assets/app.js', '/assets/app.css', '/favicon.ico', '/images/hero.webp', '/fonts/inter.woff2'];

const truth = { lines, host, received: 0, unreadable: 0, hostNotMatched: 0, kept: 0, crawlerHits: {}, verifiedHits: {}, referrals: {}, hostsNotMatched: {} };
const t0 = Date.parse(`${day}T00:00:00Z`);
const out = [];
for (let i = 0; i < lines; i++) {
  truth.received++;
  const ts = t0 + Math.floor((i / lines) * 86_400_000);
  const r = rand();
  if (r < 0.0005) {
    out.push('{"timestamp": "' + new Date(ts).toISOString() + '", "host": "' + host); // truncated line: unreadable
    truth.unreadable++;
    continue;
  }
  const wrongHost = rand() < 0.001;
  const ev = {
    timestamp: rand() < 0.5 ? new Date(ts).toISOString() : ts,
    host: wrongHost ? pick(['staging.other-shop.test', 'cdn.unrelated.test', 'old.other-shop.test']) : host,
    path: pick(PAGES),
    method: 'GET',
    statusCode: 200,
    userAgent: '',
  };
  let kind = 'human';
  let crawler, platform;
  const k = rand();
  if (k < aiRate) {
    kind = 'crawler';
    crawler = pick(AI_CRAWLERS);
    ev.userAgent = crawler[2];
    const v = rand();
    if (v < 0.7) ev.ip = ipIn(pick(FIXTURE_RANGES[crawler[1]]));
    else if (v < 0.9) ev.ip = randomIp();
  } else if (k < aiRate + referralRate) {
    kind = 'referral';
    const ref = pick(AI_REFERRERS);
    platform = ref[0];
    ev.userAgent = pick(HUMANS);
    ev.referer = ref[1];
    ev.ip = randomIp();
  } else if (k < aiRate + referralRate + 0.05) {
    ev.userAgent = pick(OTHER_BOTS);
    ev.ip = randomIp();
  } else {
    ev.userAgent = pick(HUMANS);
    ev.ip = randomIp();
    if (rand() < 0.45) ev.path = pick(ASSETS);
    const ref = pick(OTHER_REFERRERS);
    if (ref) ev.referer = ref;
  }
  if (rand() < 0.1) ev.path += '?utm_campaign=fall&session=' + Math.floor(rand() * 1e9);
  if (rand() < 0.02) ev.statusCode = pick([301, 304, 404, 500]);
  out.push(JSON.stringify(ev));
  if (wrongHost) {
    truth.hostNotMatched++;
    truth.hostsNotMatched[ev.host] = (truth.hostsNotMatched[ev.host] ?? 0) + 1;
    continue;
  }
  if (kind === 'crawler') {
    truth.kept++;
    truth.crawlerHits[crawler[0]] = (truth.crawlerHits[crawler[0]] ?? 0) + 1;
    const verified = ev.ip !== undefined && FIXTURE_RANGES[crawler[1]].some((c) => inCidr(ev.ip, c));
    if (verified) truth.verifiedHits[crawler[0]] = (truth.verifiedHits[crawler[0]] ?? 0) + 1;
  } else if (kind === 'referral') {
    truth.kept++;
    truth.referrals[platform] = (truth.referrals[platform] ?? 0) + 1;
  }
}

function inCidr(ip, cidr) {
  const [base, bits] = cidr.split('/');
  if (base.includes(':') !== ip.includes(':')) return false;
  if (ip.includes(':')) return ip.startsWith(base.replace(/::$/, ':').slice(0, base.indexOf('::') + 1)); // fixture blocks only
  const toInt = (s) => s.split('.').reduce((a, p) => a * 256 + Number(p), 0);
  const mask = 2 ** (32 - Number(bits));
  return Math.floor(toInt(ip) / mask) === Math.floor(toInt(base) / mask);
}

const encode = (rows) => (args.format === 'json' ? '[' + rows.join(',') + ']' : rows.join('\n') + '\n');
const write = (file, text) => writeFileSync(file, file.endsWith('.gz') ? gzipSync(text) : text);

if (args['ranges-out']) {
  mkdirSync(args['ranges-out'], { recursive: true });
  for (const [op, cidrs] of Object.entries(FIXTURE_RANGES)) {
    const prefixes = cidrs.map((c) => (c.includes(':') ? { ipv6Prefix: c } : { ipv4Prefix: c }));
    writeFileSync(join(args['ranges-out'], `${op}.json`), JSON.stringify({ creationTime: `${day}T00:00:00.000000`, prefixes }, null, 2) + '\n');
  }
}
if (args['out-dir']) {
  const size = Number(args.batch ?? 5000);
  mkdirSync(args['out-dir'], { recursive: true });
  const ext = (args.format === 'json' ? '.json' : '.ndjson') + (args.gzip === 'false' ? '' : '.gz');
  for (let b = 0; b * size < out.length; b++) write(join(args['out-dir'], `batch-${String(b).padStart(5, '0')}${ext}`), encode(out.slice(b * size, (b + 1) * size)));
} else if (args.out) {
  write(args.out, encode(out));
}
const truthText = JSON.stringify(truth, null, 2) + '\n';
if (args.truth) writeFileSync(args.truth, truthText);
else process.stderr.write(truthText);
