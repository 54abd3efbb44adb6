import {
  type AgentMatch,
  type AgentMatcher,
  AI_PLATFORMS,
  hostOfReferrer,
  platformForHost,
  signatureAgentOrigin,
} from '@vt/attribution';
import { bundledMatcher } from '@vt/catalogue-store';
import { CRAWL_EVENT_CAPS, type CrawlVerification, crawlEventSchema, type KeptCrawlEvent } from '@vt/contracts';
import { agentMemo, DecisionMemo, encodedAgentMemo, ownCopy } from './decision-memo.ts';
import {
  type CrawlLineCandidate,
  type CrawlLineFormat,
  NOT_A_REQUEST,
  quotedKey,
  type RawKeys,
  REQUIRED_LINE_FIELDS,
  type RequiredLineField,
  SPEC_LINES,
} from './line-format.ts';
import { NeedleCursor, rawStringField } from './raw-fields.ts';
import type { SignatureVerifier, SignedRequest } from './signature-verifier.ts';

export interface IpVerifier {
  verify(operator: string, ip: string | undefined): CrawlVerification;
}

export interface BatchSummary {
  /** Records that were requests (records that are not, such as a Logpush test upload, are not counted). */
  received: number;
  /** Records that were not requests. */
  notRequests: number;
  /** Per field a usable line needs, the checked lines that lacked it (a provider's lines only). */
  missingFields: Partial<Record<RequiredLineField, number>>;
  /** Lines checked for the fields they lack: every parsed line, and the first of those decided on raw text. */
  checkedLines: number;
  kept: number;
  unreadable: number;
  hostNotMatched: { count: number; hosts: string[] };
  events: KeptCrawlEvent[];
}

/**
 * Distinct other hosts a batch tracks for its note. Past it, lines for other hosts are still
 * counted, but a host not seen yet is not remembered: one line per made-up host would otherwise
 * grow a map entry per line (a 100 MiB body of short lines is over a million of them).
 */
export const MAX_TRACKED_MISSED_HOSTS = 1000;

/**
 * Decides every line of one batch: unreadable, dropped for its host, dropped as ordinary traffic,
 * or kept as an AI crawler visit or an AI-referred visit. Most lines are decided on their raw
 * text: only a line whose user agent is an AI crawler or whose referer names an AI platform is
 * JSON-parsed, since parsing every line costs more than everything else together. The raw decisions keep `received`,
 * `kept`, the host note and the unreadable count exact for lines shaped as JSON objects; the IP of
 * a kept crawler line is used to verify it and never copied into the event.
 */
export class BatchClassifier {
  private received = 0;
  private notRequests = 0;
  private readonly missingFields: Partial<Record<RequiredLineField, number>> = {};
  private checkedLines = 0;
  /** Lines decided on raw text that were checked for missing fields; past the sample, none are. */
  private rawChecked = 0;
  private unreadable = 0;
  private hostMisses = 0;
  private readonly missedHosts = new Map<string, number>();
  private readonly events: KeptCrawlEvent[] = [];
  private lastMatchingHost = '';
  /** Lines signed by an agent's Signature-Agent, kept once their signatures are checked. */
  private readonly signed: { request: SignedRequest; event: KeptCrawlEvent; agent: AgentMatch }[] = [];
  private readableSeen = false;
  /** The text lineAt reads, and where the raw-text decision's needles occur next in it. */
  private text = '';
  private readonly backslash = NeedleCursor.of('\\');
  private readonly agentKeys: NeedleCursor;
  private readonly hostKeys: NeedleCursor;
  private readonly refererKeys: NeedleCursor;
  private readonly braces = NeedleCursor.of('{');
  private readonly cursors: NeedleCursor[];
  /** The format's raw keys, null when every record is parsed. */
  private readonly keys: RawKeys | null;
  /** Quoted keys for rawStringField. */
  private readonly userAgentKey: string;
  private readonly hostKey: string;
  private readonly refererKey: string;
  private readonly signatureAgentKey: string | null;
  /** A provider's other required fields, each with cursors on the keys that can carry it. */
  private readonly requiredKeys: { field: RequiredLineField; cursors: NeedleCursor[] }[];
  private readonly userAgents: DecisionMemo;
  /** The memo of percent-encoded user agents, once a source asks (encodedAgentMayMatch). */
  private encodedAgents: DecisionMemo | undefined;
  /** Where the string value stringValueAt or onlyValue found last ends (its closing quote). */
  private valueEnd = 0;

