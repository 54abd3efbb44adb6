import { listProperties } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties: every plan, free ones too (the read API serves paid ones only). */
export const listPropertiesHandler = defineConsoleHandler('listProperties', ({ db }) => async ({ team }) => ({
  properties: await listProperties(db, team.teamId),
}));
