import { defineConsoleHandler } from '../define-console-handler.ts';
import { csvDownload } from './csv-download.ts';

/** GET /api/properties/{id}/exports/referrals: AI-referred visits per day, platform and landing path, as CSV. */
export const exportAiReferralsHandler = defineConsoleHandler(
  'exportAiReferrals',
  ({ db, now }) =>
    async ({ team, params, query }) =>
      csvDownload(db, 'referrals', { teamId: team.teamId, propertyId: params.id, query, now: now() }),
);
