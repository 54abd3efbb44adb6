import { formatWhen } from '../team-time.ts';

// A delivery log's summary rows: attempts that never proved to be the property's sender (a wrong
// crawl token, a webhook refused before its signature verified) are counted into one row per
// reason rather than listed one by one (issue 33), so a stranger who knows a property id cannot
// push the sender's rows out. The row says how many since when, and that they moved no status.

/** What a summary row and a sender's row have in common. */
interface LogRow {
  at: string;
  statusCode: number;
  outcome: string;
  reason: string | null;
  authenticated: boolean;
  attempts: number;
  firstAttemptAt: string | null;
}

/** An ISO time as `14:02 CET` when it is today in `timeZone`, else as formatWhen does. */
export function formatSince(iso: string, timeZone?: string, now = new Date()): string {
  const day = (d: Date) => {
    try {
      return d.toLocaleDateString('en-GB', { timeZone });
    } catch {
      return d.toLocaleDateString('en-GB');
    }
  };
  if (day(new Date(iso)) !== day(now)) return formatWhen(iso, timeZone);
  const options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
  try {
    return new Date(iso).toLocaleTimeString('en-GB', { ...options, timeZone });
  } catch {
    return new Date(iso).toLocaleTimeString('en-GB', options);
  }
}

/** The Answer cell: `401 invalid token × 37 since 14:02 CET` for a summary, `202 accepted …` otherwise. */
export function attemptAnswer(row: LogRow, timeZone?: string): string {
  if (row.authenticated) return `${row.statusCode} ${row.outcome}`;
  const what = (row.reason ?? row.outcome).replaceAll('_', ' ');
  const since = formatSince(row.firstAttemptAt ?? row.at, timeZone);
  return `${row.statusCode} ${what} × ${row.attempts} since ${since}`;
}

/** The note a summary row carries in its Reason cell, before the fix. */
export const SUMMARY_NOTE =
  'Not from your sender: these attempts were counted, not stored, and did not change the status.';

/** The Reason and fix cell of any row. */
export function reasonAndFix(row: LogRow & { fix: string | null }): string {
  if (!row.authenticated) return `${SUMMARY_NOTE} ${row.fix ?? ''}`.trim();
  return row.reason ? `${row.reason}: ${row.fix ?? ''}` : '';
}
