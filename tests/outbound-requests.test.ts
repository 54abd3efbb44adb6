import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '@vt/test-support';
import { describe, expect, it } from 'vitest';

// SVC-1: the service sends nothing outward on a caller's behalf (no outbound webhooks, no
// delivering or retrying for anyone). The one outward call the product makes is the answer
// collector asking the AI platforms (spec, "What the service does", point 1); this keeps every
// other place that could make a request out of the apps and packages. Since issue 29 the notifier
// also speaks first: it sends the service's email to the operator's SMTP server (SMTP_URL, through
// nodemailer, which no source here spells as a request); tests/outbound-runtime.e2e.test.ts pins it.

/** Product sources: apps and packages, without tests, test helpers (test-support too) or generated code. */
function productSources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (['node_modules', 'generated', 'testing', 'dist', 'tools'].includes(entry)) return [];
    if (statSync(path).isDirectory()) return productSources(path);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

// A call to, or a default of, the global fetch (not a cache's .fetch), `globalThis.fetch` included
// and a fallback such as `fetchImpl ?? fetch`; Node's HTTP clients (a default or namespace import
// of node:http(s), or its request, get or Agent, or a dynamic import of it), an HTTP library, or
// a typed fetch client (openapi-fetch, whose types alone call nothing). Naming only server parts
// of node:http (createServer, types) makes no request. A regex sees only what is spelled out:
// tests/outbound-runtime.e2e.test.ts records what the apps really reach.
const OUTBOUND = new RegExp(
  [
    /(?<![.\w])fetch\(|=\s*fetch\b|(?:\?\?|\|\|)\s*fetch\b|\bglobalThis\.fetch\b/,
    /^import (?!type )(?:\w+|\* as \w+)\b[^\n]*from 'node:https?'/,
    /^import \{[^}]*\b(request|get|Agent|globalAgent)\b[^}]*\} from 'node:https?'/,
    /\bimport\(\s*'node:https?'\s*\)/,
    /^import [^\n]*from '(undici|axios|got|node-fetch|ky)'|\bhttps?\.(request|get)\(/,
    // The AI vendors' SDKs: each makes its requests itself (issue 32).
    /^import (?!type )[^\n]*from '(openai|@anthropic-ai\/sdk|@google\/genai|@perplexity-ai\/perplexity_ai)'/,
    /^import (?!type )[^\n]*from 'openapi-fetch'/,
  ]
    .map((part) => part.source)
    .join('|'),
  'm',
);

/** Where an outbound request is expected, and why. */
const ALLOWED: Record<string, string> = {
  'apps/answer-collector/src/platforms/openai.ts': 'asks ChatGPT for answers, through the openai SDK (issues 12, 32)',
  'apps/answer-collector/src/platforms/anthropic.ts':
    'asks Claude for answers, through the @anthropic-ai/sdk SDK (issues 12, 32)',
  'apps/answer-collector/src/platforms/gemini.ts':
    'asks Gemini for answers, through the @google/genai SDK and its per-call fetch (issues 12, 32)',
  'apps/answer-collector/src/platforms/perplexity.ts':
    'asks Perplexity for answers, through the @perplexity-ai/perplexity_ai SDK (issues 12, 32)',
  'apps/ops/src/cli/commands/crawler-ranges.ts':
    "fetches the crawler operators' published IP ranges, on the operator's command",
  'apps/ops/src/cli/commands/agent-catalogue.ts':
    "fetches the community AI agent lists (`fetchImpl ?? fetch`) for `ops crawlers refresh`, on the operator's command",
  'apps/ops/src/cli/commands/signature-keys.ts':
    "fetches the operators' Web Bot Auth key directories (`fetchImpl ?? fetch`) for `ops crawlers refresh`, on the operator's command",
  'apps/ops/src/dev/start.ts': "polls the local apps' /readyz while `pnpm start` waits",
  'apps/console/web/src/console-client.ts': 'the browser calls its own console API, same origin',
  'apps/console/src/mail/caught-mail.ts':
    "development only: reads `pnpm start`'s mail catcher at MAIL_CATCHER_URL, which the config holds to this machine",
  'packages/api-client/src/index.ts': 'the typed /v1 client people install for their own scripts; no app uses it',
  'apps/console/web/src/pages/WebhookSetupPage.tsx': 'a signing example shown to people; nothing is called',
  'packages/properties/src/snippets.ts': 'sender snippets shown to people; nothing is called',
  'packages/outgoing-webhooks/src/post-webhook.ts':
    'posts alert webhooks to the receivers owners and admins set (issue 29), through the SSRF guard: https, public addresses only, the connection pinned to the checked addresses, no redirects',
  'packages/edge-senders/src/batcher.ts':
    'the senders people install on their own sites post their requests to the crawl ingest; no app uses them',
  'packages/edge-senders/src/cloudflare-worker.ts':
    'the Worker people deploy in front of their own site passes each request to their origin; no app uses it',
};

describe('outbound requests', () => {
  it('[SVC-1] calls out for no caller: the only outbound requests are the collector’s questions and the operator’s range refresh', () => {
    const found = ['apps', 'packages']
      .flatMap((dir) => productSources(join(ROOT, dir)))
      .filter((file) => !file.includes('/packages/test-support/'))
      .filter((file) => OUTBOUND.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file))
      .sort();
    expect(found.filter((file) => !(file in ALLOWED))).toEqual([]);
    for (const adapter of ['openai', 'anthropic', 'gemini', 'perplexity']) {
      expect(found).toContain(`apps/answer-collector/src/platforms/${adapter}.ts`);
    }
    // The spellings a plain `fetch(` search missed are seen.
    expect(found).toContain('apps/ops/src/cli/commands/agent-catalogue.ts');
    expect(found).toContain('apps/ops/src/cli/commands/signature-keys.ts');
  });
});
