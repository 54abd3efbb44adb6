import { findTeamProperty } from '@vt/properties';
import { reportSubscriptionOf } from '@vt/weekly-report';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { subscriptionAnswer } from './subscription-answer.ts';

/** GET /api/properties/{id}/weekly-report: the caller's own subscription. */
export const getWeeklyReportSubscriptionHandler = defineConsoleHandler(
  'getWeeklyReportSubscription',
  ({ db }) =>
    async ({ team, session, params }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      return subscriptionAnswer(await reportSubscriptionOf(db, session.user.id, property.id));
    },
);
