import { createProperty, propertyDetail } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** POST /api/properties. */
export const createPropertyHandler = defineConsoleHandler('createProperty', ({ db }) => async ({ team, body }) => ({
  property: await propertyDetail(db, await createProperty(db, { teamId: team.teamId, ...body })),
}));
