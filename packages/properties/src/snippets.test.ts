import { CRAWL_PROVIDER_IDS } from '@vt/contracts';
import { describe, expect, it } from 'vitest';
import { crawlProviderSetups, crawlSnippets } from './snippets.ts';

// The crawl setup dialog's ready-to-paste senders: each names the endpoint, and the token only
// when one is given (owners and admins); otherwise a placeholder, never a token.

const endpointUrl = 'https://ingest.example.test/api/ingest/crawl/8a1f0d2e-0000-4000-8000-000000000001';
const now = new Date('2026-11-20T09:15:42.345Z');

describe('crawl sender snippets', () => {
  it('[TEAM-5] name the endpoint and the token in every snippet when the token is shown', () => {
    const snippets = crawlSnippets({ endpointUrl, token: 'vtc_secret-token', domain: 'shop.example', now });
    expect(snippets.map((s) => s.id)).toEqual(['curl', 'node', 'vector']);
    for (const snippet of snippets) {
      expect(snippet.code, snippet.id).toContain(endpointUrl);
      expect(snippet.code, snippet.id).toContain('Bearer vtc_secret-token');
    }
    // The sample event is one of the property's own hosts, so pasting it as-is is accepted.
    expect(snippets[0]?.code).toContain('"host":"shop.example"');
    expect(snippets[1]?.code).toContain('"host":"shop.example"');
  });

  it('date their example line when the dialog is shown, so a pasted example shows in today’s charts', () => {
    const [curl, node] = crawlSnippets({ endpointUrl, token: 't', domain: 'shop.example', now });
    for (const snippet of [curl, node]) {
      expect(snippet?.code).toContain('"timestamp":"2026-11-20T09:15:42Z"');
      expect(snippet?.code).not.toContain('2026-01-01');
    }
    const later = crawlSnippets({
      endpointUrl,
      token: 't',
      domain: 'shop.example',
      now: new Date('2027-02-03T00:00:00Z'),
    });
    expect(later[1]?.code).toContain('"timestamp":"2027-02-03T00:00:00Z"');
  });

  it('[TEAM-5] carry a placeholder and no token when the token is hidden', () => {
    for (const snippet of crawlSnippets({ endpointUrl, token: null, domain: 'shop.example', now })) {
      expect(snippet.code).toContain('<crawl token: ask an owner or admin>');
      expect(snippet.code).not.toMatch(/vtc_/);
    }
  });

  it('send NDJSON gzipped from the shell with an Idempotency-Key, and a JSON array from Node', () => {
    const [curl, node] = crawlSnippets({ endpointUrl, token: 't', domain: 'shop.example', now });
    expect(curl?.code).toMatch(/gzip -c .*\| curl/);
    expect(curl?.code).toContain("'Content-Type: application/x-ndjson'");
    expect(curl?.code).toContain('Idempotency-Key');
    expect(node?.code).toContain("'Content-Type': 'application/json'");
    expect(node?.code).toContain('JSON.stringify(events)');
  });
});

describe('CDN and hosting platform setups', () => {
  it('URL-encode the bearer into the Logpush destination, and name every endpoint by its provider', () => {
    const setups = crawlProviderSetups({
      endpointUrl,
      token: 'vtc_a+b/c',
      vercelDrainSecret: 'drain-secret',
      domain: 'shop.example',
    });
    expect(setups.map((s) => s.endpointUrl)).toEqual(CRAWL_PROVIDER_IDS.map((id) => `${endpointUrl}/${id}`));
    const destination = setups[0]?.fields.find((f) => f.id === 'destination')?.value ?? '';
    expect(destination).toBe(`${endpointUrl}/cloudflare?header_Authorization=Bearer%20vtc_a%2Bb%2Fc`);
    expect(new URL(destination).searchParams.get('header_Authorization')).toBe('Bearer vtc_a+b/c');
    // The property's own domain is named where the provider asks which site or zone.
    for (const setup of setups) expect(setup.steps.join(' '), setup.id).toContain('shop.example');
  });

  it('[TEAM-5] carry placeholders for the token and the drain secret when they are hidden', () => {
    const setups = crawlProviderSetups({ endpointUrl, token: null, vercelDrainSecret: null, domain: 'shop.example' });
    for (const setup of setups) {
      expect(JSON.stringify(setup.fields), setup.id).toContain('<crawl token: ask an owner or admin>');
      expect(JSON.stringify(setup.fields), setup.id).not.toMatch(/vtc_/);
    }
    expect(setups[1]?.fields.find((f) => f.id === 'secret')?.value).toBe(
      '<drain signature secret: ask an owner or admin>',
    );
  });
});
