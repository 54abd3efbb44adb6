import { RAW_KEY_NEEDLES, rawKeyHead } from './raw-fields.ts';

/** What a record that is not a request becomes (a Logpush test upload, a Vercel build log): not counted. */
export const NOT_A_REQUEST = Symbol('not a request');

/** A record read as the spec's crawl line (its field names), not yet checked, or NOT_A_REQUEST. */
export type CrawlLineCandidate = Record<string, unknown> | typeof NOT_A_REQUEST;

/**
 * Where the raw-text decision finds a format's user agent, host and referer: top-level string
 * fields of a flat JSON object line. Needles are searched without their opening quote (see
 * raw-fields.ts); a head is what stands before a needle in its own key, to tell keys that share
 * one needle apart.
 */
export interface RawKeys {
  agentNeedle: string;
  userAgentHead: string;
  /** Signature-Agent's head under the same needle; null for a format that carries no Signature-Agent. */
  signatureAgentHead: string | null;
  hostNeedle: string;
  refererNeedle: string;
  /**
   * A provider's other fields a usable line needs, each with the quoted keys that can carry it:
   * a line decided on its raw text is checked for them, so the delivery log can say which one a
   * job leaves out. Absent for the spec's own lines.
   */
  requiredKeys?: { field: RequiredLineField; keys: string[] }[];
}

/**
 * How one source's records become crawl lines. The spec's own lines are read as they are; a
 * provider's (Cloudflare Logpush, Vercel…) are mapped field by field, and those whose user agent,
 * host and referer stand as flat strings keep the raw-text decision with their own keys.
 */
export interface CrawlLineFormat {
  /** Null: every record is parsed (a nested or encoded user agent cannot be read from raw text). */
  rawKeys: RawKeys | null;
  /** A parsed record as a crawl line; the same object for the spec's own lines. */
  toLine(record: Record<string, unknown>): CrawlLineCandidate;
  /**
   * The source's own name for each field a usable line needs, to say which one its lines lack
   * ("Logpush field ClientRequestUserAgent is missing"); absent for the spec's own lines.
   */
  fieldNames?: Partial<Record<RequiredLineField, string>>;
}

/** The fields without which a line is never usable (crawlEventLineSchema's strict ones). */
export const REQUIRED_LINE_FIELDS = ['timestamp', 'host', 'path', 'userAgent', 'statusCode'] as const;
export type RequiredLineField = (typeof REQUIRED_LINE_FIELDS)[number];

/** The spec's own lines: the raw-text decision on its keys, records taken as they are. */
export const SPEC_LINES: CrawlLineFormat = {
  rawKeys: {
    agentNeedle: RAW_KEY_NEEDLES.userAgent,
    userAgentHead: rawKeyHead('userAgent'),
    signatureAgentHead: rawKeyHead('signatureAgent'),
    hostNeedle: RAW_KEY_NEEDLES.host,
    refererNeedle: RAW_KEY_NEEDLES.referer,
  },
  toLine: (record) => record,
};

/** The quoted form of a raw key (`"userAgent"`), from its needle and head. */
export function quotedKey(head: string, needle: string): string {
  return `${head}${needle}`;
}
