import { crawlEventLineSchema, LOGPUSH_FIELDS } from '@vt/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchClassifier, type BatchSummary } from './batch-classifier.ts';
import { LOGPUSH_LINES } from './providers/cloudflare.ts';
import { RAW_TEXT_FIELDS } from './raw-fields.ts';

// The raw-text decision (droppedOnRawText, mayBeKept and the host read of decideWithoutParsing)
// restates, for speed, what the full parse decides. Here it is checked against the full parse on
// generated lines carrying every field of the line's schema: present, absent, repeated, nested,
// escaped, spaced, with values meant for it and values meant for other fields. A field added to
// the schema is generated here at once (with every field's values), so a field that can make a
// line kept, unknown to the raw-text decision, fails this test.

/** The same classifier with the raw-text decision off: every line parsed, then decided. */
class ParsingEveryLine extends BatchClassifier {
  protected override droppedOnRawText(): boolean {
    return false;
  }
  protected override mayBeKept(): boolean {
    return true;
  }
}

const FIELDS = Object.keys(crawlEventLineSchema.shape);

/**
 * Values each known field usually holds, the first one a kept line's; any other field gets the
 * shared ones only.
 */
const USUAL: Record<string, unknown[]> = {
  timestamp: ['2026-11-20T00:00:00Z', 1_763_596_800_000, '2026-11-20T00:00:00', 'yesterday'],
  host: ['example.com', 'WWW.Example.com:443', 'example.com.', 'other.example', 'notexample.com', ''],
  path: ['/', '/p?q=1', '/chatgpt.com', '/{id}', ''],
  userAgent: [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
    'GPTBot/1.1',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
    'PerplexityBot/1.0',
    'notGPTBot',
    '',
  ],
  statusCode: [200, 404, 99, 200.5, '200'],
  method: ['GET', 'post', 'X'.repeat(20)],
  referer: ['https://www.google.com/', 'https://chatgpt.com/', 'https://CHATGPT.COM/c/1', 'perplexity.ai', ''],
  ip: ['1.2.3.4', '2001:db8::1'],
  signature: ['sig1=:AA==:', ''],
  signatureInput: ['sig1=()', ''],
  signatureAgent: ['https://chatgpt.com', '"https://chatgpt.com"', 'https://unknown.example', ''],
};

/** Values any field may hold: every field's usual ones, what would keep a line, and odd shapes. */
const SHARED: unknown[] = [
  ...Object.values(USUAL).flat(),
  'https://claude.ai/chat',
  'ChatGPT-User/1.0',
  'host',
  'userAgent',
  'Agent',
  '{',
  '}',
  'İ',
  null,
  true,
  0,
  { host: 'other.example', userAgent: 'GPTBot/1.1', referer: 'https://chatgpt.com/' },
  ['GPTBot/1.1'],
];

/** A value of a field: mostly one meant for it (so that many lines are usable), sometimes any field's. */
const fieldValue = (field: string) => {
  const usual = USUAL[field];
  if (!usual) return fc.constantFrom(...SHARED);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(usual[0]) },
    { weight: 3, arbitrary: fc.constantFrom(...usual) },
    { weight: 1, arbitrary: fc.constantFrom(...SHARED) },
  );
};

/** A string's JSON text, written as a sender might: plain, with `\/`, or with a letter as `\u00XX`. */
type Escaping = 'none' | 'slashes' | 'unicode';
const jsonText = (value: unknown, escaping: Escaping) => {
  const text = JSON.stringify(value);
  if (typeof value !== 'string' || escaping === 'none') return text;
  if (escaping === 'slashes') return text.replaceAll('/', '\\/');
  return text.replace(/[A-Za-z]/, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
};

const escaping = fc.constantFrom<Escaping>('none', 'none', 'none', 'slashes', 'unicode');

/** One `"key":value` of a line, key and value each possibly escaped, the colon possibly spaced. */
const member = (key: string, value: fc.Arbitrary<unknown>) =>
  fc
    .record({ value, keyEscape: escaping, valueEscape: escaping, colon: fc.constantFrom(':', ':', ':', ' : ') })
    .map(({ value, keyEscape, valueEscape, colon }) => {
      return `${jsonText(key, keyEscape)}${colon}${jsonText(value, valueEscape)}`;
    });

/** A field as a line carries it (under `key`, its name in the line's format): absent, once, or twice (JSON.parse keeps the last). */
const field = (name: string, key = name) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant([] as string[]) },
    { weight: 10, arbitrary: member(key, fieldValue(name)).map((m) => [m]) },
    { weight: 1, arbitrary: fc.tuple(member(key, fieldValue(name)), member(key, fieldValue(name))) },
  );

