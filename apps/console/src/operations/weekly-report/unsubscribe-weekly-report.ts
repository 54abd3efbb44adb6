import { findTeamProperty } from '@vt/properties';
import { unsubscribeFromReport } from '@vt/weekly-report';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { subscriptionAnswer } from './subscription-answer.ts';

/** DELETE /api/properties/{id}/weekly-report: the caller's own subscription; none already is fine. */
export const unsubscribeWeeklyReportHandler = defineConsoleHandler(
  'unsubscribeWeeklyReport',
  ({ db }) =>
    async ({ team, session, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      return subscriptionAnswer(await unsubscribeFromReport(db, session.user.id, property.id));
    },
);
