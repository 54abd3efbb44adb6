import { defineConsoleHandler } from '../define-console-handler.ts';
import { csvDownload } from './csv-download.ts';

/** GET /api/properties/{id}/exports/leads: every lead of the range (owners and admins: leads hold personal data), as CSV. */
export const exportLeadsHandler = defineConsoleHandler(
  'exportLeads',
  ({ db, now }) =>
    async ({ team, params, query }) =>
      csvDownload(db, 'leads', { teamId: team.teamId, propertyId: params.id, query, now: now() }),
);
