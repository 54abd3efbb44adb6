// A verdict in a marketer's words: the brand's rank among the brands an answer names, and the
// sentiment as the API words it (positive from +0.05, negative to −0.05, neutral between).

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** "1st of 3 brands named", or "the only brand named"; null when the brand is not named. */
export function rankText(rank: number | null, brandsNamed: number): string | null {
  if (rank === null) return null;
  return brandsNamed <= 1 ? 'the only brand named' : `${ordinal(rank)} of ${brandsNamed} brands named`;
}

/** How many brands a missed answer names instead. */
export function othersNamed(brandsNamed: number): string {
  return brandsNamed === 0
    ? 'no tracked brand named'
    : `${brandsNamed} competitor${brandsNamed === 1 ? '' : 's'} named`;
}
