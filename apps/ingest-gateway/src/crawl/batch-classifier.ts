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
import { rawStringField } from './raw-fields.ts';
import type { SignatureVerifier, SignedRequest } from './signature-verifier.ts';

export interface IpVerifier {
  verify(operator: string, ip: string | undefined): CrawlVerification;
}

export interface BatchSummary {
  received: number;
  kept: number;
  unreadable: number;
  hostNotMatched: { count: number; hosts: string[] };
  events: KeptCrawlEvent[];
}

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
  private unreadable = 0;
  private hostMisses = 0;
  private readonly missedHosts = new Map<string, number>();
  private readonly events: KeptCrawlEvent[] = [];
  private lastMatchingHost = '';
  /** Lines signed by an agent's Signature-Agent, kept once their signatures are checked. */
  private readonly signed: { request: SignedRequest; event: KeptCrawlEvent; agent: AgentMatch }[] = [];
  private readableSeen = false;

  /**
   * `agents` is the catalogue's matcher (cached per distinct user agent): the current stored
   * version in the gateway, the bundled one by default.
   */
  constructor(
    private readonly domain: string,
    private readonly ipVerifier: IpVerifier,
    private readonly agents: AgentMatcher = bundledMatcher,
  ) {}

  line(raw: string) {
    const text = isSpaceAt(raw, 0) || isSpaceAt(raw, raw.length - 1) ? raw.trim() : raw;
    if (text === '') return; // blank lines (a trailing newline) are not log lines
    this.received++;
    if (!this.mayBeKept(text)) {
      this.decideWithoutParsing(text);
      return;
    }
    const value = this.readObject(text);
    if (value) this.decideParsed(value);
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
      kept: this.events.length,
      unreadable: this.unreadable,
      hostNotMatched: { count: this.hostMisses, hosts },
      events: this.events,
    };
  }

  /**
   * Whether a line could be kept, read from its raw text: its user agent is a known AI crawler
   * (decided by the catalogue itself, cached per distinct user agent since a site's traffic has
   * few), or its referer names an AI platform host. Unusual text answers yes: parsing decides.
   */
  private mayBeKept(text: string): boolean {
    const userAgent = rawStringField(text, 'userAgent');
    if (userAgent === null) return true;
    // A signed line names its agent in Signature-Agent, whatever its user agent says.
    if (text.includes('"signatureAgent"')) return true;
    if (userAgent !== undefined && this.agents.match(userAgent) !== null) return true;
    const referer = rawStringField(text, 'referer');
    return referer === null || (referer !== undefined && AI_REFERER_HINT.test(referer));
  }

  /**
   * A line with nothing AI in it is never kept; only its readability and host count. Readable
   * means "a JSON object": until one line of the batch has proved that by parsing, lines are
   * parsed, so a body of broken lines is still refused as unreadable; after that an object-shaped
   * line is taken as readable on its shape.
   */
  private decideWithoutParsing(text: string) {
    const host = rawStringField(text, 'host');
    const objectShaped = text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d;
    if (this.readableSeen && objectShaped && typeof host === 'string') {
      if (!this.hostMatches(host)) this.missHost(host);
      return;
    }
    const value = this.readObject(text);
    if (value && typeof value.host === 'string' && !this.hostMatches(value.host)) this.missHost(value.host);
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

  private decideParsed(value: Record<string, unknown>) {
    if (typeof value.host === 'string' && !this.hostMatches(value.host)) {
      this.missHost(value.host);
      return;
    }
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
    this.missedHosts.set(key, (this.missedHosts.get(key) ?? 0) + 1);
  }
}

/** Any referer that could classify contains one of the platform hosts; parsing then decides exactly. */
const AI_REFERER_HINT = new RegExp(
  AI_PLATFORMS.flatMap((p) => p.hosts)
    .map((host) => host.replace(/\./g, '\\.'))
    .join('|'),
  'i',
);

function isSpaceAt(text: string, index: number): boolean {
  const c = text.charCodeAt(index);
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a || c === 0xfeff || Number.isNaN(c);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
