// The CDNs and hosting platforms that deliver crawl logs to their own endpoint
// (`POST /api/ingest/crawl/{propertyId}/{provider}`), and what each is told to send. The gateway
// reads their records with these names; the console's setup dialog shows the same lists, so what
// a customer is asked to configure is what the gateway reads.

export const CRAWL_PROVIDER_IDS = ['cloudflare', 'vercel', 'netlify', 'fastly', 'akamai', 'firehose'] as const;
export type CrawlProviderId = (typeof CRAWL_PROVIDER_IDS)[number];

/** Each provider's product as its own documentation names it. */
export const CRAWL_PROVIDER_TITLES: Record<CrawlProviderId, string> = {
  cloudflare: 'Cloudflare Logpush',
  vercel: 'Vercel Drains',
  netlify: 'Netlify Log Drains',
  fastly: 'Fastly HTTPS logging',
  akamai: 'Akamai DataStream 2',
  firehose: 'Amazon Data Firehose (CloudFront real-time logs)',
};

/** Each provider's vendor, as the crawl setup dialog's tab names it. */
export const CRAWL_PROVIDER_NAMES: Record<CrawlProviderId, string> = {
  cloudflare: 'Cloudflare',
  vercel: 'Vercel',
  netlify: 'Netlify',
  fastly: 'Fastly',
  akamai: 'Akamai',
  firehose: 'AWS CloudFront',
};

export const isCrawlProviderId = (value: string): value is CrawlProviderId =>
  (CRAWL_PROVIDER_IDS as readonly string[]).includes(value);

/**
 * The Logpush job's fields (dataset `http_requests`), each the one a crawl line field is read
 * from. `ClientRequestURI` carries the query string, which is dropped before anything is stored.
 */
export const LOGPUSH_FIELDS = {
  timestamp: 'EdgeStartTimestamp',
  host: 'ClientRequestHost',
  path: 'ClientRequestURI',
  userAgent: 'ClientRequestUserAgent',
  statusCode: 'EdgeResponseStatus',
  method: 'ClientRequestMethod',
  referer: 'ClientRequestReferer',
  ip: 'ClientIP',
} as const;

/** Logpush's own name for the request id, asked for too so a delivery can be traced. */
export const LOGPUSH_EXTRA_FIELDS = ['RayID'] as const;

/**
 * The fields of a CloudFront real-time log record, in the order CloudFront always writes them
 * (whatever order they were selected in): a record holds the selected ones, tab-separated.
 */
export const CLOUDFRONT_REALTIME_FIELDS = [
  'timestamp',
  'c-ip',
  'time-to-first-byte',
  'sc-status',
  'sc-bytes',
  'cs-method',
  'cs-protocol',
  'cs-host',
  'cs-uri-stem',
  'cs-bytes',
  'x-edge-location',
  'x-edge-request-id',
  'x-host-header',
  'time-taken',
  'cs-protocol-version',
  'c-ip-version',
  'cs-user-agent',
  'cs-referer',
  'cs-cookie',
  'cs-uri-query',
  'x-edge-response-result-type',
  'x-forwarded-for',
  'ssl-protocol',
  'ssl-cipher',
  'x-edge-result-type',
  'fle-encrypted-fields',
  'fle-status',
  'sc-content-type',
  'sc-content-len',
  'sc-range-start',
  'sc-range-end',
  'c-port',
  'x-edge-detailed-result-type',
  'c-country',
  'cs-accept-encoding',
  'cs-accept',
  'cache-behavior-path-pattern',
  'cs-headers',
  'cs-header-names',
  'cs-headers-count',
  'origin-fbl',
  'origin-lbl',
  'asn',
] as const;

/**
 * The real-time log configuration's fields the setup asks for, in CloudFront's order: with exactly
 * these selected, the endpoint needs no field list. Another selection is named in the endpoint
 * URL's `fields` parameter.
 */
export const CLOUDFRONT_SETUP_FIELDS = [
  'timestamp',
  'c-ip',
  'sc-status',
  'cs-method',
  'cs-host',
  'cs-uri-stem',
  'cs-user-agent',
  'cs-referer',
] as const satisfies readonly (typeof CLOUDFRONT_REALTIME_FIELDS)[number][];

/**
 * The log format to paste into a Fastly HTTPS logging endpoint (JSON log entry format: newline
 * delimited; log line format: blank): it writes the spec's own crawl line, so Fastly's lines are
 * read exactly as a shipper's.
 */
export const FASTLY_LOG_FORMAT =
  '{"timestamp":"%{strftime(\\{"%Y-%m-%dT%H:%M:%S%z"\\}, time.start)}V","host":"%{json.escape(req.http.host)}V","path":"%{json.escape(req.url)}V","method":"%{json.escape(req.method)}V","statusCode":%{resp.status}V,"userAgent":"%{json.escape(req.http.User-Agent)}V","referer":"%{json.escape(req.http.Referer)}V","ip":"%{req.http.Fastly-Client-IP}V"}';

/** The DataStream 2 data set fields a stream must log (JSON format), by the names it writes them under. */
export const AKAMAI_FIELDS = {
  timestamp: 'reqTimeSec',
  host: 'reqHost',
  path: 'reqPath',
  userAgent: 'UA',
  statusCode: 'statusCode',
  method: 'reqMethod',
  referer: 'referer',
  ip: 'cliIP',
} as const;
