import { crawlSetup, findTeamProperty, rotateCrawlToken } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/crawl/rotate: the dialog with the new token, shown (only admins get here). */
export const rotateCrawlTokenHandler = defineConsoleHandler(
  'rotateCrawlToken',
  ({ db, connection, now }) =>
    async ({ team, params }) => {
      const rotated = await rotateCrawlToken(db, connection, await findTeamProperty(db, team.teamId, params.id));
      return crawlSetup(db, connection, rotated, { showSecrets: true, now: now() });
    },
);
