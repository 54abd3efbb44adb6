import { join } from 'node:path';
import { buildConsoleOpenApiDocument } from '@vt/contracts/console';
import type { Logger } from '@vt/logger';
import {
  apiReferenceRouter,
  applyHttpDefaults,
  compressedAnswers,
  healthRouter,
  type ReadinessCheck,
  requestIdOf,
} from '@vt/service-runtime';
import express, { type ErrorRequestHandler, type Express } from 'express';
import { sendConsoleError } from './http/console-error.ts';
import { type ConsoleRouterDeps, createConsoleRouter } from './http/console-router.ts';

/** The largest request body the console reads: every console body is a small form. */
const CONSOLE_MAX_BODY = '64kb';

export interface ConsoleAppDeps extends ConsoleRouterDeps {
  logger: Logger;
  readinessChecks: ReadinessCheck[];
  isClosing: () => boolean;
  /** Express 'trust proxy' (from CONSOLE_TRUST_PROXY). */
  trustProxy: string;
  /** The built web UI (web/dist), served at `/`; without it only the API is served. */
  webRoot?: string;
}

/**
 * The single-page web UI: its hashed assets cached for a year, every other GET outside /api
 * answered with index.html, so a bookmarked or reloaded route (/t/{team}/p/{property}/crawl)
 * opens where it was.
 */
function webUi(root: string) {
  const router = express.Router();
  // serve-static would answer any other method with an empty 405 of its own, outside the envelope.
  router.use('/assets', (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.set('Allow', 'GET, HEAD');
    sendConsoleError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use GET or HEAD.`);
  });
  router.use('/assets', express.static(join(root, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }));
  router.get(/^\/(?!api\/|api$|healthz$|readyz$|metrics$).*/, (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(join(root, 'index.html'));
  });
  return router;
}

/** Express reads `false`, `true`, a hop count, or addresses/names such as `loopback`. */
function trustProxySetting(value: string): boolean | number | string {
  if (value === 'false' || value === 'true') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** The console API: JSON everywhere, errors in the /v1 envelope, never HTML or a stack trace. */
export function buildConsoleApp(deps: ConsoleAppDeps): Express {
  const app = express();
  // Images from any https origin: a team's logo (an https URL, checked by its schema) shows in the header.
  applyHttpDefaults(app, { logger: deps.logger, extraImageSources: ['https:'] });
  app.set('trust proxy', trustProxySetting(deps.trustProxy));
  app.use(healthRouter({ registry: deps.registry, checks: deps.readinessChecks, isClosing: deps.isClosing }));

  const openApiDocument = buildConsoleOpenApiDocument();
  app.get('/api/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  app.use(
    apiReferenceRouter({
      title: 'AI Visibility Tracking console API',
      path: '/api/docs',
      specUrl: '/api/openapi.json',
    }),
  );
  // Answers name people, tokens and secrets: no shared cache may keep one.
  app.use('/api', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  // JSON answers over 1 KB in br or gzip, to a client that asks (a key list, a page of answers).
  app.use('/api', compressedAnswers());
  app.use('/api', express.json({ limit: CONSOLE_MAX_BODY }));
  app.use(createConsoleRouter(deps));
  if (deps.webRoot) app.use(webUi(deps.webRoot));

  app.use((req, res) => sendConsoleError(res, 'NOT_FOUND', `No endpoint at ${req.path}.`));
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) {
      // A streamed answer (a CSV export) that failed after its first bytes: its connection was
      // cut, so the client sees an incomplete download; only the log can say why.
      deps.logger.error(
        { err, path: req.path, method: req.method, requestId: requestIdOf(res) },
        'console answer failed after it began; its connection was cut',
      );
      return;
    }
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      return sendConsoleError(res, 'PAYLOAD_TOO_LARGE', `The body is over ${CONSOLE_MAX_BODY}.`);
    }
    if (type === 'entity.parse.failed') {
      return sendConsoleError(res, 'INVALID_BODY', 'The body is not valid JSON (an object is expected).');
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return sendConsoleError(res, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as uncompressed UTF-8 JSON.');
    }
    const status = (err as { status?: number }).status;
    if (err instanceof URIError || status === 400) {
      return sendConsoleError(res, 'NOT_FOUND', 'No endpoint at this path (it is not valid percent-encoding).');
    }
    // The web UI's static files (they do not fall through): a missing file, or a path that
    // climbs out of the assets (403), is a 404 like any unknown path.
    if (status === 404 || status === 403) return sendConsoleError(res, 'NOT_FOUND', `No file at ${req.path}.`);
    deps.logger.error(
      { err, path: req.path, method: req.method, requestId: requestIdOf(res) },
      'console request failed',
    );
    sendConsoleError(res, 'INTERNAL_ERROR', 'The server failed to answer; try again shortly.');
  };
  app.use(onError);
  return app;
}
