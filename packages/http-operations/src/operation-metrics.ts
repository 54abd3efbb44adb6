import { Counter, Histogram, type Registry } from 'prom-client';

export interface OperationMetricNames {
  /**
   * The family's metric prefix: `vt_read` names `vt_read_requests_total` (a counter) and
   * `vt_read_request_duration_seconds` (a histogram), as dashboards and alert rules know them.
   */
  prefix: string;
  /** Who answers, as the help text names it: `Read API`, `Console API`. */
  subject: string;
}

/** Starts timing a request; the returned function records its status once it is answered. */
export type OperationTimer = (operationId: string) => (status: number) => void;

/** A family's request counter and duration histogram, both labelled by operation and status. */
export function operationMetrics(registry: Registry, names: OperationMetricNames): OperationTimer {
  const requests = new Counter({
    name: `${names.prefix}_requests_total`,
    help: `${names.subject} requests by operation and answer status.`,
    labelNames: ['operation', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${names.prefix}_request_duration_seconds`,
    help: `${names.subject} request duration by operation and answer status.`,
    labelNames: ['operation', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return (operation) => {
    const stopTimer = duration.startTimer({ operation });
    return (status) => {
      stopTimer({ status: String(status) });
      requests.inc({ operation, status: String(status) });
    };
  };
}
