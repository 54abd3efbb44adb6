import { defineConsoleHandler } from '../define-console-handler.ts';
import { csvDownload } from './csv-download.ts';

/** GET /api/properties/{id}/exports/crawlers: AI crawler hits per day and crawler, as CSV. */
export const exportCrawlerActivityHandler = defineConsoleHandler(
  'exportCrawlerActivity',
  ({ db, now }) =>
    async ({ team, params, query }) =>
      csvDownload(db, 'crawlers', { teamId: team.teamId, propertyId: params.id, query, now: now() }),
);
