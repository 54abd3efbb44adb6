import { createHash } from 'node:crypto';

// The daily run does not send a day's questions at once: each prompt is asked at an instant of its
// own within the collection window, the same every day (a hash of its id), so a platform sees a
// steady trickle instead of a burst that meets its rate limit, and a prompt's answers stay a day
// apart. Every platform asks a prompt at the same instant, so their answers compare like for like.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Where in a window a prompt is asked: a fraction in [0, 1) fixed by its id. */
export function spreadFraction(promptId: string): number {
  return createHash('sha256').update(promptId).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The instant `promptId` is asked on `day` (yyyy-MM-dd): in the window of `spreadHours` from
 * `collectAtUtc` (HH:MM), cut at the end of the UTC day so a day's questions are that day's.
 */
export function spreadInstant(promptId: string, day: string, collectAtUtc: string, spreadHours: number): Date {
  const [hours = 0, minutes = 0] = collectAtUtc.split(':').map(Number);
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const start = dayStart + hours * HOUR_MS + minutes * 60_000;
  const end = Math.min(start + spreadHours * HOUR_MS, dayStart + DAY_MS);
  return new Date(start + Math.floor(spreadFraction(promptId) * Math.max(0, end - start)));
}

/** How long to hold a question before it is asked: until its instant, or none once that has passed (a late run). */
export const spreadDelayMs = (
  promptId: string,
  day: string,
  collectAtUtc: string,
  spreadHours: number,
  now: Date,
): number => Math.max(0, spreadInstant(promptId, day, collectAtUtc, spreadHours).getTime() - now.getTime());
