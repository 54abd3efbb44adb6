import { PLATFORM_IDS } from '@vt/contracts/platform-names';
import type { CollectionStatus, VisibilityOverTime } from './console-types.ts';

// Which platforms a platform filter offers. Copilot is never asked (Microsoft offers no public
// API that answers as Copilot does): its answers exist only where someone imported them, so it is
// offered only where the range has some. The same holds for any platform the deployment does not
// ask: offering a platform that cannot have an answer would only lead to an empty page.

/** Said wherever the console names the platforms it asks. */
export const COPILOT_NOTE =
  'Copilot is never asked: Microsoft offers no public API that answers as Copilot does. Copilot answers appear only where they were imported (pnpm ops answers import), and only then can you filter by it.';

/**
 * The filter's platforms, in the service's order: those this deployment asks, those with answers in
 * the range, and the one chosen (a shared link may name it, and the select shows what is applied).
 */
export function filterPlatforms(
  collection: Pick<CollectionStatus, 'platforms'>,
  visibility: Pick<VisibilityOverTime, 'points'>,
  chosen: string,
): string[] {
  const offered = new Set([
    ...collection.platforms.filter((p) => p.configured && p.platform !== 'copilot').map((p) => p.platform),
    ...visibility.points.filter((p) => p.responses > 0).map((p) => p.model),
    ...(chosen ? [chosen] : []),
  ]);
  const rank = (id: string) => (PLATFORM_IDS.includes(id) ? PLATFORM_IDS.indexOf(id) : PLATFORM_IDS.length);
  return [...offered].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