  constructor(
    private readonly domain: string,
    private readonly ipVerifier: IpVerifier,
    private readonly agents: AgentMatcher = bundledMatcher,
    private readonly format: CrawlLineFormat = SPEC_LINES,
  ) {
    this.userAgents = agentMemo(agents);
    this.keys = format.rawKeys;
    const keys = format.rawKeys ?? SPEC_LINES.rawKeys;
    if (!keys) throw new Error('the spec lines have raw keys');
    this.agentKeys = NeedleCursor.of(keys.agentNeedle);
    this.hostKeys = NeedleCursor.of(keys.hostNeedle);
    this.refererKeys = NeedleCursor.of(keys.refererNeedle);
    this.requiredKeys = (format.rawKeys?.requiredKeys ?? []).map(({ field, keys }) => ({
      field,
      cursors: keys.map((key) => NeedleCursor.of(key)),
    }));
    this.cursors = [
      this.backslash,
      this.agentKeys,
      this.hostKeys,
      this.refererKeys,
      this.braces,
      ...this.requiredKeys.flatMap((required) => required.cursors),
    ];
    this.userAgentKey = quotedKey(keys.userAgentHead, keys.agentNeedle);
    this.hostKey = `"${keys.hostNeedle}`;
    this.refererKey = `"${keys.refererNeedle}`;
    this.signatureAgentKey =
      keys.signatureAgentHead === null ? null : quotedKey(keys.signatureAgentHead, keys.agentNeedle);
  }

  /** Decides one line (or one JSON array element). */
  line(raw: string) {
    this.useText(raw);
    this.lineAt(0, raw.length);
  }

  /** Sets the text the next `lineAt` calls read their lines from: a decoded chunk of the body. */
  useText(text: string) {
    this.text = text;
    for (const cursor of this.cursors) cursor.reset(text);
  }

  /**
   * Decides the line at [start, end) of the current text. Lines of one text come in order, so the
   * raw-text decision can remember where each thing it looks for occurs next (see NeedleCursor).
   */
  lineAt(start: number, end: number) {
    const { text } = this;
    const from = start;
    const to = end;
    while (start < end && isSpaceAt(text, start)) start++;
    while (end > start && isSpaceAt(text, end - 1)) end--;
    let line: string | undefined;
    // A line with white space at an end is trimmed of all of it, Unicode's included.
    if ((start !== from || end !== to) && (text.charCodeAt(start) > 0x7e || text.charCodeAt(end - 1) > 0x7e)) {
      line = text.slice(start, end).trim();
      if (line === '') return;
    }
    if (start === end) return; // blank lines (a trailing newline) are not log lines
    this.received++;
    if (this.keys === null) {
      const value = this.readObject(line ?? text.slice(start, end));
      if (value) this.decideParsed(value);
      return;
    }
    if (line === undefined) {
      if (this.readableSeen && this.droppedOnRawText(start, end)) return;
      line = text.slice(start, end);
    }
    if (!this.mayBeKept(line)) {
      this.decideWithoutParsing(line);
      return;
    }
    const value = this.readObject(line);
    if (value) this.decideParsed(value);
  }

  /**
   * Decides one record a source read without JSON (a CloudFront log line): the crawl line it
   * maps to, or null for a record that could not be read.
   */
  record(candidate: CrawlLineCandidate | null) {
    this.received++;
    if (candidate === null) {
      this.unreadable++;
      return;
    }
    this.readableSeen = true;
    if (candidate !== NOT_A_REQUEST) this.countMissingFields(candidate);
    this.decideLine(candidate);
  }

  /**
   * For a source that reads its own records' raw text (CloudFront's tab-separated lines): whether
   * the percent-encoded user agent at [start, end) of `chunk` may be an AI agent's. Remembered per
   * distinct text for every batch, like the JSON lines' agents.
   */
  encodedAgentMayMatch(chunk: string, start: number, end: number, decode: (text: string) => string): boolean {
    this.encodedAgents ??= encodedAgentMemo(this.agents, decode);
    return this.encodedAgents.get(chunk, start, end);
  }

  /** Whether the referer at [start, end) of `chunk` (percent-encoded or not) may name an AI platform. */
  refererMayMatch(chunk: string, start: number, end: number): boolean {
    return AI_REFERERS.get(chunk, start, end);
  }

  /**
   * A line its source decided on its raw text (no AI agent, no AI referer): counted and readable,
   * its host checked, the fields it lacks counted when it was checked for them; never kept.
   */
  droppedLine(host: string | undefined, lacking?: readonly RequiredLineField[]) {
    this.received++;
    this.readableSeen = true;
    if (lacking) {
      this.checkedLines++;
      for (const field of lacking) this.countMissing(field);
    }
    if (host !== undefined && !this.hostMatches(host)) this.missHost(host);
  }

