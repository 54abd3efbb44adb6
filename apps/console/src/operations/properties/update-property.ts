import { findTeamProperty, propertyDetail, updateProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** PATCH /api/properties/{id}: name, plan or brand terms. */
export const updatePropertyHandler = defineConsoleHandler(
  'updateProperty',
  ({ db, requestRejudge }) =>
    async ({ team, params, body }) => {
      const updated = await updateProperty(db, await findTeamProperty(db, team.teamId, params.id), body);
      // New brand terms change every stored verdict: judged again, in the background.
      if (body.brandTerms) await requestRejudge(updated.id);
      return { property: await propertyDetail(db, updated) };
    },
);
