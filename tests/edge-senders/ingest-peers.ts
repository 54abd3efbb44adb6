import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { freePort } from '@vt/test-support';
import { createGatewayHarness } from '../../apps/ingest-gateway/src/testing/gateway-harness.ts';

// What the edge senders post to in their tests, all on loopback: the real ingest gateway (the app
// over the run's own Postgres database and Redis prefix), a recorder that keeps every post as it
// arrived, a server that never answers, and a port nobody listens on.

const listen = async (server: Server) => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** The real gateway on a loopback port; the crawler IPs it verified are kept in `verifiedIps`. */
export async function startIngestGateway() {
  const harness = await createGatewayHarness();
  const checkedIps: string[] = [];
  // A crawler's IP is verified when it is the loopback address every test request comes from.
  harness.setVerifier({
    verify: (_operator, ip) => {
      if (ip) checkedIps.push(ip);
      if (!ip) return 'unverifiable';
      return ip === '127.0.0.1' || ip === '::ffff:127.0.0.1' ? 'verified' : 'unverified';
    },
  });
  const server = createServer(harness.app);
  const url = await listen(server);

  /** A property of `domain` with its token, and what the gateway made of the lines posted to it. */
  async function property(domain = 'shop.example') {
    const { property, token } = await harness.createProperty({ domain });
    const deliveries = () =>
      harness.db.deliveryLogEntry.findMany({
        where: { propertyId: property.id, channel: 'crawl' },
        orderBy: { createdAt: 'asc' },
      });
    return {
      id: property.id,
      token,
      deliveries,
      /** Lines the gateway read, over every accepted post. */
      received: async () => (await deliveries()).reduce((sum, row) => sum + (row.linesReceived ?? 0), 0),
      /** The events the gateway kept, queued for the crawl worker, by path. */
      kept: async () =>
        (await harness.jobs())
          .filter((job) => job.propertyId === property.id)
          .flatMap((job) => job.events)
          // Jobs arrive in any order: by path, and on one path crawler visits before referred ones.
          .sort(
            (a, b) =>
              a.path.localeCompare(b.path) ||
              Number(a.crawler === undefined) - Number(b.crawler === undefined) ||
              (a.crawler ?? '').localeCompare(b.crawler ?? ''),
          ),
    };
  }

  return {
    url,
    property,
    checkedIps,
    close: async () => {
      await closeServer(server);
      await harness.close();
    },
  };
}

export interface RecordedPost {
  headers: IncomingMessage['headers'];
  path: string;
  lines: Record<string, unknown>[];
}

/**
 * A receiver that records every post, its body gunzipped when it says gzip, as the lines it
 * carried. `answer: 'hang'` reads the body and never answers, like a service that is stuck.
 */
export async function startRecorder(answer: 'accept' | 'hang' = 'accept') {
  const posts: RecordedPost[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      const lines = text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      posts.push({ headers: req.headers, path: req.url ?? '', lines });
      if (answer === 'accept') {
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kept: 0, received: lines.length }));
      }
    });
  });
  const url = await listen(server);
  return {
    url,
    posts,
    lines: () => posts.flatMap((post) => post.lines),
    close: () => closeServer(server),
  };
}

/** An address where nothing listens: every post is refused at once. */
export async function refusingUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

export const AGENTS = {
  gptBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  claudeBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  perplexityUser:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  chrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
} as const;

/** Milliseconds `run` took. */
export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

/**
 * One request over loopback HTTP with the headers given, Host included (fetch sets Host itself),
 * on a fresh connection; resolves with the status once the whole answer is read.
 */
export function httpRequest(url: string, headers: Record<string, string>, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
