// Which week a weekly report covers and when it is due, in the team's time zone: pure, so each
// rule is tested on instants.

const DAY_MS = 86_400_000;
/** The hour of Monday, team time, from which the week before's report is due. */
export const REPORT_SEND_HOUR = 8;

export interface ReportWeek {
  /** The ISO week the report covers, `2026-W47`: with the person and property, its dedupe key. */
  week: string;
  /** Its Monday and Sunday, as the UTC days the counts are kept in. */
  from: Date;
  to: Date;
  /** When it is due: Monday 08:00 team time of the week after, and never before that Monday's UTC day begins. */
  dueAt: Date;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall clock of `instant` in the zone, read back as if it were UTC (its offset added). */
function wallClockAsUtc(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The instant a zone's wall clock reads `wall` (given as UTC): twice round the offset, for DST. */
function instantOfWallClock(wall: number, timeZone: string): number {
  const first = wall - (wallClockAsUtc(wall, timeZone) - wall);
  return wall - (wallClockAsUtc(first, timeZone) - first);
}

/** `2026-W47`: the ISO 8601 week of a UTC day (the week of its Thursday decides the year). */
export function isoWeekOf(day: Date): string {
  const weekday = (day.getUTCDay() + 6) % 7;
  const thursday = new Date(day.getTime() + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * The report of the team's current ISO week: the one sent this week, which covers the week before
 * (Monday to Sunday, the last complete one). Its due time is Monday 08:00 team time, when people
 * start the week; but the counts are kept in UTC days, so east of UTC+8 it waits for Sunday's UTC
 * day to end, rather than report a Sunday still being counted.
 */
export function reportWeekAt(now: Date, timeZone: string): ReportWeek {
  const wall = wallClockAsUtc(now.getTime(), timeZone);
  const today = wall - (wall % DAY_MS);
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const from = new Date(monday - 7 * DAY_MS);
  const sendAt = instantOfWallClock(monday + REPORT_SEND_HOUR * 3_600_000, timeZone);
  return {
    week: isoWeekOf(from),
    from,
    to: new Date(monday - DAY_MS),
    dueAt: new Date(Math.max(sendAt, monday)),
  };
}