  /**
   * Checks the signatures of the lines an agent signed (Web Bot Auth) and keeps each as that agent:
   * `verified` with a valid, current signature by a key of its directory, `unverified` otherwise.
   * Before `summary()`.
   */
  async settleSignatures(verifier: SignatureVerifier): Promise<void> {
    for (const { request, event, agent } of this.signed.splice(0)) {
      const verification = await verifier.verify(request);
      this.events.push({ ...event, crawler: agent.agent, operator: agent.operator, verification });
    }
  }

  summary(): BatchSummary {
    const hosts = [...this.missedHosts.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([host]) => host);
    return {
      received: this.received,
      notRequests: this.notRequests,
      missingFields: this.missingFields,
      checkedLines: this.checkedLines,
      kept: this.events.length,
      unreadable: this.unreadable,
      hostNotMatched: { count: this.hostMisses, hosts },
      events: this.events,
    };
  }

  /**
   * The decision for the plainest and by far the most common line, from its raw text alone: a flat
   * JSON object without escapes, with one userAgent, host and (if any) referer string each, whose
   * user agent is no AI agent's, whose referer names no AI platform and that carries no
   * Signature-Agent, is dropped, its host counted if it is another's. Anything else answers false
   * and gets the full decision. Only once a line of the batch has parsed (see decideWithoutParsing).
   */
  // Protected, not private, with mayBeKept: raw-text-decision.test.ts turns both off to compare
  // the raw-text decision with parsing every line.
  protected droppedOnRawText(start: number, end: number): boolean {
    const { text } = this;
    if (text.charCodeAt(start) !== 0x7b || text.charCodeAt(end - 1) !== 0x7d || this.backslash.within(start, end)) {
      return false;
    }
    let userAgent = ABSENT;
    let userAgentEnd = 0;
    const keys = this.keys as RawKeys;
    const needle = keys.agentNeedle.length;
    for (let at = this.agentKeys.next(start); at !== -1 && at < end; at = this.agentKeys.next(at + 1)) {
      if (keys.signatureAgentHead !== null && keyEndsAt(text, at, keys.signatureAgentHead)) {
        // A signed line names its agent there. An empty Signature-Agent signs nothing (the event
        // schema drops it), and log formats that always write the three headers leave it empty on
        // nearly every line: only a non-empty one needs the full decision (given twice, whichever
        // JSON.parse keeps, the line is signed only if one is non-empty).
        const value = this.stringValueAt(at + needle, end);
        if (value === ODD || this.valueEnd !== value) return false;
        continue;
      }
      if (!keyEndsAt(text, at, keys.userAgentHead)) continue; // another key that ends in Agent
      if (userAgent !== ABSENT) return false; // twice: JSON.parse would keep the last
      userAgent = this.stringValueAt(at + needle, end);
      if (userAgent === ODD) return false;
      userAgentEnd = this.valueEnd;
    }
    if (userAgent === ABSENT || this.userAgents.get(text, userAgent, userAgentEnd)) return false;
    const referer = this.onlyValue(this.refererKeys, keys.refererNeedle.length, start, end);
    if (referer === ODD || (referer !== ABSENT && AI_REFERERS.get(text, referer, this.valueEnd))) return false;
    const host = this.onlyValue(this.hostKeys, keys.hostNeedle.length, start, end);
    // A `{` before the host key may open an object the key is nested in: only parsing can tell.
    if (host < 0 || this.braces.within(start + 1, host)) return false;
    const hostText = text.slice(host, this.valueEnd);
    if (!this.hostMatches(hostText)) this.missHost(hostText);
    if (this.requiredKeys.length > 0 && this.rawChecked < RAW_LINES_CHECKED) this.countMissingKeys(start, end);
    return true;
  }

  /**
   * Counts the required fields a line decided on its raw text lacks (a provider's lines only).
   * A job writes the same fields on every line, so the first lines of a batch tell: searching
   * every line for every field measured a third of a Logpush line's cost.
   */
  private countMissingKeys(start: number, end: number) {
    this.rawChecked++;
    this.checkedLines++;
    for (const { field, cursors } of this.requiredKeys) {
      if (!cursors.some((cursor) => cursor.within(start, end))) this.countMissing(field);
    }
  }

  private countMissing(field: RequiredLineField) {
    this.missingFields[field] = (this.missingFields[field] ?? 0) + 1;
  }

