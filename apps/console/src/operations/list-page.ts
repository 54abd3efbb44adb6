import { type PagingQuery, pagingConflict } from '@vt/contracts';
import { OperationError } from '@vt/contracts/console';
import { type Page, pageOf } from '@vt/read-model';

/**
 * The page a console list reads from its parsed query: its limit and at most one cursor (both
 * cursors at once are 400 INVALID_PARAM, as on /v1). The router adds the Link header to any answer
 * with cursors.
 */
export function consolePage(query: PagingQuery): Page {
  const conflict = pagingConflict(query);
  if (conflict) throw new OperationError('INVALID_PARAM', conflict);
  return pageOf(query);
}
