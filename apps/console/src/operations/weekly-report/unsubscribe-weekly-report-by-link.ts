import { OperationError } from '@vt/contracts/console';
import { unsubscribeWithToken } from '@vt/weekly-report';
import { defineConsoleHandler } from '../define-console-handler.ts';

/**
 * POST /api/weekly-report/unsubscribe?token=…: no session, the signed token is the authority. The
 * mail client's one-click (RFC 8058, a form body this ignores) and the unsubscribe page both land here.
 */
export const unsubscribeWeeklyReportByLinkHandler = defineConsoleHandler(
  'unsubscribeWeeklyReportByLink',
  ({ db, weeklyReport: links }) =>
    async ({ query }) => {
      if (!links.unsubscribeKey) {
        throw new OperationError(
          'NOT_CONFIGURED',
          'This deployment has no REPORT_UNSUBSCRIBE_KEY: it sends no weekly reports.',
        );
      }
      const outcome = await unsubscribeWithToken(db, links.unsubscribeKey, query.token);
      if (outcome === 'invalid') {
        throw new OperationError('INVALID_PARAM', 'This unsubscribe link is not valid: it was cut short or changed.', [
          { path: 'token', message: 'not a token this deployment signed' },
        ]);
      }
      return outcome;
    },
);
