import type { Me } from './console-types.ts';

// Times (a delivery attempt, a lead, a page last read) are shown in the team's time zone, set
// under Team settings, and name the zone; without one, in the browser's own. Day totals and
// ranges stay UTC days, as the API counts them.

/** The team's time zone, if it set one. */
export const teamTimeZone = (me: Me | null, teamId: string): string | undefined =>
  me?.teams.find((t) => t.id === teamId)?.settings.timeZone;

/** An ISO time as `26 Nov 2026, 09:15 CET`, in `timeZone` (the browser's when not given). */
export function formatWhen(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '';
  const options: Intl.DateTimeFormatOptions = {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  try {
    return new Date(iso).toLocaleString('en-GB', { ...options, timeZone });
  } catch {
    // A zone this browser does not know: its own zone, still named.
    return new Date(iso).toLocaleString('en-GB', options);
  }
}
