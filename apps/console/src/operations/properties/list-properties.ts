import { listProperties } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { consolePage } from '../list-page.ts';

/** GET /api/properties: every plan, free ones too (the read API serves paid ones only). */
export const listPropertiesHandler = defineConsoleHandler(
  'listProperties',
  ({ db }) =>
    async ({ team, query }) =>
      listProperties(db, team.teamId, consolePage(query)),
);
