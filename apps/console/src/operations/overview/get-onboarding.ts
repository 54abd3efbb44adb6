import { findTeamProperty, onboarding } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/onboarding: the setup checklist and prompts and competitors to start from. */
export const getOnboardingHandler = defineConsoleHandler(
  'getOnboarding',
  ({ db, now }) =>
    async ({ team, params, query }) => {
      const property = await findTeamProperty(db, team.teamId, params.id);
      return onboarding(db, property, { category: query.category || undefined, now: now() });
    },
);
