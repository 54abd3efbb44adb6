import { randomUUID } from 'node:crypto';
import { encodeCursor } from '@vt/contracts';
import type { Response } from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../testing/index.ts';

// Cursor paging of every console list (issue 31 item 1), one table for the families: pages
// followed forwards (by the Link header's rel="next") put together are the whole list, followed
// backwards (by prev_cursor) the whole list reversed; limit=1 is one row with has_more; a row
// inserted before the cursor between two pages leaves the next page as it was (an offset would
// shift it); a tampered cursor is the console's 400 INVALID_PARAM. Each family's rows are seeded
// with ties in its sort key, so pages end between rows that only the id tells apart; the keys'
// list pages across its NULL revokedAt (live keys first).

const h = createConsoleHarness();
afterAll(() => h.close());

/** The same instant for several rows: ties that only the id (or the next column) breaks. */
const TIED = new Date('2026-11-20T10:00:00.000Z');
const minutes = (n: number) => new Date(TIED.getTime() + n * 60_000);

interface Seeded {
  teamId: string;
  owner: SignedUp;
  propertyId: string;
  webhookId: string;
}

async function seededTeam(): Promise<Seeded> {
  const owner = await h.signUp('owner');
  const { teamId } = await h.teamOf(owner);
  const property = await h.db.property.create({
    data: { teamId, name: 'Shop', domain: 'shop.example', plan: 'growth', brandTerms: ['Shop'] },
  });
  const webhook = await h.db.webhookDestination.create({
    data: { propertyId: property.id, format: 'slack', url: 'https://hooks.example.test/services/a', createdAt: TIED },
  });
  return { teamId, owner, propertyId: property.id, webhookId: webhook.id };
}

interface ListFamily {
  name: string;
  path: (t: Seeded) => string;
  /** The answer's field holding the rows. */
  field: string;
  rowId: (row: Record<string, unknown>) => string;
  /** Rows enough for several pages of 2, with ties in the sort key. */
  seed: (t: Seeded) => Promise<void>;
  /** One more row that sorts first in the list. */
  insertFirst: (t: Seeded) => Promise<void>;
}

const apiKey = (t: Seeded, data: { name: string; createdAt: Date; revokedAt?: Date }) =>
  h.db.apiKey.create({ data: { teamId: t.teamId, keyHash: randomUUID(), prefix: 'vt_live_x', ...data } });

const person = async (t: Seeded, name: string, role: 'owner' | 'admin' | 'member') => {
  const user = await h.db.user.create({ data: { email: `${randomUUID()}@example.test`, name } });
  await h.db.membership.create({ data: { teamId: t.teamId, userId: user.id, role } });
};

const invitation = (t: Seeded, createdAt: Date) =>
  h.db.teamInvitation.create({
    data: {
      teamId: t.teamId,
      email: `${randomUUID()}@example.test`,
      role: 'member',
      tokenHash: randomUUID(),
      createdAt,
      lastSentAt: createdAt,
      expiresAt: new Date('2099-01-01T00:00:00Z'),
    },
  });

const property = (t: Seeded, name: string) =>
  h.db.property.create({
    data: { teamId: t.teamId, name, domain: `${randomUUID()}.example`, plan: 'free', brandTerms: [name] },
  });

const email = (t: Seeded, createdAt: Date) =>
  h.db.outgoingEmail.create({
    data: {
      teamId: t.teamId,
      kind: 'test',
      recipient: t.owner.email,
      subject: 'test',
      textBody: 'test',
      dedupeKey: `test:${randomUUID()}`,
      createdAt,
    },
  });

const webhook = (t: Seeded, createdAt: Date) =>
  h.db.webhookDestination.create({
    data: { propertyId: t.propertyId, format: 'slack', url: `https://hooks.example.test/${randomUUID()}`, createdAt },
  });

