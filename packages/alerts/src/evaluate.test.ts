import type { PrismaClient } from '@vt/db';
import { testDb, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { updateAlertRules } from './alert-rules.ts';
import { type AlertEvaluationDeps, evaluateProperty } from './evaluate.ts';
import {
  enableRules,
  logCrawlAttempt,
  logRefusedLead,
  seedAlertTeam,
  seedAnswers,
  seedCrawlerHits,
} from './testing/seed.ts';

// Each kind of rule against rows seeded in the run's real Postgres as the service writes them: it
// fires on its condition (once the condition is seen at two evaluations `holdMs` apart), stays
// quiet below its threshold, and what it records (the message, its emails to the right people,
// its webhook deliveries) is recorded once. The clock is the `now` each evaluation is given.

const db: PrismaClient = testDb();
const HOLD_MS = 60_000;
const deps: AlertEvaluationDeps = { db, consoleUrl: 'https://console.example.test', holdMs: HOLD_MS };
const NOW = new Date('2026-03-10T12:00:00.000Z');
const later = (ms: number, from = NOW) => new Date(from.getTime() + ms);
const HOUR = 3_600_000;

/** A team, its property, a Slack webhook on it (never posted here: no worker runs), and the rules. */
async function setup(rules: Parameters<typeof enableRules>[2]) {
  const team = await seedAlertTeam(db, uniqueSlug('alerts'));
  await db.webhookDestination.create({
    data: { propertyId: team.propertyId, format: 'slack', url: 'https://hooks.example.test/services/T/B/X' },
  });
  await enableRules(db, team.propertyId, rules);
  return team;
}

/** Evaluates at `now` and again `holdMs` later: what a condition needs to change a rule's status. */
async function evaluateTwice(propertyId: string, now = NOW) {
  const first = await evaluateProperty(deps, propertyId, now);
  const second = await evaluateProperty(deps, propertyId, later(HOLD_MS, now));
  return [...first, ...second];
}

const emailsOf = (teamId: string) =>
  db.outgoingEmail.findMany({ where: { teamId }, orderBy: [{ createdAt: 'asc' }, { recipient: 'asc' }] });
const deliveriesOf = (propertyId: string) =>
  db.webhookDelivery.findMany({ where: { destination: { propertyId } }, orderBy: { createdAt: 'asc' } });

describe('each kind fires on its condition and stays quiet below it', () => {
  it('crawl_nothing_arriving: the last batch 30 hours ago fires; one 2 hours ago does not', async () => {
    const quiet = await setup([{ kind: 'crawl_nothing_arriving' }]);
    await logCrawlAttempt(db, quiet.propertyId, later(-2 * HOUR), 202);
    expect(await evaluateTwice(quiet.propertyId)).toEqual([]);

    const t = await setup([{ kind: 'crawl_nothing_arriving' }]);
    await logCrawlAttempt(db, t.propertyId, later(-30 * HOUR), 202);
    // Seen once: not yet (no storms); seen again a hold later: it fires.
    expect(await evaluateProperty(deps, t.propertyId, NOW)).toEqual([]);
    const sent = await evaluateProperty(deps, t.propertyId, later(HOLD_MS));
    expect(sent).toEqual([
      expect.objectContaining({ kind: 'crawl_nothing_arriving', type: 'alert.firing', emails: 2, webhooks: 1 }),
    ]);
    const emails = await emailsOf(t.teamId);
    // The owner and the admin (the default recipients), not the member.
    expect(emails.map((e) => e.recipient).sort()).toEqual([t.admin.email, t.owner.email].sort());
    const [email] = emails;
    expect(email?.kind).toBe('alert');
    expect(email?.subject).toMatch(/^Shop alerts-[0-9a-f]+: No crawl data has arrived for 24 hours$/);
    expect(email?.textBody).toContain('Since 2026-03-10 12:00 UTC');
    expect(email?.textBody).toContain(`https://console.example.test/t/${t.teamId}/p/${t.propertyId}/crawl`);
    expect(email?.htmlBody).toContain('Look at it in the console');
    const [delivery] = await deliveriesOf(t.propertyId);
    expect(delivery).toMatchObject({ eventType: 'alert.firing', status: 'pending' });
    expect((delivery?.notification as { text: string } | undefined)?.text).toMatch(
      /^No crawl data has arrived for 24 hours: Shop/,
    );
  });

  it('crawl_rejecting: every batch of the last day refused fires; one accepted among them does not', async () => {
    const quiet = await setup([{ kind: 'crawl_rejecting' }]);
    await logCrawlAttempt(db, quiet.propertyId, later(-3 * HOUR), 202);
    await logCrawlAttempt(db, quiet.propertyId, later(-1 * HOUR), 401);
    expect(await evaluateTwice(quiet.propertyId)).toEqual([]);

    const t = await setup([{ kind: 'crawl_rejecting' }]);
    await logCrawlAttempt(db, t.propertyId, later(-3 * HOUR), 401);
    await logCrawlAttempt(db, t.propertyId, later(-1 * HOUR), 401);
    expect(await evaluateTwice(t.propertyId)).toEqual([
      expect.objectContaining({ kind: 'crawl_rejecting', type: 'alert.firing' }),
    ]);
  });

  it('webhook_rejecting: a refused lead fires; a webhook never used does not', async () => {
    const quiet = await setup([{ kind: 'webhook_rejecting' }]);
    expect(await evaluateTwice(quiet.propertyId)).toEqual([]);

    const t = await setup([{ kind: 'webhook_rejecting' }]);
    await logRefusedLead(db, t.propertyId, later(-1 * HOUR));
    expect(await evaluateTwice(t.propertyId)).toEqual([
      expect.objectContaining({ kind: 'webhook_rejecting', type: 'alert.firing' }),
    ]);
    const [email] = await emailsOf(t.teamId);
    expect(email?.textBody).toContain('Lead webhook: Rejecting events.');
  });

  it('crawler_hits_drop: 140 → 35 fires at 50 %; 140 → 105 does not; 35 → 7 is under the volume floor', async () => {
    const cases = [
      { before: 20, last: 5, fires: true },
      { before: 20, last: 15, fires: false },
      { before: 5, last: 1, fires: false },
    ];
    for (const c of cases) {
      const t = await setup([{ kind: 'crawler_hits_drop', threshold: 50 }]);
      await seedCrawlerHits(db, t.propertyId, NOW, { fromDaysAgo: 14, toDaysAgo: 8, perDay: c.before });
      await seedCrawlerHits(db, t.propertyId, NOW, { fromDaysAgo: 7, toDaysAgo: 1, perDay: c.last });
      // Today's hits are no part of either week.
      await seedCrawlerHits(db, t.propertyId, NOW, { fromDaysAgo: 0, toDaysAgo: 0, perDay: 1000 });
      const sent = await evaluateTwice(t.propertyId);
      expect(sent.length, JSON.stringify(c)).toBe(c.fires ? 1 : 0);
      if (c.fires) {
        const [email] = await emailsOf(t.teamId);
        expect(email?.subject).toContain('AI crawler hits down 75% week over week');
        expect(email?.textBody).toContain('AI crawler hits: 35 in the last 7 days (2026-03-03 to 2026-03-09)');
        expect(email?.textBody).toContain('against the 7 before (2026-02-24 to 2026-03-02): 140');
      }
    }
  });

  it('visibility_drop: 100 % → 50 % fires at 10 points; not at 60', async () => {
    for (const threshold of [10, 60]) {
      const t = await setup([{ kind: 'visibility_drop', threshold }]);
      await seedAnswers(db, t.propertyId, NOW, { fromDaysAgo: 14, toDaysAgo: 8 }, { answers: 2, mentioned: 2 });
      await seedAnswers(db, t.propertyId, NOW, { fromDaysAgo: 7, toDaysAgo: 1 }, { answers: 2, mentioned: 1 });
      const sent = await evaluateTwice(t.propertyId);
      // 100 % of 14 answers, then 50 % of 14: down 50 points.
      expect(sent.map((s) => s.kind)).toEqual(threshold === 10 ? ['visibility_drop'] : []);
      if (threshold === 10) {
        const [email] = await emailsOf(t.teamId);
        expect(email?.subject).toContain('Visibility down 50 points week over week');
        expect(email?.textBody).toContain('50% of 14 answers');
      }
    }
  });

  it('share_of_voice_drop: 100 % → 33.3 % fires at 10 points; not at 70', async () => {
    for (const threshold of [10, 70]) {
      const t = await setup([{ kind: 'share_of_voice_drop', threshold }]);
      await seedAnswers(db, t.propertyId, NOW, { fromDaysAgo: 14, toDaysAgo: 8 }, { answers: 2, mentioned: 2 });
      await seedAnswers(
        db,
        t.propertyId,
        NOW,
        { fromDaysAgo: 7, toDaysAgo: 1 },
        { answers: 2, mentioned: 1, competitor: 'Rival', competitorNamed: 2 },
      );
      // Rival was named last week too (from 3 to 1 days ago): not a new competitor, and this rule is about share.
      const sent = await evaluateTwice(t.propertyId);
      expect(sent.map((s) => s.kind)).toEqual(threshold === 10 ? ['share_of_voice_drop'] : []);
    }
  });

  it('new_competitor: a name first seen today sends one message; one named 10 days ago too sends none', async () => {
    const t = await setup([{ kind: 'new_competitor' }]);
    await seedAnswers(
      db,
      t.propertyId,
      NOW,
      { fromDaysAgo: 0, toDaysAgo: 0 },
      { answers: 2, mentioned: 1, competitor: 'Newcomer', competitorNamed: 2 },
    );
    await seedAnswers(
      db,
      t.propertyId,
      NOW,
      { fromDaysAgo: 10, toDaysAgo: 10 },
      { answers: 1, mentioned: 1, competitor: 'Oldtimer', competitorNamed: 1 },
    );
    await seedAnswers(
      db,
      t.propertyId,
      NOW,
      { fromDaysAgo: 0, toDaysAgo: 0 },
      { answers: 1, mentioned: 1, competitor: 'Oldtimer', competitorNamed: 0 },
    );
    const first = await evaluateProperty(deps, t.propertyId, NOW);
    expect(first).toEqual([expect.objectContaining({ kind: 'new_competitor', type: 'alert.firing', emails: 2 })]);
    // An event: no second message however often it is evaluated, tomorrow included.
    expect(await evaluateProperty(deps, t.propertyId, later(HOLD_MS))).toEqual([]);
    expect(await evaluateProperty(deps, t.propertyId, later(20 * HOUR))).toEqual([]);
    const [email] = await emailsOf(t.teamId);
    expect(email?.subject).toContain('New competitor named in AI answers: Newcomer');
    expect(email?.textBody).toContain(
      'Newcomer was named in 2 answers since 2026-03-10, and in none of the 30 days before.',
    );
  });
});

describe('one message per change of state', () => {
  it('firing, held (no second message, one reminder a day), then resolved with how long it lasted', async () => {
    const t = await setup([{ kind: 'crawl_rejecting' }]);
    await logCrawlAttempt(db, t.propertyId, later(-1 * HOUR), 401);
    expect(await evaluateTwice(t.propertyId)).toHaveLength(1);
    // Evaluated again and again while it holds (the batch refused keeps it Rejecting): nothing.
    for (const at of [2, 3, 10].map((m) => later(m * HOLD_MS))) {
      expect(await evaluateProperty(deps, t.propertyId, at)).toEqual([]);
    }
    // Keep it Rejecting for the next day: a refused batch every few hours.
    for (const h of [6, 12, 18, 23, 26]) await logCrawlAttempt(db, t.propertyId, later(h * HOUR), 401);
    const reminder = await evaluateProperty(deps, t.propertyId, later(24 * HOUR + HOLD_MS));
    expect(reminder).toEqual([expect.objectContaining({ type: 'alert.reminder' })]);
    expect(await evaluateProperty(deps, t.propertyId, later(25 * HOUR))).toEqual([]);

    // An accepted batch: Connected again, resolved once seen twice.
    const fixedAt = later(27 * HOUR);
    await logCrawlAttempt(db, t.propertyId, fixedAt, 202);
    const resolved = await evaluateTwice(t.propertyId, fixedAt);
    expect(resolved).toEqual([expect.objectContaining({ type: 'alert.resolved' })]);
    expect(await evaluateProperty(deps, t.propertyId, later(3 * HOLD_MS, fixedAt))).toEqual([]);

    const emails = await emailsOf(t.teamId);
    const subjects = emails.filter((e) => e.recipient === t.owner.email).map((e) => e.subject.replace(/^[^:]+: /, ''));
    expect(subjects).toEqual([
      'Crawl ingest is turning every batch away',
      'Still: crawl ingest is turning every batch away',
      'Resolved: crawl ingest is turning every batch away',
    ]);
    const last = emails.at(-1);
    // Fired at NOW (first seen), resolved when first seen back to normal: 27 hours.
    expect(last?.textBody).toContain('Back to normal since 2026-03-11 15:00 UTC. It lasted 1 day 3 hours.');
    const deliveries = await deliveriesOf(t.propertyId);
    expect(deliveries.map((d) => d.eventType)).toEqual(['alert.firing', 'alert.reminder', 'alert.resolved']);
    const notifications = await db.alertNotification.findMany({ where: { propertyId: t.propertyId } });
    expect(notifications).toHaveLength(3);
  });

  it('a condition that comes and goes within the hold sends nothing', async () => {
    const t = await setup([{ kind: 'crawl_rejecting' }]);
    await logCrawlAttempt(db, t.propertyId, later(-1 * HOUR), 401);
    expect(await evaluateProperty(deps, t.propertyId, NOW)).toEqual([]);
    await logCrawlAttempt(db, t.propertyId, later(HOLD_MS / 4), 202);
    expect(await evaluateProperty(deps, t.propertyId, later(HOLD_MS / 2))).toEqual([]);
    expect(await evaluateProperty(deps, t.propertyId, later(2 * HOLD_MS))).toEqual([]);
    expect(await emailsOf(t.teamId)).toEqual([]);
  });

  it('two evaluations at once (a replayed job beside its original) record the firing once', async () => {
    const t = await setup([{ kind: 'crawl_rejecting' }]);
    await logCrawlAttempt(db, t.propertyId, later(-1 * HOUR), 401);
    await evaluateProperty(deps, t.propertyId, NOW);
    const both = await Promise.all([1, 2, 3].map(() => evaluateProperty(deps, t.propertyId, later(HOLD_MS))));
    expect(both.flat()).toHaveLength(1);
    expect(await emailsOf(t.teamId)).toHaveLength(2);
    expect(await deliveriesOf(t.propertyId)).toHaveLength(1);
  });
});

describe('who hears a rule', () => {
  it('chosen members only, and a member who left stops receiving; no webhook when the rule says so', async () => {
    const t = await setup([]);
    await enableRules(db, t.propertyId, [
      { kind: 'crawl_rejecting', emailUserIds: [t.member.id, t.admin.id], webhooks: false },
    ]);
    await db.membership.deleteMany({ where: { teamId: t.teamId, userId: t.admin.id } });
    await logCrawlAttempt(db, t.propertyId, later(-1 * HOUR), 401);
    expect(await evaluateTwice(t.propertyId)).toEqual([expect.objectContaining({ emails: 1, webhooks: 0 })]);
    expect((await emailsOf(t.teamId)).map((e) => e.recipient)).toEqual([t.member.email]);
    expect(await deliveriesOf(t.propertyId)).toEqual([]);
  });

  it('switching a firing rule off clears its state without a message; on again, it starts over', async () => {
    const t = await setup([{ kind: 'crawl_rejecting' }]);
    await logCrawlAttempt(db, t.propertyId, later(-1 * HOUR), 401);
    expect(await evaluateTwice(t.propertyId)).toHaveLength(1);
    const property = await db.property.findUniqueOrThrow({ where: { id: t.propertyId } });
    await updateAlertRules(db, property, { rules: [{ kind: 'crawl_rejecting', enabled: false }] });
    const rule = await db.alertRule.findFirstOrThrow({ where: { propertyId: t.propertyId } });
    expect(rule).toMatchObject({ enabled: false, status: 'ok', statusSince: null, pendingSince: null, observed: null });
    expect(await evaluateTwice(t.propertyId, later(2 * HOLD_MS))).toEqual([]);
    await updateAlertRules(db, property, { rules: [{ kind: 'crawl_rejecting', enabled: true }] });
    // Still rejecting: a new episode fires (and is keyed apart from the first).
    const again = await evaluateTwice(t.propertyId, later(5 * HOLD_MS));
    expect(again).toEqual([expect.objectContaining({ type: 'alert.firing' })]);
    expect(again[0]?.eventId).toMatch(/:2:firing$/);
    expect(await emailsOf(t.teamId)).toHaveLength(4);
  });
});
