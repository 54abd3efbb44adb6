import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// Local stand-ins for the four vendors' APIs, for the SDKs to talk to over real HTTP: each answers
// with the vendors' documented examples (vendor-fixtures/, README there), error bodies and headers
// included, so a request the SDK builds and an answer the SDK parses are the vendor's shapes.

export type ReplayPlatform = 'chatgpt' | 'perplexity' | 'claude' | 'gemini';
const PLATFORMS: ReplayPlatform[] = ['chatgpt', 'perplexity', 'claude', 'gemini'];
const FIXTURE_DIR: Record<ReplayPlatform, string> = {
  chatgpt: 'openai',
  perplexity: 'perplexity',
  claude: 'anthropic',
  gemini: 'gemini',
};

/** What a platform answers to a prompt: markdown and cited URLs, put into its documented example. */
export interface ScriptedAnswer {
  text: string;
  citations: string[];
}

/** One request a replay server received, as the SDK sent it. */
export interface RecordedRequest {
  platform: ReplayPlatform;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The prompt, read from wherever that platform's API puts it. */
  prompt: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/** A vendor fixture: the documented example's status, headers and body, and the page it came from. */
export interface VendorFixture {
  source: string;
  status: number;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fixture of vendor-fixtures/, by platform and file name without `.json` (`answer`, `error-429`). */
export function vendorFixture(platform: ReplayPlatform, name: string): VendorFixture {
  const url = new URL(`./vendor-fixtures/${FIXTURE_DIR[platform]}/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8'));
}

/** Each API's one endpoint the adapters call, and where its prompt sits in the request body. */
const ENDPOINTS: Record<ReplayPlatform, { path: RegExp; prompt: (body: Record<string, unknown>) => unknown }> = {
  chatgpt: { path: /^\/v1\/responses$/, prompt: (b) => b.input },
  perplexity: { path: /^\/chat\/completions$/, prompt: (b) => at(b, 'messages', 0, 'content') },
  claude: { path: /^\/v1\/messages$/, prompt: (b) => at(b, 'messages', 0, 'content') },
  gemini: {
    path: /^\/v1beta\/models\/[^/:]+:generateContent$/,
    prompt: (b) => at(b, 'contents', 0, 'parts', 0, 'text'),
  },
};

/**
 * One replay server per vendor on loopback. Each answers its endpoint with, in order: a fixture
 * queued by `next` (once), the error fixture set by `fail` (until cleared), or the documented
 * example answer, its text and citations replaced by `answer(platform, prompt)` when given.
 */
export async function startVendorReplays(answer?: (platform: ReplayPlatform, prompt: string) => ScriptedAnswer) {
  const requests: RecordedRequest[] = [];
  const queued = new Map<ReplayPlatform, VendorFixture[]>(PLATFORMS.map((p) => [p, []]));
  const failing = new Map<ReplayPlatform, VendorFixture>();

  const reply = (platform: ReplayPlatform, prompt: string): VendorFixture => {
    const next = queued.get(platform)?.shift() ?? failing.get(platform);
    if (next) return next;
    const example = vendorFixture(platform, 'answer');
    return answer ? { ...example, body: withAnswer(platform, example.body, answer(platform, prompt)) } : example;
  };

  const servers = await Promise.all(
    PLATFORMS.map(async (platform) => {
      const server = createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk) => {
          raw += chunk;
        });
        req.on('end', () => {
          const path = (req.url ?? '').split('?')[0] ?? '';
          const send = ({ status, headers, body }: Omit<VendorFixture, 'source'>) =>
            res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
          if (req.method !== 'POST' || !ENDPOINTS[platform].path.test(path)) {
            return send({ status: 404, body: { error: { message: `no such endpoint: ${req.method} ${path}` } } });
          }
          const body = JSON.parse(raw || '{}');
          const prompt = String(ENDPOINTS[platform].prompt(body));
          requests.push({ platform, method: req.method, path, headers: req.headers, body, prompt, at: Date.now() });
          send(reply(platform, prompt));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return [platform, server] as const;
    }),
  );
  const baseUrls = Object.fromEntries(
    servers.map(([platform, server]) => [platform, `http://127.0.0.1:${(server.address() as AddressInfo).port}`]),
  ) as Record<ReplayPlatform, string>;

  return {
    /** Each vendor's base URL, as the config's `<PLATFORM>_BASE_URL` takes it. */
    baseUrls,
    requests,
    /** The requests one platform received, in order. */
    requestsOf: (platform: ReplayPlatform) => requests.filter((r) => r.platform === platform),
    /** Makes a platform answer its documented error for `status` from now on (0: answer normally again). */
    fail(platform: ReplayPlatform, status: number) {
      if (status) failing.set(platform, vendorFixture(platform, `error-${status}`));
      else failing.delete(platform);
    },
    /** The platform's next answers, once each: fixtures by name (`pause-turn`) or written out. */
    next(platform: ReplayPlatform, ...fixtures: (string | VendorFixture)[]) {
      for (const f of fixtures) queued.get(platform)?.push(typeof f === 'string' ? vendorFixture(platform, f) : f);
    },
    close: () =>
      Promise.all(
        servers.map(
          ([, server]) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      ),
  };
}

export type VendorReplays = Awaited<ReturnType<typeof startVendorReplays>>;

/** A value deep in parsed JSON, or undefined. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let here = value;
  for (const key of path) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string | number, unknown>)[key];
  }
  return here;
}

/**
 * The documented example answer with its text and citations replaced, every other field as
 * documented; each citation copies the example's first one, its URL (and title) replaced.
 */
function withAnswer(platform: ReplayPlatform, example: Record<string, unknown>, { text, citations }: ScriptedAnswer) {
  // biome-ignore lint/suspicious/noExplicitAny: a test fixture edited in place; the adapters' tests read it through the SDKs' types
  const body = structuredClone(example) as Record<string, any>;
  switch (platform) {
    case 'chatgpt': {
      const message = body.output.find((item: { type: string }) => item.type === 'message');
      const [part] = message.content;
      const [template] = part.annotations;
      message.content = [
        {
          ...part,
          text,
          annotations: citations.map((url) => ({
            ...template,
            url,
            title: url,
            start_index: 0,
            end_index: text.length,
          })),
        },
      ];
      break;
    }
    case 'claude': {
      const cited = body.content.find((b: { citations?: unknown[] }) => b.citations?.length);
      const [template] = cited.citations;
      body.content = [
        ...body.content.filter((b: { type: string }) => b.type !== 'text'),
        { type: 'text', text, citations: citations.map((url) => ({ ...template, url, title: url })) },
      ];
      break;
    }
    case 'gemini': {
      const [candidate] = body.candidates;
      candidate.content.parts = [{ text }];
      candidate.groundingMetadata.groundingChunks = citations.map((uri) => ({
        web: { uri, title: new URL(uri).host },
      }));
      candidate.groundingMetadata.groundingSupports = [];
      break;
    }
    case 'perplexity': {
      const [template] = body.search_results;
      body.choices[0].message.content = text;
      body.citations = citations;
      body.search_results = citations.map((url) => ({ ...template, url, title: url }));
      break;
    }
  }
  return body;
}
