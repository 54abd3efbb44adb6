import { findTeamProperty } from '@vt/properties';
import { subscribeToReport } from '@vt/weekly-report';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { subscriptionAnswer } from './subscription-answer.ts';

/** PUT /api/properties/{id}/weekly-report: any member, for themself only (the session's person). */
export const subscribeWeeklyReportHandler = defineConsoleHandler(
  'subscribeWeeklyReport',
  ({ db }) =>
    async ({ team, session, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      return subscriptionAnswer(await subscribeToReport(db, session.user.id, property.id));
    },
);
