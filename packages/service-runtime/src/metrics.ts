import { collectDefaultMetrics, Registry } from 'prom-client';

const PREFIX = 'vt_';

/**
 * prom-client's defaults that break the exposition format's naming rule (`promtool check metrics`:
 * a gauge must not end in `_total`). Each is the sum of a labelled gauge it sits beside, so nothing
 * is lost: `sum without (type) (vt_nodejs_active_handles)` is the total.
 */
const DROPPED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** A Prometheus registry per app (not the global one), so tests can build apps side by side. */
export function createMetricsRegistry(app: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  for (const name of DROPPED_DEFAULTS) registry.removeSingleMetric(`${PREFIX}${name}`);
  return registry;
}