  /**
   * Where the string value of the one key a cursor finds in the line starts, its end in
   * `valueEnd` (the key's name and closing quote: one of the cursor's hits is the key when a quote
   * stands before it); ABSENT when there is no such key, ODD when only parsing can tell (twice,
   * not a string, odd spacing).
   */
  private onlyValue(keys: NeedleCursor, needleLength: number, start: number, end: number): number {
    const { text } = this;
    let found = ABSENT;
    let foundEnd = 0;
    for (let at = keys.next(start); at !== -1 && at < end; at = keys.next(at + 1)) {
      if (text.charCodeAt(at - 1) !== 0x22) continue; // the end of another key (`"ghost"`) or value
      if (found !== ABSENT) return ODD;
      found = this.stringValueAt(at + needleLength, end);
      if (found === ODD) return ODD;
      foundEnd = this.valueEnd;
    }
    this.valueEnd = foundEnd;
    return found;
  }

  /**
   * In a line without escapes, where the string value starts when `:"` follows a key, its closing
   * quote (the next `"`, inside the line as the line ends with `}`) in `valueEnd`; else ODD. Two
   * numbers without allocating: this runs a few times a line.
   */
  private stringValueAt(afterKey: number, end: number): number {
    const { text } = this;
    if (text.charCodeAt(afterKey) !== 0x3a || text.charCodeAt(afterKey + 1) !== 0x22) return ODD;
    const close = text.indexOf('"', afterKey + 2);
    if (close === -1 || close >= end - 1) return ODD;
    this.valueEnd = close;
    return afterKey + 2;
  }

  /**
   * Whether a line could be kept, read from its raw text: its user agent is a known AI crawler
   * (decided by the catalogue itself, cached per distinct user agent since a site's traffic has
   * few), or its referer names an AI platform host. Unusual text answers yes: parsing decides.
   */
  protected mayBeKept(text: string): boolean {
    const userAgent = rawStringField(text, this.userAgentKey);
    if (userAgent === null) return true;
    // A signed line names its agent in Signature-Agent, whatever its user agent says.
    if (this.signatureAgentKey !== null && text.includes(this.signatureAgentKey)) return true;
    if (userAgent !== undefined && this.agents.match(userAgent) !== null) return true;
    const referer = rawStringField(text, this.refererKey);
    if (referer === null || (referer !== undefined && AI_REFERER_HINT.test(referer))) return true;
    // A key spelled with \u escapes (`"\u0075serAgent"`) is found only by parsing, and may be any
    // of the above: JSON.parse reads it as the key.
    return text.includes('\\u');
  }

  /**
   * A line with nothing AI in it is never kept; only its readability and host count. Readable
   * means "a JSON object": until one line of the batch has proved that by parsing, lines are
   * parsed, so a body of broken lines is still refused as unreadable; after that an object-shaped
   * line is taken as readable on its shape.
   */
  private decideWithoutParsing(text: string) {
    const host = rawStringField(text, this.hostKey);
    const objectShaped = text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d;
    if (this.readableSeen && objectShaped && typeof host === 'string') {
      if (!this.hostMatches(host)) this.missHost(host);
      if (this.format.fieldNames && this.rawChecked < RAW_LINES_CHECKED) this.countMissingInText(text);
      return;
    }
    const value = this.readObject(text);
    if (!value) return;
    const line = this.asLine(value);
    if (line && typeof line.host === 'string' && !this.hostMatches(line.host)) this.missHost(line.host);
  }

  /** A parsed record as a crawl line; null (and uncounted) when it is not a request. */
  private asLine(value: Record<string, unknown>): Record<string, unknown> | null {
    if (this.format === SPEC_LINES) return value;
    const line = this.format.toLine(value);
    if (line === NOT_A_REQUEST) {
      this.received--;
      this.notRequests++;
      return null;
    }
    this.countMissingFields(line);
    return line;
  }

  private countMissingFields(line: Record<string, unknown>) {
    this.checkedLines++;
    for (const field of REQUIRED_LINE_FIELDS) if (line[field] === undefined) this.countMissing(field);
  }

  /** The required fields a whole line (its own text) lacks, its host aside (it has one). */
  private countMissingInText(line: string) {
    this.rawChecked++;
    this.checkedLines++;
    if (rawStringField(line, this.userAgentKey) === undefined) this.countMissing('userAgent');
    for (const { field, cursors } of this.requiredKeys) {
      if (!cursors.some((cursor) => line.includes(cursor.needle))) this.countMissing(field);
    }
  }

  /** The line as a JSON object, or null, counted unreadable. */
  private readObject(text: string): Record<string, unknown> | null {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (!isObject(value)) {
      this.unreadable++;
      return null;
    }
    this.readableSeen = true;
    return value;
  }

  private decideParsed(record: Record<string, unknown>) {
    const value = this.asLine(record);
    if (value) this.decideLine(value);
  }

