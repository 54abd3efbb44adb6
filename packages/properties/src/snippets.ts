/** A sender, ready to paste: the crawl ingest endpoint fed from a shell, Node.js or Vector. */
export interface Snippet {
  id: string;
  label: string;
  language: string;
  code: string;
}

const PLACEHOLDER = '<crawl token: ask an owner or admin>';

/**
 * Ready-to-paste senders for the crawl setup dialog. Without a token (members, or no deployment
 * secret) they carry a placeholder, so a member can pass one on without ever seeing the token.
 */
export function crawlSnippets(input: { endpointUrl: string; token: string | null; domain: string }): Snippet[] {
  const token = input.token ?? PLACEHOLDER;
  const event = JSON.stringify({
    timestamp: '2026-01-01T12:00:00Z',
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
