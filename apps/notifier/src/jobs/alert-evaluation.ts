import { createAlertMetrics, evaluateAlerts, pruneAlertNotifications } from '@vt/alerts';
import { alertEvaluationJob, emailJob, webhookDeliveryJob } from '@vt/queue';
import { jobWorker } from '@vt/service-runtime';
import { type NotifierJob, repeatEvery } from './notifier-job.ts';

/**
 * Alert rules: every ALERT_EVALUATION_INTERVAL_MS a job scheduler runs one evaluation of every
 * property's enabled rules (@vt/alerts), on whichever replica takes the tick. Exactly once does
 * not rest on that: each property is evaluated in a transaction that locks its rules, and every
 * message is keyed by its rule's change of state, so a replayed tick, or two replicas evaluating
 * at once, send each alert once.
 */
export const alertEvaluation: NotifierJob = {
  name: 'alert-evaluation',
  async start({ config, logger, db, registry, queue }) {
    const metrics = createAlertMetrics(registry);
    const deps = {
      db,
      consoleUrl: config.CONSOLE_PUBLIC_URL,
      // Two ticks in a row: see rule-state.ts.
      holdMs: Math.floor(config.ALERT_EVALUATION_INTERVAL_MS / 2),
      emailQueue: queue(emailJob),
      webhookQueue: queue(webhookDeliveryJob),
      onWakeFailure: (err: unknown) => logger.warn({ err }, 'alert senders not woken: the sweeps will send'),
      onSkippedRecipient: (details: { ruleId: string; userId: string }) =>
        logger.warn(details, 'alert email skipped: the address was refused'),
    };
    const evaluate = jobWorker({
      contract: alertEvaluationJob,
      concurrency: 1,
      handle: async () => {
        const now = new Date();
        const { properties, sent } = await evaluateAlerts(deps, now, (propertyId, err) =>
          logger.error({ err, propertyId }, 'alert evaluation failed for a property'),
        );
        metrics.evaluated(sent);
        for (const alert of sent) logger.info(alert, 'alert sent');
        // The console lists recent alerts; older records are dropped on the same tick.
        const pruned = await pruneAlertNotifications(db, now);
        return { applied: true, properties, sent: sent.length, pruned };
      },
      jobFields: () => ({}),
      claimsProcessedJobs: false,
    });
    await repeatEvery(queue(alertEvaluationJob), alertEvaluationJob, config.ALERT_EVALUATION_INTERVAL_MS);
    logger.info({ everyMs: config.ALERT_EVALUATION_INTERVAL_MS }, 'evaluating alert rules');
    return { workers: [evaluate] };
  },
};
