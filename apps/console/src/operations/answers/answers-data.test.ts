import { importAnswers } from '@vt/answers';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp } from '../../testing/index.ts';

// The /v1 data of one property for the dashboard: visibility over time, responses with their
// verdicts, competitors' share of voice and tasks, read by any member of the property's team from
// the answers the verdict engine judged on import (the same path as collection). Another team's
// property is a 404 and the range rules are the activity view's.

const TODAY = new Date('2026-05-10T12:00:00Z');
const h = createConsoleHarness({ now: TODAY, sessionTtlMs: 7 * 86_400_000 });
afterAll(() => h.close());

async function judgedProperty() {
  const owner = await h.signUp('owner');
  const member = await h.signUp('member');
  const { teamId } = await h.teamOf(owner, [{ person: member, role: 'member' }]);
  const as = (person: SignedUp) => h.as(person.token, teamId);
  const created = await as(owner).post('/api/properties', {
    name: 'Acme',
    domain: 'acme.example',
    plan: 'growth',
    brandTerms: ['Acme'],
  });
  const id = created.body.property.id as string;
  await as(owner).post(`/api/properties/${id}/competitors`, { name: 'Globex', domain: 'globex.example' });
  const line = (date: string, model: string, answer: string, citations: string[] = []) =>
    JSON.stringify({ propertyId: id, prompt: 'best crm for startups', model, date, answer, citations });
  const result = await importAnswers(
    h.db,
    [
      line('2026-05-08', 'chatgpt', 'Globex is popular. Acme is excellent and loved by startups.', [
        'https://www.g2.com/crm',
      ]),
      line('2026-05-08', 'claude', 'Globex and Initech are common choices.'),
      line('2026-05-09', 'chatgpt', 'Acme leads the market.'),
      line('2026-05-09', 'claude', 'Acme is fine; Globex too.'),
    ],
    { now: TODAY },
  );
  expect(result.rejected).toEqual([]);
  return { owner, member, as, id };
}

describe("a property's answers in the console", () => {
  it('shows visibility per day and platform from the judged answers, newest day first', async () => {
    const t = await judgedProperty();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/visibility?from=2026-05-01&to=2026-05-10`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ propertyId: t.id, from: '2026-05-01', to: '2026-05-10' });
    const points = res.body.points.map((p: Record<string, unknown>) => [p.date, p.model, p.responses, p.mentions]);
    expect(points).toEqual([
      ['2026-05-09', 'chatgpt', 1, 1],
      ['2026-05-09', 'claude', 1, 1],
      ['2026-05-08', 'chatgpt', 1, 1],
      ['2026-05-08', 'claude', 1, 0],
    ]);
    const claude = await t.as(t.member).get(`/api/properties/${t.id}/visibility?from=2026-05-01&model=claude`);
    expect(claude.body.points.map((p: { model: string }) => p.model)).toEqual(['claude', 'claude']);
  });

  it('lists responses with their verdicts, filtered and paged as /v1/responses', async () => {
    const t = await judgedProperty();
    const all = await t.as(t.member).get(`/api/properties/${t.id}/responses?from=2026-05-01&limit=2`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, limit: 2, offset: 0 });
    expect(all.body.data).toHaveLength(2);

    const hit = await t
      .as(t.member)
      .get(`/api/properties/${t.id}/responses?from=2026-05-08&to=2026-05-08&model=chatgpt`);
    expect(hit.body.total).toBe(1);
    const [row] = hit.body.data;
    expect(row).toMatchObject({ mentioned: true, matchedTerm: 'Acme', model: 'chatgpt', date: '2026-05-08' });
    expect(row.position).toBe('Globex is popular. '.length);
    expect(row.sentiment).toBeGreaterThan(0);
    expect(row.excerpt).toContain('Acme is excellent');
    expect(row.sourceUrls).toEqual(['https://www.g2.com/crm']);

    const misses = await t.as(t.member).get(`/api/properties/${t.id}/responses?from=2026-05-01&mentioned=false`);
    expect(misses.body.data.map((r: { model: string; date: string }) => [r.model, r.date])).toEqual([
      ['claude', '2026-05-08'],
    ]);
  });

  it("shows each competitor's share of voice beside the brand's", async () => {
    const t = await judgedProperty();
    const res = await t.as(t.member).get(`/api/properties/${t.id}/share-of-voice?from=2026-05-01`);
    expect(res.status).toBe(200);
    // Globex is named in 3 answers, Acme in 3: each has half of the voice (Initech is not tracked).
    expect(res.body.competitors).toEqual([
      expect.objectContaining({
        name: 'Globex',
        mentions: 3,
        shareOfVoice: 0.5,
        brand: { mentions: 3, shareOfVoice: 0.5 },
      }),
    ]);
  });

  it("lists the property's tasks, filtered by status", async () => {
    const t = await judgedProperty();
    await h.db.task.createMany({
      data: [
        { propertyId: t.id, title: 'Publish a comparison page', status: 'todo', priority: 'high' },
        { propertyId: t.id, title: 'Answer the G2 reviews', status: 'done' },
      ],
    });
    const all = await t.as(t.member).get(`/api/properties/${t.id}/tasks`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    const todo = await t.as(t.member).get(`/api/properties/${t.id}/tasks?status=todo`);
    expect(todo.body.data.map((task: { title: string }) => task.title)).toEqual(['Publish a comparison page']);
    const bad = await t.as(t.member).get(`/api/properties/${t.id}/tasks?status=later`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAM');
  });

  it("is a 404 for another team's property and refuses a reversed or too long range", async () => {
    const t = await judgedProperty();
    const stranger = await h.signUp('stranger');
    const { teamId } = await h.teamOf(stranger);
    for (const view of ['visibility', 'responses', 'share-of-voice', 'tasks']) {
      const res = await h.as(stranger.token, teamId).get(`/api/properties/${t.id}/${view}`);
      expect(res.status, view).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const reversed = await t.as(t.member).get(`/api/properties/${t.id}/visibility?from=2026-05-09&to=2026-05-01`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.code).toBe('INVALID_PARAM');
    const long = await t.as(t.member).get(`/api/properties/${t.id}/responses?from=2024-01-01&to=2026-05-01`);
    expect(long.status).toBe(400);
  });

  it('pages responses and tasks with starting_after / ending_before as /v1 does (issue 31), and refuses a tampered cursor', async () => {
    const t = await judgedProperty();
    const path = `/api/properties/${t.id}/responses?from=2026-05-01`;
    const whole = await t.as(t.member).get(`${path}&limit=100`);
    expect(whole.body.total).toBe(4);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.as(t.member).get(`${path}&limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(4);
      ids.push(...res.body.data.map((row: { id: string }) => row.id));
      cursor = res.body.has_more ? res.body.next_cursor : null;
    } while (cursor);
    expect(ids).toEqual(whole.body.data.map((row: { id: string }) => row.id));
    const back = await t.as(t.member).get(`${path}&limit=3&ending_before=${whole.body.data[3].id}`);
    expect(back.status).toBe(400);
    expect(back.body.error.code).toBe('INVALID_PARAM');
    const both = await t.as(t.member).get(`${path}&offset=1&starting_after=${whole.body.next_cursor ?? 'x'}`);
    expect(both.status).toBe(400);
    const tasks = await t.as(t.member).get(`/api/properties/${t.id}/tasks?limit=1`);
    expect(tasks.status).toBe(200);
    expect(tasks.body).toMatchObject({ has_more: false, next_cursor: null, prev_cursor: null });
  });
});
