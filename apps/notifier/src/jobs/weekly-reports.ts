import { wakeEmailSender } from '@vt/mail';
import { emailJob, weeklyReportsJob } from '@vt/queue';
import { jobWorker } from '@vt/service-runtime';
import { sendDueReports } from '@vt/weekly-report';
import { type NotifierJob, repeatEvery } from './notifier-job.ts';

/**
 * Weekly reports: every WEEKLY_REPORT_INTERVAL_MS, the reports due (Monday from 08:00 team time)
 * go into the outbox, one per person, property and week under that dedupe key, and the email job
 * sends them. Without REPORT_UNSUBSCRIBE_KEY none is sent: a report must carry a working link
 * to stop it.
 */
export const weeklyReports: NotifierJob = {
  name: 'weekly-reports',
  async start({ config, logger, db, queue }) {
    const unsubscribeKey = config.REPORT_UNSUBSCRIBE_KEY;
    if (!unsubscribeKey) {
      logger.warn('weekly reports off: REPORT_UNSUBSCRIBE_KEY is not set');
      return { workers: [] };
    }
    const sendQueue = queue(emailJob);
    const links = { consoleUrl: config.CONSOLE_PUBLIC_URL, unsubscribeKey };
    const worker = jobWorker({
      contract: weeklyReportsJob,
      concurrency: 1,
      handle: async () => {
        const run = await sendDueReports({ db, links, wake: (id) => wakeEmailSender(sendQueue, id) }, new Date());
        if (run.queued > 0 || run.removed > 0) logger.info(run, 'weekly reports queued');
        return { applied: true };
      },
      jobFields: () => ({}),
      claimsProcessedJobs: false,
    });
    await repeatEvery(queue(weeklyReportsJob), weeklyReportsJob, config.WEEKLY_REPORT_INTERVAL_MS);
    return { workers: [worker] };
  },
};
