import { crawlLog, findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/crawl/log. */
export const getCrawlLogHandler = defineConsoleHandler(
  'getCrawlLog',
  ({ db }) =>
    async ({ team, params }) =>
      crawlLog(db, (await findTeamProperty(db, team.teamId, params.id)).id),
);
