import { crawlSetup, disconnectCrawl, findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/crawl/disconnect: the dialog as it now stands, token shown (only admins get here). */
export const disconnectCrawlHandler = defineConsoleHandler(
  'disconnectCrawl',
  ({ db, connection, now }) =>
    async ({ team, params }) => {
      const disconnected = await disconnectCrawl(db, await findTeamProperty(db, team.teamId, params.id));
      return crawlSetup(db, connection, disconnected, { showSecrets: true, now: now() });
    },
);
