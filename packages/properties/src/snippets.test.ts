import { describe, expect, it } from 'vitest';
import { crawlSnippets } from './snippets.ts';

// The crawl setup dialog's ready-to-paste senders: each names the endpoint, and the token only
// when one is given (owners and admins); otherwise a placeholder, never a token.

const endpointUrl = 'https://ingest.example.test/api/ingest/crawl/8a1f0d2e-0000-4000-8000-000000000001';

describe('crawl sender snippets', () => {
  it('[TEAM-5] name the endpoint and the token in every snippet when the token is shown', () => {
    const snippets = crawlSnippets({ endpointUrl, token: 'vtc_secret-token', domain: 'shop.example' });
    expect(snippets.map((s) => s.id)).toEqual(['curl', 'node', 'vector']);
    for (const snippet of snippets) {
      expect(snippet.code, snippet.id).toContain(endpointUrl);
      expect(snippet.code, snippet.id).toContain('Bearer vtc_secret-token');
    }
    // The sample event is one of the property's own hosts, so pasting it as-is is accepted.
    expect(snippets[0]?.code).toContain('"host":"shop.example"');
    expect(snippets[1]?.code).toContain('"host":"shop.example"');
  });

  it('[TEAM-5] carry a placeholder and no token when the token is hidden', () => {
    for (const snippet of crawlSnippets({ endpointUrl, token: null, domain: 'shop.example' })) {
      expect(snippet.code).toContain('<crawl token: ask an owner or admin>');
      expect(snippet.code).not.toMatch(/vtc_/);
    }
  });

  it('send NDJSON gzipped from the shell with an Idempotency-Key, and a JSON array from Node', () => {
    const [curl, node] = crawlSnippets({ endpointUrl, token: 't', domain: 'shop.example' });
    expect(curl?.code).toMatch(/gzip -c .*\| curl/);
    expect(curl?.code).toContain("'Content-Type: application/x-ndjson'");
    expect(curl?.code).toContain('Idempotency-Key');
    expect(node?.code).toContain("'Content-Type': 'application/json'");
    expect(node?.code).toContain('JSON.stringify(events)');
  });
});
