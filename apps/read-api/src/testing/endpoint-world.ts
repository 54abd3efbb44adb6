import type { PrismaClient } from '@vt/db';
import { seedReadWorld } from './read-world.ts';

// The world the /v1 endpoint tests read: the read world seeded around a fixed clock, plus a few
// rows the read world lacks (answers outside its 40 days, tasks on every property). Each test file
// seeds its own copy; seedReadWorld names its teams uniquely and every key reads its own team only,
// so files seeding at once never see each other's rows.

export const NOW = new Date('2026-03-15T12:00:00.000Z');
export const DEFAULT_RANGE_DAYS = 30;

/** yyyy-MM-dd of the UTC day `back` days before the UTC day of `instant` (independent of @vt/db). */
export function dayBefore(instant: Date, back: number): string {
  const utc = Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate() - back);
  return new Date(utc).toISOString().slice(0, 10);
}
export const day = (back: number) => dayBefore(NOW, back);
export const TODAY = day(0);
export const RANDOM_UUID = '6f1c2b4e-9d3a-4c5b-8e7f-0a1b2c3d4e5f';

/** Midnight UTC of the fixture's today, in ms: the world's timestamps are laid out from it. */
const DAY0_MS = Date.parse(`${TODAY}T00:00:00.000Z`);
export const hoursBefore = (hours: number) => new Date(DAY0_MS - hours * 3_600_000);

export type PropKey = 'growth' | 'starter' | 'free' | 'lapsed' | 'other';
export const PROP_KEYS: PropKey[] = ['growth', 'starter', 'free', 'lapsed', 'other'];
export type KeyName = 'all' | 'write' | 'scoped' | 'empty' | 'teamB';
/** What each key may read: active paid properties of its team, within its scope. */
export const SCOPES: Record<KeyName, PropKey[]> = {
  all: ['growth', 'starter'],
  write: ['growth', 'starter'],
  scoped: ['starter'],
  empty: [],
  teamB: ['other'],
};

/** Extra answers on growth, 45 and 46 days back (outside every other range the tests use). */
export const LONG_BACK = 45;
export const STALE_BACK = 46;
export const EXTRA_MODEL = 'claude';
export const LONG_TEXT = `# Long answer\n\n${'**Growth** is described at length here. '.repeat(30)}\n\n- a list item\n- another`;
export const LONG_EXCERPT = 'x'.repeat(300);

export const LIST_PATHS = [
  '/v1/responses',
  '/v1/tasks',
  '/v1/properties',
  '/v1/prompts',
  '/v1/visibility',
  '/v1/competitors',
  '/v1/sources',
  '/v1/sources/urls',
] as const;
export type ListPath = (typeof LIST_PATHS)[number];
export const PROPERTY_FILTERED_PATHS = LIST_PATHS.filter((p) => p !== '/v1/properties');

/** Tasks added beside the world's growth tasks. */
export type ExtraTasks = Record<'starter' | 'tieA' | 'tieB' | 'free' | 'lapsed' | 'other', { id: string }>;

export async function seedEndpointWorld(db: PrismaClient) {
  const world = await seedReadWorld(db, NOW);
  const growth = world.properties.growth;

  // Two answers outside the fixture's 40 days: a long markdown one (detail text vs excerpt), and a
  // miss stored with stale mention details.
  await db.response.create({
    data: {
      propertyId: growth.id,
      promptId: growth.promptIds[0],
      model: EXTRA_MODEL,
      day: new Date(`${day(LONG_BACK)}T00:00:00.000Z`),
      mentioned: true,
      matchedTerm: 'growth',
      position: 3,
      sentiment: -0.25,
      excerpt: LONG_EXCERPT,
      text: LONG_TEXT,
    },
  });
  await db.response.create({
    data: {
      propertyId: growth.id,
      promptId: growth.promptIds[0],
      model: EXTRA_MODEL,
      day: new Date(`${day(STALE_BACK)}T00:00:00.000Z`),
      mentioned: false,
      matchedTerm: 'growth',
      position: 7,
      sentiment: 0.9,
      excerpt: 'Nothing about the brand.',
      text: 'Nothing about the brand.',
    },
  });

  // Tasks on the other properties: one readable (starter), three that must never be read by team A.
  const task = (propertyId: string, title: string, hours: number, extra: Record<string, unknown> = {}) =>
    db.task.create({ data: { propertyId, title, createdAt: hoursBefore(hours), ...extra } });
  const extraTasks: ExtraTasks = {
    starter: await task(world.properties.starter.id, 'Starter backlog task', 1.5, {
      description: 'Starter work.',
      priority: 'urgent',
    }),
    // Two created at the same instant: the order between them is by id, stable across pages.
    tieA: await task(world.properties.starter.id, 'Tie A', 6, { status: 'canceled', priority: 'medium' }),
    tieB: await task(world.properties.starter.id, 'Tie B', 6, { status: 'todo' }),
    free: await task(world.properties.free.id, 'Free task', 0.5, { status: 'todo' }),
    lapsed: await task(world.properties.lapsed.id, 'Lapsed task', 0.25, { status: 'todo' }),
    other: await task(world.properties.other.id, 'Team B task', 0.75, { status: 'todo' }),
  };
  return { world, extraTasks };
}
