import { canManageTeam } from '@vt/accounts';
import { crawlSetup, findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/crawl: the token and the snippets carrying it for owners and admins only (TEAM-5). */
export const getCrawlSetupHandler = defineConsoleHandler(
  'getCrawlSetup',
  ({ db, connection, now }) =>
    async ({ team, params }) =>
      crawlSetup(db, connection, await findTeamProperty(db, team.teamId, params.id), {
        showSecrets: canManageTeam(team.role),
        now: now(),
      }),
);
