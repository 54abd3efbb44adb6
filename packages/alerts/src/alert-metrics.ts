import { Counter, type Registry } from 'prom-client';
import type { SentAlert } from './evaluate.ts';

export interface AlertMetrics {
  evaluated(sent: readonly SentAlert[]): void;
}

/**
 * The notifier's alert metrics: evaluations this process ran (each replica counts its own ticks),
 * and the messages they recorded by rule kind and type (firing, reminder, resolved).
 */
export function createAlertMetrics(registry: Registry): AlertMetrics {
  const evaluations = new Counter({
    name: 'vt_alert_evaluations_total',
    help: 'Evaluations of every property’s alert rules this process ran.',
    registers: [registry],
  });
  const notifications = new Counter({
    name: 'vt_alert_notifications_total',
    help: 'Alert messages recorded (each with its emails and webhook deliveries), by rule kind and type.',
    labelNames: ['kind', 'type'],
    registers: [registry],
  });
  return {
    evaluated(sent) {
      evaluations.inc();
      for (const alert of sent) notifications.inc({ kind: alert.kind, type: alert.type });
    },
  };
}
