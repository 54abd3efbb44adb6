import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@vt/db';
import { uniqueSlug } from '@vt/test-support';
import type { OutgoingEmailInput } from './email-schema.ts';

/** A team of its own (emails cascade with it). */
export async function newTeam(db: PrismaClient): Promise<string> {
  const slug = uniqueSlug('mail');
  const team = await db.team.create({ data: { name: `Team ${slug}`, slug } });
  return team.id;
}

/** An email to hand to enqueueEmail, unique by default. */
export function anEmail(teamId: string | null, overrides: Partial<OutgoingEmailInput> = {}): OutgoingEmailInput {
  const key = randomUUID();
  return {
    teamId,
    kind: 'alert',
    to: 'ada@example.com',
    subject: `Visibility fell (${key.slice(0, 8)})`,
    text: 'Your visibility fell 12 points this week.',
    html: '<p>Your visibility fell <strong>12 points</strong> this week.</p>',
    dedupeKey: `alert:${key}`,
    ...overrides,
  };
}