/** A delivery of the seeded webhook with attempts made at the given instants (attempt 1, 2, …). */
async function attempts(t: Seeded, at: Date[]) {
  const delivery = await h.db.webhookDelivery.create({
    data: { destinationId: t.webhookId, eventId: randomUUID(), eventType: 'alert.test', notification: {} },
  });
  for (const [i, attemptedAt] of at.entries()) {
    await h.db.webhookDeliveryAttempt.create({
      data: {
        deliveryId: delivery.id,
        destinationId: t.webhookId,
        attempt: i + 1,
        attemptedAt,
        durationMs: 5,
        statusCode: 500,
        outcome: 'retrying',
      },
    });
  }
}

const FAMILIES: ListFamily[] = [
  {
    name: 'API keys (revokedAt NULL first, then newest)',
    path: () => '/api/keys',
    field: 'keys',
    rowId: (row) => row.id as string,
    seed: async (t) => {
      for (let i = 0; i < 3; i++) await apiKey(t, { name: `live ${i}`, createdAt: TIED });
      for (let i = 0; i < 4; i++) await apiKey(t, { name: `revoked ${i}`, createdAt: TIED, revokedAt: minutes(5) });
      await apiKey(t, { name: 'revoked early', createdAt: minutes(-5), revokedAt: minutes(1) });
    },
    insertFirst: async (t) => {
      await apiKey(t, { name: 'newest live', createdAt: minutes(60) });
    },
  },
  {
    name: 'team members (role, then name ignoring case)',
    path: () => '/api/team/members',
    field: 'members',
    rowId: (row) => row.userId as string,
    seed: async (t) => {
      for (const name of ['bob', 'Bob', 'carol']) await person(t, name, 'admin');
      for (const name of ['dave', 'Dave', 'dave', 'erin']) await person(t, name, 'member');
    },
    insertFirst: (t) => person(t, 'Aaron', 'owner'),
  },
  {
    name: 'invitations (newest first)',
    path: () => '/api/team/invitations',
    field: 'invitations',
    rowId: (row) => row.id as string,
    seed: async (t) => {
      for (let i = 0; i < 5; i++) await invitation(t, TIED);
      for (let i = 0; i < 2; i++) await invitation(t, minutes(-i - 1));
    },
    insertFirst: async (t) => {
      await invitation(t, minutes(60));
    },
  },
  {
    name: 'properties (by name)',
    path: () => '/api/properties',
    field: 'properties',
    rowId: (row) => row.id as string,
    seed: async (t) => {
      for (const name of ['Shop', 'Shop', 'Beta', 'Zed', 'Beta', 'Mid']) await property(t, name);
    },
    insertFirst: async (t) => {
      await property(t, 'AAA');
    },
  },
  {
    name: 'team emails (newest first)',
    path: () => '/api/team/emails',
    field: 'emails',
    rowId: (row) => row.id as string,
    seed: async (t) => {
      for (let i = 0; i < 5; i++) await email(t, TIED);
      for (let i = 0; i < 2; i++) await email(t, minutes(-i - 1));
    },
    insertFirst: async (t) => {
      await email(t, minutes(60));
    },
  },
  {
    name: 'alert webhooks (oldest first)',
    path: (t) => `/api/properties/${t.propertyId}/alert-webhooks`,
    field: 'webhooks',
    rowId: (row) => row.id as string,
    seed: async (t) => {
      for (let i = 0; i < 4; i++) await webhook(t, TIED);
      await webhook(t, minutes(3));
    },
    insertFirst: async (t) => {
      await webhook(t, minutes(-60));
    },
  },
  {
    name: 'an alert webhook’s delivery log (attempts, newest first)',
    path: (t) => `/api/properties/${t.propertyId}/alert-webhooks/${t.webhookId}/log`,
    field: 'attempts',
    rowId: (row) => `${row.deliveryId}#${row.attempt}`,
    seed: async (t) => {
      await attempts(t, [TIED, TIED, TIED]);
      await attempts(t, [TIED, TIED]);
      await attempts(t, [minutes(-1), minutes(2)]);
    },
    insertFirst: (t) => attempts(t, [minutes(60)]),
  },
];

