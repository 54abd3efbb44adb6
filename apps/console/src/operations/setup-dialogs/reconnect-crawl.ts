import { crawlSetup, findTeamProperty, reconnectCrawl } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties/{id}/crawl/reconnect: the dialog as it now stands, token shown (only admins get here). */
export const reconnectCrawlHandler = defineConsoleHandler(
  'reconnectCrawl',
  ({ db, connection, now }) =>
    async ({ team, params }) => {
      const reconnected = await reconnectCrawl(db, await findTeamProperty(db, team.teamId, params.id), now());
      return crawlSetup(db, connection, reconnected, { showSecrets: true, now: now() });
    },
);
