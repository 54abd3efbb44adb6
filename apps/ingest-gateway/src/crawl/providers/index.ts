import { CRAWL_PROVIDER_TITLES, type CrawlProviderId } from '@vt/contracts';
import type { Request } from 'express';
import { type CrawlLineFormat, type RequiredLineField, SPEC_LINES } from '../line-format.ts';
import { DATASTREAM_LINES } from './akamai.ts';
import { LOGPUSH_LINES } from './cloudflare.ts';
import { netlifyLines } from './netlify.ts';
import { vercelLines } from './vercel.ts';

/**
 * What differs between the spec's own endpoint and a provider's: how the token and a batch's name
 * arrive, how the body is read, and the provider's words in rejections and in the delivery log.
 * Everything else (classification, IP verification, counting, the log) is the same pipeline.
 */
export interface CrawlSource {
  /** null for the spec's own endpoint. */
  provider: CrawlProviderId | null;
  /** The product's name, as the delivery log and rejections say it. */
  title: string;
  /** 'lines': NDJSON or a JSON array streamed (gzip or not); 'firehose': Firehose's envelope of base64 records. */
  body: 'lines' | 'firehose';
  /** How one batch's lines read, for a property on `domain`. */
  lines(domain: string): CrawlLineFormat;
  /** The provider's own name for the batch, kept across its retries (Firehose's request id). */
  batchName?(req: Request): string | undefined;
  /**
   * A batch with no name of its own is named by its body's digest: the providers resend a failed
   * batch as it was and send no id, and a log batch (times, request ids) is never sent twice on purpose.
   */
  namesByDigest: boolean;
  /** What to do about a field its lines lack, in the provider's own terms. */
  missingFieldFix?(field: string, lines: number, of: number): string;
  /** Where the provider sets the crawl token, for a rejection's hint. */
  tokenHint?: string;
}

export const SPEC_SOURCE: CrawlSource = {
  provider: null,
  title: 'the crawl endpoint',
  body: 'lines',
  lines: () => SPEC_LINES,
  namesByDigest: false,
};

/** `all 12 lines`, `3 of 12 lines`: of the lines checked (every parsed line, and the first 1,000 others). */
const of = (lines: number, all: number) => `${lines === all ? `all ${all}` : `${lines} of ${all}`} lines checked`;

export const CRAWL_SOURCES: Record<CrawlProviderId, CrawlSource> = {
  cloudflare: {
    provider: 'cloudflare',
    title: CRAWL_PROVIDER_TITLES.cloudflare,
    body: 'lines',
    lines: () => LOGPUSH_LINES,
    namesByDigest: true,
    missingFieldFix: (field, lines, all) =>
      `Logpush field ${field} is missing on ${of(lines, all)}: add it to the job's fields (output_options.field_names).`,
    tokenHint:
      'Add header_Authorization=Bearer%20<crawl token> to the Logpush destination URL, as the setup dialog shows.',
  },
  vercel: {
    provider: 'vercel',
    title: CRAWL_PROVIDER_TITLES.vercel,
    body: 'lines',
    lines: () => vercelLines(),
    namesByDigest: true,
    missingFieldFix: (field, lines, all) =>
      `Vercel entries lack ${field} on ${of(lines, all)}: send the drain's logs with the static, external and function sources (their entries carry proxy).`,
    tokenHint: 'Add the custom header Authorization: Bearer <crawl token> to the drain, as the setup dialog shows.',
  },
  netlify: {
    provider: 'netlify',
    title: CRAWL_PROVIDER_TITLES.netlify,
    body: 'lines',
    lines: (domain) => netlifyLines(domain),
    namesByDigest: true,
    missingFieldFix: (field, lines, all) =>
      field === 'user_agent'
        ? `Netlify traffic records lack user_agent on ${of(lines, all)}: untick "Exclude personally identifiable information" on the log drain.`
        : `Netlify traffic records lack ${field} on ${of(lines, all)}: drain the site traffic log type.`,
    tokenHint: 'Set the log drain’s Authorization header to Bearer <crawl token>, as the setup dialog shows.',
  },
  fastly: {
    provider: 'fastly',
    title: CRAWL_PROVIDER_TITLES.fastly,
    body: 'lines',
    // The setup's log format writes the spec's own lines.
    lines: () => SPEC_LINES,
    namesByDigest: true,
    tokenHint:
      'Set the endpoint’s custom header name to Authorization and its value to Bearer <crawl token>, as the setup dialog shows.',
  },
  akamai: {
    provider: 'akamai',
    title: CRAWL_PROVIDER_TITLES.akamai,
    body: 'lines',
    lines: () => DATASTREAM_LINES,
    namesByDigest: true,
    missingFieldFix: (field, lines, all) =>
      `DataStream field ${field} is missing on ${of(lines, all)}: add it to the stream's data set.`,
    tokenHint:
      'Choose Basic authentication with any user name and the crawl token as the password, or the custom header Authorization: Bearer <crawl token>.',
  },
  firehose: {
    provider: 'firehose',
    title: CRAWL_PROVIDER_TITLES.firehose,
    body: 'firehose',
    lines: () => SPEC_LINES,
    batchName: (req) => req.get('x-amz-firehose-request-id') || undefined,
    namesByDigest: true,
    missingFieldFix: (field, lines, all) =>
      `CloudFront field ${field} is missing on ${of(lines, all)}: select it in the real-time log configuration.`,
    tokenHint: 'Set the Firehose stream’s HTTP endpoint access key to the crawl token.',
  },
};

/** A line field's name in a source's records, for its missing-field fix. */
export function sourceFieldName(format: CrawlLineFormat, field: RequiredLineField, source: CrawlSource): string {
  if (source.provider === 'firehose') return FIREHOSE_FIELD_NAMES[field];
  return format.fieldNames?.[field] ?? field;
}

const FIREHOSE_FIELD_NAMES: Record<RequiredLineField, string> = {
  timestamp: 'timestamp',
  host: 'cs-host',
  path: 'cs-uri-stem',
  userAgent: 'cs-user-agent',
  statusCode: 'sc-status',
};