/** The `rel` targets of a Link header: `{ next: '/api/…?starting_after=…' }`. */
function linksOf(res: Response): Record<string, string> {
  const header = res.headers.link as string | undefined;
  const links: Record<string, string> = {};
  for (const part of header?.split(', ') ?? []) {
    const match = /^<([^>]+)>; rel="(next|prev)"$/.exec(part);
    if (match) links[match[2] as string] = match[1] as string;
  }
  return links;
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

describe.each(FAMILIES)('console list paging: $name', (family) => {
  async function setup() {
    const t = await seededTeam();
    await family.seed(t);
    const get = (path: string) => h.as(t.owner.token, t.teamId).get(path);
    const ids = (res: Response) => (res.body[family.field] as Record<string, unknown>[]).map(family.rowId);
    const whole = await get(withQuery(family.path(t), 'limit=100'));
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ has_more: false, next_cursor: null, prev_cursor: null });
    expect(whole.headers.link).toBeUndefined();
    return { t, get, ids, all: ids(whole) };
  }

  it('[issue 31] pages followed forwards by Link rel="next" are the whole list; backwards by prev_cursor, the list reversed', async () => {
    const { t, get, ids, all } = await setup();
    expect(all.length).toBeGreaterThanOrEqual(6);

    const forwards: string[] = [];
    let res = await get(withQuery(family.path(t), 'limit=2'));
    expect(res.body.prev_cursor).toBeNull();
    expect(linksOf(res).prev).toBeUndefined();
    for (;;) {
      expect(res.status).toBe(200);
      forwards.push(...ids(res));
      const next = linksOf(res).next;
      if (!next) break;
      expect(res.body.has_more).toBe(true);
      expect(next).toContain(`starting_after=${res.body.next_cursor}`);
      res = await get(next);
    }
    expect(res.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(forwards).toEqual(all);

    // From the last page back to the first: each page is in the list's order, the pages come last first.
    const backwards: string[] = [...ids(res)].reverse();
    while (res.body.prev_cursor) {
      expect(linksOf(res).prev).toContain(`ending_before=${res.body.prev_cursor}`);
      res = await get(withQuery(family.path(t), `limit=2&ending_before=${res.body.prev_cursor}`));
      expect(res.status).toBe(200);
      backwards.push(...[...ids(res)].reverse());
    }
    expect(backwards).toEqual([...all].reverse());
  });

  it('[issue 31] limit=1 answers one row, has_more and a next cursor', async () => {
    const { t, get, ids, all } = await setup();
    const res = await get(withQuery(family.path(t), 'limit=1'));
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([all[0]]);
    expect(res.body).toMatchObject({ has_more: true, prev_cursor: null, next_cursor: expect.any(String) });
  });

  it('[issue 31] a row inserted before the cursor between two pages leaves the next page as it was', async () => {
    const { t, get, ids, all } = await setup();
    const first = await get(withQuery(family.path(t), 'limit=2'));
    await family.insertFirst(t);
    const second = await get(withQuery(family.path(t), `limit=2&starting_after=${first.body.next_cursor}`));
    expect(ids(second)).toEqual(all.slice(2, 4));
    // The row is there, first, for whoever starts again.
    const again = await get(withQuery(family.path(t), 'limit=2'));
    expect(ids(again)[1]).toBe(all[0]);
  });

  it('[issue 31] a tampered cursor, or both cursors at once, is 400 INVALID_PARAM in the console envelope', async () => {
    const { t, get } = await setup();
    const first = await get(withQuery(family.path(t), 'limit=2'));
    const cursor: string = first.body.next_cursor;
    const tampered = [
      `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}x`,
      encodeCursor(['2026-11-20T10:00:00.000Z']),
      encodeCursor([1, 'x', 'not-a-uuid']),
      'not base64!',
    ];
    for (const bad of tampered) {
      const res = await get(withQuery(family.path(t), `starting_after=${encodeURIComponent(bad)}`));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_PARAM', message: expect.any(String) });
      expect(res.body.error.message).toContain('starting_after');
      expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.ts:\d+/);
    }
    const both = await get(withQuery(family.path(t), `starting_after=${cursor}&ending_before=${cursor}`));
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('INVALID_PARAM');
    const tooMany = await get(withQuery(family.path(t), 'limit=101'));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('INVALID_PARAM');
  });
});
