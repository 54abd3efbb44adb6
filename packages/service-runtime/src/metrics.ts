import { collectDefaultMetrics, Registry } from 'prom-client';

/** A Prometheus registry per app (not the global one), so tests can build apps side by side. */
export function createMetricsRegistry(app: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: registry, prefix: 'vt_' });
  return registry;
}
