// UTC days are stored as Postgres `date`; Prisma maps them to a Date at 00:00 UTC.

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** Midnight UTC of the day `instant` falls on. */
export function utcDay(instant: Date): Date {
  return new Date(Math.floor(instant.getTime() / MS_PER_DAY) * MS_PER_DAY);
}

/** yyyy-MM-dd of a UTC day. */
export function formatUtcDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}

/** A real calendar day in yyyy-MM-dd, or null (2026-02-30 is not a day). */
export function parseUtcDay(text: string): Date | null {
  const match = DAY_PATTERN.exec(text);
  if (!match) return null;
  const day = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(day.getTime()) || formatUtcDay(day) !== text ? null : day;
}

export function addUtcDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * MS_PER_DAY);
}
