import { alertEvaluation } from './alert-evaluation.ts';
import { emailDelivery } from './email-delivery.ts';
import type { NotifierJob } from './notifier-job.ts';
import { webhookDelivery } from './webhook-delivery.ts';
import { weeklyReports } from './weekly-reports.ts';

/**
 * Everything the notifier runs, one module each: a new job (outgoing webhooks, alert evaluation,
 * weekly reports) is a module beside these, added here.
 */
export const NOTIFIER_JOBS: readonly NotifierJob[] = [emailDelivery, webhookDelivery, alertEvaluation, weeklyReports];

export type { NotifierJob, NotifierJobContext, StartedNotifierJob } from './notifier-job.ts';
export { repeatEvery } from './notifier-job.ts';
