import { OperationError } from '@vt/contracts/console';
import { formatUtcDay, utcDay } from '@vt/db';
import { findTeamProperty } from '@vt/properties';
import { defineConsoleHandler } from '../define-console-handler.ts';
import { collectionStatus, NO_PLATFORM_KEY } from './collection-status.ts';

/**
 * POST /api/properties/{id}/collection: asks the property's active prompts now, on every platform
 * the collector has a key for. Owners and admins, who already manage the prompts; once per
 * property per hour, since every question costs the deployment a paid platform call.
 */
export const startCollectionHandler = defineConsoleHandler('startCollection', ({ db, collectNow, now }) => {
  return async ({ team, params, res }) => {
    const property = await findTeamProperty(db, team.teamId, params.id);
    const before = await collectionStatus(db, collectNow, property, now());
    if (!before.platforms.some((p) => p.configured)) throw new OperationError('NOT_CONFIGURED', NO_PLATFORM_KEY);
    if (before.nothingToAsk) throw new OperationError('NOTHING_TO_COLLECT', before.nothingToAsk);
    const next = await collectNow.start(property.id, formatUtcDay(utcDay(now())));
    if (next) {
      const seconds = Math.max(1, Math.ceil((next.getTime() - now().getTime()) / 1000));
      res.set('Retry-After', String(seconds));
      throw new OperationError(
        'RATE_LIMIT_EXCEEDED',
        `A collection was started for this property within the hour; the next can start in ${Math.ceil(seconds / 60)} min.`,
      );
    }
    const { nothingToAsk: _, ...status } = await collectionStatus(db, collectNow, property, now());
    return status;
  };
});
