/**
 * The activity page's "Verified" figure. A hit is verified when it came from its operator's
 * published IP ranges, unverified when it claimed a crawler's name from elsewhere, unverifiable
 * when there was nothing to check against. Only verified and unverified hits were checked, so the
 * share is of those; with none checked, a percentage (0 %) would read as a failure: say why instead.
 */
export function verifiedShare(input: { hits: number; verified: number; unverified: number; rangesLoaded: boolean }): {
  value: string;
  detail: string;
} {
  const checked = input.verified + input.unverified;
  if (input.hits === 0) return { value: 'Not checked yet', detail: 'No AI crawler visits so far.' };
  if (checked === 0)
    return input.rangesLoaded
      ? {
          value: 'Not checkable',
          detail: 'These crawlers’ operators publish no IP ranges to check their visits against.',
        }
      : {
          value: 'Not checked yet',
          detail: 'The crawlers’ published IP ranges are not loaded yet, so no visit could be checked.',
        };
  return {
    value: `${Math.round((input.verified / checked) * 100)}%`,
    detail: `of the ${checked.toLocaleString('en')} hits that could be checked came from the crawler’s own IP ranges.`,
  };
}
