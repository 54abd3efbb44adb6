import { Router } from 'express';
import type { Registry } from 'prom-client';
import { withTimeout } from './with-timeout.ts';

/** Resolves when a dependency answers; rejects (or times out) when it does not. */
export type ReadinessCheck = { name: string; check: () => Promise<unknown> };

export interface HealthRouterOptions {
  registry: Registry;
  checks: ReadinessCheck[];
  /** True once shutdown has begun: readiness answers 503 so load balancers stop sending work. */
  isClosing: () => boolean;
  checkTimeoutMs?: number;
}

/** GET /healthz (alive), GET /readyz (dependencies answer, not closing), GET /metrics (Prometheus). */
export function healthRouter({ registry, checks, isClosing, checkTimeoutMs = 2000 }: HealthRouterOptions): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (isClosing()) {
      res.status(503).json({ status: 'closing' });
      return;
    }
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), checkTimeoutMs);
          return [name, 'ok'] as const;
        } catch {
          return [name, 'unavailable'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