/** Keys no schema field has, some ending like one, one holding a field's key nested in it. */
const otherMembers = fc.oneof(
  { weight: 3, arbitrary: fc.constant([] as string[]) },
  fc.subarray([
    '"ghost":"x"',
    '"myAgent":"GPTBot/1.1"',
    '"xreferer":"https://chatgpt.com/"',
    '"meta":{"host":"other.example","userAgent":"GPTBot/1.1","signatureAgent":"https://chatgpt.com"}',
    '"headers":{"referer":"https://chatgpt.com/"}',
  ]),
);

/** A JSON object line: every field (by its name in the line's format) placed or not, in any order, within white space. */
const lineOf = (keys: Record<string, string>, others: fc.Arbitrary<string[]>) =>
  fc
    .tuple(
      fc.tuple(...Object.entries(keys).map(([name, key]) => field(name, key))),
      others,
      fc.integer(),
      fc.constantFrom(',', ',', ', '),
      fc.constantFrom('', '', '', '', '', ' ', '\t', ' \u00a0', '\u2028', '\ufeff'),
    )
    .map(([fields, others, seed, comma, space]) => {
      const members = [...fields.flat(), ...others];
      // A shuffle the seed decides, so a failing case shrinks to the same line.
      const shuffled = members
        .map((m, i) => ({ m, order: Math.imul(seed ^ (i * 0x9e3779b1), 0x85ebca6b) >>> 0 }))
        .sort((a, b) => a.order - b.order)
        .map(({ m }) => m);
      return `${space}{${shuffled.join(comma)}}${space}`;
    });

const line = lineOf(Object.fromEntries(FIELDS.map((name) => [name, name])), otherMembers);

/** Logpush's http_requests fields, each under the name of the crawl line field it is read as. */
const LOGPUSH_KEYS: Record<string, string> = { ...LOGPUSH_FIELDS };

/**
 * Logpush lines: its fields, keys no field has (some ending like one), a field's key nested, the
 * other path field; now and then the job's test upload, which is no request.
 */
const logpushFieldsLine = lineOf(
  LOGPUSH_KEYS,
  fc.oneof(
    { weight: 3, arbitrary: fc.constant([] as string[]) },
    fc.subarray([
      '"RayID":"3a6050bcbe121a87"',
      '"OriginClientRequestUserAgent":"GPTBot/1.1"',
      '"XClientRequestReferer":"https://chatgpt.com/"',
      '"ClientRequestPath":"/p"',
      '"RequestHeaders":{"ClientRequestHost":"other.example","ClientRequestUserAgent":"GPTBot/1.1"}',
      '"content":"tests"',
    ]),
  ),
);
const logpushLine = fc.oneof(
  { weight: 30, arbitrary: logpushFieldsLine },
  { weight: 1, arbitrary: fc.constant('{"content":"tests"}') },
);

/** A plain Logpush line that parses. */
const LOGPUSH_PLAIN =
  '{"EdgeStartTimestamp":"2026-11-20T00:00:00Z","ClientRequestHost":"example.com","ClientRequestURI":"/","ClientRequestUserAgent":"Mozilla/5.0","EdgeResponseStatus":200}';

/** Logpush lines parsed whole, then decided. */
class ParsingEveryLogpushLine extends ParsingEveryLine {
  constructor() {
    super('example.com', ips, undefined, LOGPUSH_LINES);
  }
}

/**
 * The decision without the count of missing fields: that count is a diagnostic (which field a
 * job leaves out), read from a line's keys as written, so a key spelled with escapes counts as
 * missing on raw text and present once parsed. What is kept and counted must be the same.
 */
const decided = ({ missingFields: _missing, checkedLines: _checked, ...decision }: BatchSummary) => decision;

/** A plain line that parses: once one has, the raw-text decision is in play. */
const PLAIN =
  '{"timestamp":"2026-11-20T00:00:00Z","host":"example.com","path":"/","userAgent":"Mozilla/5.0","statusCode":200}';

const ips = { verify: (_operator: string, ip: string | undefined) => (ip ? 'verified' : 'unverifiable') } as const;
const signatures = { verify: async () => 'unverified' as const };

/** A body's lines through a classifier as the body stream hands them over: one text, line by line. */
async function decide(classifier: BatchClassifier, lines: string[]) {
  const text = lines.join('\n');
  classifier.useText(text);
  let start = 0;
  for (const each of lines) {
    classifier.lineAt(start, start + each.length);
    start += each.length + 1;
  }
  await classifier.settleSignatures(signatures);
  return classifier.summary();
}

