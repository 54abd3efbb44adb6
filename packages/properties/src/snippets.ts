import {
  AKAMAI_FIELDS,
  CLOUDFRONT_SETUP_FIELDS,
  CRAWL_PROVIDER_IDS,
  CRAWL_PROVIDER_NAMES,
  CRAWL_PROVIDER_TITLES,
  type CrawlProviderId,
  FASTLY_LOG_FORMAT,
  LOGPUSH_EXTRA_FIELDS,
  LOGPUSH_FIELDS,
} from '@vt/contracts';

/** A sender, ready to paste: the crawl ingest endpoint fed from a shell, Node.js or Vector. */
export interface Snippet {
  id: string;
  label: string;
  language: string;
  code: string;
}

const PLACEHOLDER = '<crawl token: ask an owner or admin>';

/** `now` to the second, as the example line carries it (`2026-11-20T09:15:00Z`). */
export const exampleTimestamp = (now: Date) => `${now.toISOString().slice(0, 19)}Z`;

/**
 * Ready-to-paste senders for the crawl setup dialog. Without a token (members, or no deployment
 * secret) they carry a placeholder, so a member can pass one on without ever seeing the token.
 */
export function crawlSnippets(input: {
  endpointUrl: string;
  token: string | null;
  domain: string;
  /** When the dialog is shown: the example line is dated then, so pasted as is it shows in today's charts. */
  now: Date;
}): Snippet[] {
  const token = input.token ?? PLACEHOLDER;
  const event = JSON.stringify({
    timestamp: exampleTimestamp(input.now),
    host: input.domain,
    path: '/pricing',
    userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    statusCode: 200,
    ip: '192.0.2.1',
  });
  return [
    {
      id: 'curl',
      label: 'curl: one NDJSON file, gzipped',
      language: 'shell',
      code: [
        `# access.ndjson: one JSON object per request your site served, e.g.`,
        `# ${event}`,
        `gzip -c access.ndjson | curl -sS -X POST '${input.endpointUrl}' \\`,
        `  -H 'Authorization: Bearer ${token}' \\`,
        `  -H 'Content-Type: application/x-ndjson' -H 'Content-Encoding: gzip' \\`,
        `  -H "Idempotency-Key: $(date +%s)-access" --data-binary @-`,
      ].join('\n'),
    },
    {
      id: 'node',
      label: 'Node.js 20+: a batch of events',
      language: 'javascript',
      code: [
        `const events = [${event}];`,
        `const res = await fetch('${input.endpointUrl}', {`,
        `  method: 'POST',`,
        `  headers: { Authorization: 'Bearer ${token}', 'Content-Type': 'application/json' },`,
        `  body: JSON.stringify(events),`,
        `});`,
        `console.log(res.status, await res.json()); // 202 {kept, received}`,
      ].join('\n'),
    },
    {
      id: 'vector',
      label: 'Vector: ship access logs continuously',
      language: 'toml',
      code: [
        `# vector.toml: parse your access log into {timestamp, host, path, userAgent, statusCode, referer, ip} first`,
        `[sinks.ai_visibility]`,
        `type = "http"`,
        `inputs = ["access_log_parsed"]`,
        `uri = "${input.endpointUrl}"`,
        `method = "post"`,
        `compression = "gzip"`,
        `encoding.codec = "json"`,
        `framing.method = "newline_delimited"`,
        `request.headers.Authorization = "Bearer ${token}"`,
        `request.headers.Content-Type = "application/x-ndjson"`,
        `batch.max_bytes = 10000000`,
      ].join('\n'),
    },
  ];
}

/** What to paste into a provider's form: where it goes, in the provider's words, and the value. */
export interface PasteField {
  id: string;
  label: string;
  value: string;
}

/** One CDN's or hosting platform's setup: its own log delivery, pointed at `{endpointUrl}/{provider}`. */
export interface CrawlProviderSetup {
  id: CrawlProviderId;
  name: string;
  title: string;
  endpointUrl: string;
  steps: string[];
  fields: PasteField[];
  notes: string[];
}

const VERCEL_SECRET_PLACEHOLDER = '<drain signature secret: ask an owner or admin>';

/** The Akamai data set fields, as DataStream's data set list names them, by the field each is read as. */
const AKAMAI_FIELD_LABELS: Record<keyof typeof AKAMAI_FIELDS, string> = {
  timestamp: 'Request time',
  host: 'Request host',
  path: 'Request path',
  userAgent: 'User-Agent',
  statusCode: 'HTTP status code',
  method: 'Request method',
  referer: 'Referer',
  ip: 'Client IP',
};

/** The Logpush job's fields: the ones the gateway reads, then the request id. */
export const LOGPUSH_JOB_FIELDS: readonly string[] = [...Object.values(LOGPUSH_FIELDS), ...LOGPUSH_EXTRA_FIELDS];

