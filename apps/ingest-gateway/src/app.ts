import type { Logger } from '@vt/logger';
import { applyHttpDefaults, healthRouter, type ReadinessCheck, requestIdOf } from '@vt/service-runtime';
import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Registry } from 'prom-client';
import { type CrawlIngestDeps, crawlIngestRouter } from './crawl/crawl-ingest.route.ts';
import { LEAD_WEBHOOK_PATH, type LeadWebhookDeps, leadWebhookHandler } from './leads/lead-webhook.route.ts';
import { crawlRejection, gatewayRejection, sendRejection } from './rejections.ts';

export interface IngestGatewayDeps {
  logger: Logger;
  crawlIngest: CrawlIngestDeps;
  leadWebhook: LeadWebhookDeps;
  registry: Registry;
  readinessChecks: ReadinessCheck[];
  isClosing: () => boolean;
}

/**
 * The gateway's HTTP surface. Every answer is JSON with `{error, hint, reason}` on a rejection,
 * the shape the spec gives for the ingest and webhook endpoints.
 */
export function buildIngestGateway(deps: IngestGatewayDeps): Express {
  const app = express();
  // Also no ETags: every answer here is to a POST (or a probe) and is never revalidated, so
  // hashing each body would be wasted work on the hot path.
  applyHttpDefaults(app, { logger: deps.logger });
  app.set('trust proxy', false);
  // Busiest route first, on the app itself: each request walks the routers in order, and a router
  // of its own would be one more walk per lead.
  app.post(LEAD_WEBHOOK_PATH, leadWebhookHandler(deps.leadWebhook));
  app.use(crawlIngestRouter(deps.crawlIngest));
  app.use(healthRouter({ registry: deps.registry, checks: deps.readinessChecks, isClosing: deps.isClosing }));

  app.use((req, res) => sendRejection(res, gatewayRejection('not_found', `${req.method} ${req.path}`)));
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) return;
    // A path that does not even percent-decode names no property: not found, not a retryable 500.
    if (err instanceof URIError) return sendRejection(res, gatewayRejection('not_found', `${req.method} ${req.path}`));
    deps.logger.error({ err, requestId: requestIdOf(res) }, 'unhandled error');
    // The lead webhook answers its own errors (storage_failed); crawl ingest's 500 is ours to choose.
    sendRejection(res, crawlRejection('internal_error'));
  };
  app.use(onError);
  return app;
}