describe('the raw-text decision', () => {
  it('places every field of the crawl line schema, and only those', () => {
    expect(Object.keys(RAW_TEXT_FIELDS).sort()).toEqual([...FIELDS].sort());
  });

  it('[CRAWL-12] keeps an AI crawler named under a key spelled with \\u escapes, as parsing reads it', async () => {
    const escaped = PLAIN.replace('"userAgent":"Mozilla/5.0"', '"\\u0075serAgent":"GPTBot/1.1"');
    const summary = await decide(new BatchClassifier('example.com', ips), [PLAIN, escaped]);
    expect(summary.events).toMatchObject([{ crawler: 'GPTBot', userAgent: 'GPTBot/1.1' }]);
  });

  it('[CRAWL-11] [CRAWL-12] [CRAWL-16] decides every generated batch exactly as parsing every line does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(line, { minLength: 1, maxLength: 8 }), async (plainFirst, lines) => {
        const body = plainFirst ? [PLAIN, ...lines] : lines;
        const fast = await decide(new BatchClassifier('example.com', ips), body);
        const parsed = await decide(new ParsingEveryLine('example.com', ips), body);
        expect(fast).toEqual(parsed);
      }),
      { numRuns: 3000 },
    );
  });

  it('decides every generated Logpush batch (its own field names) exactly as parsing every line does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(logpushLine, { minLength: 1, maxLength: 8 }),
        async (plainFirst, lines) => {
          const body = plainFirst ? [LOGPUSH_PLAIN, ...lines] : lines;
          const fast = await decide(new BatchClassifier('example.com', ips, undefined, LOGPUSH_LINES), body);
          const parsed = await decide(new ParsingEveryLogpushLine(), body);
          expect(decided(fast)).toEqual(decided(parsed));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('generates Logpush lines of every kind: kept, for other hosts, dropped, and records that are not requests', async () => {
    const sample = fc.sample(logpushLine, { numRuns: 2000, seed: 42 });
    const parsed = await decide(new ParsingEveryLogpushLine(), [LOGPUSH_PLAIN, ...sample]);
    expect(parsed.kept).toBeGreaterThan(50);
    expect(parsed.hostNotMatched.count).toBeGreaterThan(50);
    expect(parsed.received - parsed.kept - parsed.hostNotMatched.count).toBeGreaterThan(50);
    expect(parsed.notRequests).toBeGreaterThan(0);
  });

  it('[CRAWL-11] [CRAWL-12] decides as parsing does when any one field of a dropped line holds any value', async () => {
    // Exhaustive where the generated batches are random: each field of a line that is dropped
    // (every field present, none naming anything AI), set to each value any field may hold,
    // escaped or not, under its own key, an escaped key, or given again at the end.
    const ordinary = Object.fromEntries(
      Object.entries(USUAL).map(([key, values]) => [key, key === 'signatureAgent' ? '' : values[0]]),
    );
    for (const base of [ordinary, { ...ordinary, host: 'other.example' }]) {
      for (const field of FIELDS) {
        for (const keyForm of ['plain', 'escaped', 'again'] as const) {
          const lines = SHARED.flatMap((value) =>
            (['none', 'slashes', 'unicode'] as const).map((valueEscape) => {
              const set = `${jsonText(field, keyForm === 'escaped' ? 'unicode' : 'none')}:${jsonText(value, valueEscape)}`;
              const members = Object.entries(base)
                .filter(([key]) => keyForm === 'again' || key !== field)
                .map(([key, v]) => `${JSON.stringify(key)}:${JSON.stringify(v)}`);
              return `{${[...members, set].join(',')}}`;
            }),
          );
          const body = [PLAIN, ...lines];
          const fast = await decide(new BatchClassifier('example.com', ips), body);
          const parsed = await decide(new ParsingEveryLine('example.com', ips), body);
          expect(fast, `${field}, key ${keyForm}, on a line for ${base.host}`).toEqual(parsed);
          if (RAW_TEXT_FIELDS[field as keyof typeof RAW_TEXT_FIELDS] === 'read' && base === ordinary) {
            // The values reach what the field decides: some keep the line, or name another host.
            expect(parsed.kept + parsed.hostNotMatched.count, `${field} decides nothing here`).toBeGreaterThan(0);
          }
        }
      }
    }
  });

  it('[CRAWL-12] generates lines of every kind: kept as crawler visits, signed, referred, for other hosts, dropped', async () => {
    // Lines that never keep would prove nothing: the generator must reach every outcome.
    const sample = fc.sample(line, { numRuns: 3000, seed: 42 });
    const summary = await decide(new ParsingEveryLine('example.com', ips), [PLAIN, ...sample]);
    expect(summary.events.filter((e) => e.crawler && e.verification !== 'unverified').length).toBeGreaterThan(30);
    expect(summary.events.filter((e) => e.verification === 'unverified').length).toBeGreaterThan(5);
    expect(summary.events.filter((e) => e.aiPlatform).length).toBeGreaterThan(30);
    expect(summary.hostNotMatched.count).toBeGreaterThan(300);
    expect(summary.received - summary.kept - summary.hostNotMatched.count).toBeGreaterThan(300);
  });
});