/**
 * How to point each CDN's or hosting platform's own log delivery at the property's crawl endpoint,
 * in CRAWL_PROVIDER_IDS order: the steps in the provider's own menu names, and what to paste.
 * Without a token (members, or no deployment secret) the token and the Vercel drain secret are
 * placeholders, as in the snippets.
 */
export function crawlProviderSetups(input: {
  endpointUrl: string;
  token: string | null;
  vercelDrainSecret: string | null;
  domain: string;
}): CrawlProviderSetup[] {
  const token = input.token ?? PLACEHOLDER;
  const bearer = `Bearer ${token}`;
  const { domain } = input;
  const urlOf = (id: CrawlProviderId) => `${input.endpointUrl}/${id}`;
  // Logpush turns every header_* parameter of the destination URL into a request header; the
  // value is URL-encoded (a token is URL-safe; the placeholder stays readable).
  const logpushUrl = `${urlOf('cloudflare')}?header_Authorization=Bearer%20${input.token ? encodeURIComponent(input.token) : PLACEHOLDER}`;

  const setups: Record<CrawlProviderId, Omit<CrawlProviderSetup, 'id' | 'name' | 'title' | 'endpointUrl'>> = {
    cloudflare: {
      steps: [
        `In the Cloudflare dashboard, select the domain (zone) ${domain} and go to Analytics & Logs > Logpush.`,
        'Select Create a Logpush job, and under Select a destination choose HTTP destination.',
        'Paste the HTTP endpoint URL below (it carries the token as header_Authorization, which Logpush sends as the Authorization header) and select Continue.',
        'Select the dataset HTTP requests.',
        'Under Send the following fields, select the fields below (others may be sent too; they are ignored).',
        'Under Advanced Options, any timestamp format works: RFC3339 (the dashboard’s default), Unix or UnixNano.',
        'Select Submit. Logpush sends a test upload when the job is created: the connection status turns Connected once it is accepted.',
      ],
      fields: [
        { id: 'destination', label: 'HTTP endpoint URL', value: logpushUrl },
        { id: 'fields', label: 'Fields (dataset HTTP requests)', value: LOGPUSH_JOB_FIELDS.join(', ') },
      ],
      notes: [
        'Logpush of HTTP requests needs a Cloudflare Enterprise plan.',
        `With the API, set destination_conf to the URL above and output_options.field_names to the fields above; keep the output NDJSON (the default).`,
      ],
    },
    vercel: {
      steps: [
        'In the Vercel dashboard, open your team’s Settings > Drains and select Add Drain.',
        `Choose the data type Logs and the projects that serve ${domain}.`,
        'Select the sources static, external, lambda and edge: their entries carry the request (proxy). Build output is not counted.',
        'Keep sampling at 100% so that every crawler fetch is counted.',
        'For the destination choose Custom Endpoint, paste the Endpoint URL below, and choose JSON or NDJSON.',
        'Under Custom Headers, paste the header below (Header-Name: Header-Value).',
        'Replace the generated signature verification secret with the Signature secret below: each delivery’s x-vercel-signature is checked against it.',
        'Create the drain. The connection status turns Connected with the first delivery it accepts.',
      ],
      fields: [
        { id: 'url', label: 'Endpoint URL', value: urlOf('vercel') },
        { id: 'header', label: 'Custom Headers', value: `Authorization: ${bearer}` },
        { id: 'secret', label: 'Signature secret', value: input.vercelDrainSecret ?? VERCEL_SECRET_PLACEHOLDER },
      ],
      notes: [
        'Drains are available on Vercel’s Pro and Enterprise plans.',
        'A legacy log drain that asks to verify the endpoint with a code: add ?vercelVerify=<code> to the URL; the endpoint answers the code in x-vercel-verify.',
        'The signature secret changes with the token: after Rotate token, update both on the drain.',
      ],
    },
    netlify: {
      steps: [
        `In the Netlify UI, open the site that serves ${domain}, go to its configuration’s Log Drains page and select Enable a log drain.`,
        'For the log drain service choose General HTTP endpoint.',
        'Under log types select Site traffic (function, edge function, deploy and WAF logs are not counted).',
        'Paste the Full URL and the Authorization header below, and choose the log format JSON or NDJSON.',
        'Leave Exclude personally identifiable information (PII) unticked, then connect the drain.',
      ],
      fields: [
        { id: 'url', label: 'Full URL', value: urlOf('netlify') },
        { id: 'authorization', label: 'Authorization header', value: bearer },
      ],
      notes: [
        'Do not tick Exclude personally identifiable information: it removes user_agent (and client_ip), and without the user agent no crawler can be recognised.',
        'Log Drains are a Netlify Enterprise feature, set up by a Team Owner; a change takes effect within about five minutes.',
      ],
    },
    fastly: {
      steps: [
        `In the Fastly web interface, open the service that serves ${domain}, select Edit configuration and clone the active version.`,
        'Select Logging, then Create endpoint for HTTPS.',
        'Enter a name, and paste the Log format below into the Log format field (it is one line).',
        'Paste the URL below into the URL field.',
        'Under Advanced options, set Content type and the Custom header name and value as below, Method POST, JSON log entry format Newline delimited, and the log line format Blank. Gzip compression is fine, or none.',
        'Select Create, then Activate the new version. The connection status turns Connected with the first delivery it accepts.',
      ],
      fields: [
        { id: 'format', label: 'Log format', value: FASTLY_LOG_FORMAT },
        { id: 'url', label: 'URL', value: urlOf('fastly') },
        { id: 'contentType', label: 'Content type', value: 'application/x-ndjson' },
        { id: 'headerName', label: 'Custom header name', value: 'Authorization' },
        { id: 'headerValue', label: 'Custom header value', value: bearer },
      ],
      notes: [
        'The log line format (message type) must be Blank: Classic puts a syslog prefix before every line, and such lines cannot be read.',
        'Fastly first checks the URL’s host at /.well-known/fastly/logging/challenge; the ingest gateway answers * there (any service may post; every delivery still needs the token).',
      ],
    },
    akamai: {
      steps: [
        'In Akamai Control Center, open DataStream and select Create stream.',
        `Choose the properties that serve ${domain}.`,
        'In the data sets, select the fields below (others may be logged too; they are ignored).',
        'Set the log format to JSON.',
        'For the destination choose Custom HTTPS, paste the Endpoint URL below, and choose the Authentication Basic with the Username and Password below. Send compressed data may be on or off.',
        'Set the push frequency to 30 or 60 seconds.',
        'Select Validate & Save, then activate the stream. The connection status turns Connected with the first delivery it accepts.',
      ],
      fields: [
        {
          id: 'fields',
          label: 'Data set fields',
          value: (Object.keys(AKAMAI_FIELDS) as (keyof typeof AKAMAI_FIELDS)[])
            .map((field) => `${AKAMAI_FIELD_LABELS[field]} (${AKAMAI_FIELDS[field]})`)
            .join('\n'),
        },
        { id: 'url', label: 'Endpoint URL', value: urlOf('akamai') },
        { id: 'username', label: 'Username', value: 'crawl' },
        { id: 'password', label: 'Password', value: token },
      ],
      notes: [
        'Any user name works: the password is the token.',
        'Instead of Basic authentication, a custom header works too: name Authorization, value Bearer and the token.',
        'Structured (space- or tab-delimited) logs are not read: choose JSON.',
      ],
    },
    firehose: {
      steps: [
        'In the Amazon Kinesis console, create a data stream for the logs.',
        'In the CloudFront console, open Logs, the Real-time configurations tab, and select Create configuration.',
        'Set the sampling rate to 100 (every request), select exactly the fields below, and choose the Kinesis data stream as the endpoint.',
        `Attach the configuration to the cache behaviors of the distribution that serves ${domain} (at least Default (*)).`,
        'In the Amazon Data Firehose console, select Create Firehose stream with the source Amazon Kinesis Data Streams (the stream above) and the destination HTTP Endpoint.',
        'Paste the HTTP endpoint URL below; for the authentication choose Use access key and paste the Access key below. Content encoding GZIP is optional.',
        'Choose an S3 bucket for the backup of failed data, and create the stream. The connection status turns Connected with the first delivery it accepts.',
      ],
      fields: [
        {
          id: 'fields',
          label: 'Real-time log fields (CloudFront writes them in this order)',
          value: CLOUDFRONT_SETUP_FIELDS.join(', '),
        },
        { id: 'url', label: 'HTTP endpoint URL', value: urlOf('firehose') },
        { id: 'accessKey', label: 'Access key', value: token },
      ],
      notes: [
        `Another field selection works when it is listed in CloudFront's order in the URL's fields parameter, e.g. ${urlOf('firehose')}?fields=${CLOUDFRONT_SETUP_FIELDS.join(',')},cs-uri-query. It must hold timestamp, cs-uri-stem, cs-user-agent, sc-status, and cs-host or x-host-header.`,
        'Firehose buffers before it delivers (up to 300 seconds by default): a shorter buffer interval shows the first delivery sooner.',
      ],
    },
  };

  return CRAWL_PROVIDER_IDS.map((id) => ({
    id,
    name: CRAWL_PROVIDER_NAMES[id],
    title: CRAWL_PROVIDER_TITLES[id],
    endpointUrl: urlOf(id),
    ...setups[id],
  }));
}