  private decideLine(candidate: CrawlLineCandidate) {
    if (candidate === NOT_A_REQUEST) {
      this.received--;
      this.notRequests++;
      return;
    }
    const value = candidate;
    if (typeof value.host === 'string' && !this.hostMatches(value.host)) {
      this.missHost(value.host);
      return;
    }
    if (this.plainlyNotKept(value)) return;
    // A JSON object that is not a usable crawl event (no timestamp, a bad status) is readable,
    // and dropped like any other line that is not kept.
    const parsed = crawlEventSchema.safeParse(value);
    if (!parsed.success) return;
    const { ip, signed, ...event } = parsed.data;
    if (signed) {
      const origin = signatureAgentOrigin(signed.signatureAgent);
      const agent = origin ? this.agents.matchSignatureAgent(origin) : null;
      if (agent) {
        this.signed.push({ request: { ...event, signed }, event, agent });
        return;
      }
    }
    const crawler = this.agents.match(event.userAgent);
    if (crawler) {
      const verification = this.ipVerifier.verify(crawler.operator, ip);
      this.events.push({ ...event, crawler: crawler.agent, operator: crawler.operator, verification });
      return;
    }
    const refererHost = event.referer ? hostOfReferrer(event.referer) : null;
    const platform = refererHost ? platformForHost(refererHost) : null;
    if (platform) this.events.push({ ...event, aiPlatform: platform });
  }

  /**
   * What the raw-text decision concludes, read from a parsed line: a string user agent that is no
   * AI agent's, no Signature-Agent, and no referer that could name an AI platform. Such a line is
   * never kept, so the schema's parse (the costliest step) is skipped for it.
   */
  private plainlyNotKept(line: Record<string, unknown>): boolean {
    const { userAgent, referer, signatureAgent } = line;
    if (typeof userAgent !== 'string' || (signatureAgent !== undefined && signatureAgent !== '')) return false;
    if (this.userAgents.get(userAgent, 0, userAgent.length)) return false;
    return !(typeof referer === 'string' && AI_REFERER_HINT.test(referer));
  }

  /** Case- and port-insensitive; the domain itself and every subdomain of it match. */
  private hostMatches(host: string): boolean {
    if (host === this.lastMatchingHost) return true; // a batch is mostly one host
    if (!this.hostMatchesUncached(host)) return false;
    this.lastMatchingHost = host;
    return true;
  }

  private hostMatchesUncached(host: string): boolean {
    let h = host.toLowerCase();
    const colon = h.lastIndexOf(':');
    if (colon !== -1 && !h.endsWith(']')) h = h.slice(0, colon);
    if (h.endsWith('.')) h = h.slice(0, -1);
    return h === this.domain || (h.endsWith(this.domain) && h.charCodeAt(h.length - this.domain.length - 1) === 0x2e);
  }

  private missHost(host: string) {
    this.hostMisses++;
    const key = host.toLowerCase().slice(0, CRAWL_EVENT_CAPS.host);
    const seen = this.missedHosts.get(key);
    if (seen !== undefined) this.missedHosts.set(key, seen + 1);
    // A new key is copied: a slice would keep the whole body chunk it was cut from alive.
    else if (this.missedHosts.size < MAX_TRACKED_MISSED_HOSTS) this.missedHosts.set(ownCopy(key), 1);
  }
}

/** Any referer that could classify contains one of the platform hosts; parsing then decides exactly. */
const AI_REFERER_HINT = new RegExp(
  AI_PLATFORMS.flatMap((p) => p.hosts)
    .map((host) => host.replace(/\./g, '\\.'))
    .join('|'),
  'i',
);

/** Whether a referer may name an AI platform, remembered per distinct referer. */
const AI_REFERERS = new DecisionMemo((referer) => AI_REFERER_HINT.test(referer));

/** Lines of a batch decided on raw text that are checked for the fields they lack. */
const RAW_LINES_CHECKED = 1000;

const ABSENT = -1;
const ODD = -2;

/**
 * Whether `prefix` stands right before `at` (charCodeAt in a loop: startsWith with a position
 * measured several times slower on this path).
 */
function keyEndsAt(text: string, at: number, prefix: string): boolean {
  const from = at - prefix.length;
  if (from < 0) return false;
  // From the last character back: most hits are told apart by the one before the needle.
  for (let i = prefix.length - 1; i >= 0; i--) if (text.charCodeAt(from + i) !== prefix.charCodeAt(i)) return false;
  return true;
}

function isSpaceAt(text: string, index: number): boolean {
  const c = text.charCodeAt(index);
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a || c === 0xfeff || Number.isNaN(c);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
