import { checkCredentials, teamView } from '@vt/accounts';
import { AI_PLATFORM_IDS } from '@vt/attribution';
import { opsConfigSchema, parseConfig } from '@vt/config';
import { deriveApiKey, hashApiKey } from '@vt/credentials';
import { addUtcDays, formatUtcDay, type PrismaClient, utcDay } from '@vt/db';
import { testDb, testEnv } from '@vt/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { OpsError } from '../cli/ops-error.ts';
import { DEMO_USERS } from './content.ts';
import { DEMO_DAYS, DEMO_TEAM_SLUG, type DemoSeedResult, demoApiKey, demoPassword, seedDemo } from './seed.ts';

// Only this file seeds the team with slug 'demo', so every assertion is scoped to it while other
// suites write to the same database.

const ctx = () => ({ db: testDb(), config: parseConfig('ops', opsConfigSchema, testEnv) });

/** Rows of every table the seed writes, limited to the demo team. */
async function demoRowCounts(db: PrismaClient, teamId: string) {
  const ofTeam = { property: { teamId } };
  const counts = await Promise.all([
    db.user.count({ where: { email: { in: DEMO_USERS.map((u) => u.email) } } }),
    db.team.count({ where: { slug: DEMO_TEAM_SLUG } }),
    db.membership.count({ where: { teamId } }),
    db.property.count({ where: { teamId } }),
    db.apiKey.count({ where: { teamId } }),
    db.label.count({ where: { teamId } }),
    db.prompt.count({ where: ofTeam }),
    db.competitor.count({ where: ofTeam }),
    db.actionPlan.count({ where: ofTeam }),
    db.task.count({ where: ofTeam }),
    db.taskLabel.count({ where: { task: ofTeam } }),
    db.response.count({ where: ofTeam }),
    db.responseSource.count({ where: { response: ofTeam } }),
    db.responseCompetitorMention.count({ where: { response: ofTeam } }),
    db.crawlerDailyCount.count({ where: ofTeam }),
    db.crawledPage.count({ where: ofTeam }),
    db.aiReferralDailyCount.count({ where: ofTeam }),
    db.lead.count({ where: ofTeam }),
    db.aiLeadDailyCount.count({ where: ofTeam }),
    db.deliveryLogEntry.count({ where: ofTeam }),
  ]);
  const names = ['users', 'teams', 'memberships', 'properties', 'apiKeys', 'labels', 'prompts', 'competitors'];
  names.push('actionPlans', 'tasks', 'taskLabels', 'responses', 'responseSources', 'competitorMentions');
  names.push('crawlerDailyCounts', 'crawledPages', 'aiReferrals', 'leads', 'aiLeadCounts', 'deliveryLog');
  return Object.fromEntries(names.map((name, i) => [name, counts[i]]));
}

describe('ops demo seed', () => {
  const db = testDb();
  let first: DemoSeedResult;
  let todayBefore: string;
  let todayAfter: string;

  const progressLines: string[] = [];
  let progressDone = 0;

  beforeAll(async () => {
    todayBefore = formatUtcDay(utcDay(new Date()));
    const progress = { update: (text: string) => progressLines.push(text), done: () => progressDone++ };
    first = await seedDemo({ ...ctx(), progress });
    todayAfter = formatUtcDay(utcDay(new Date()));
  }, 240_000); // the 90-day seed took 98–113 s on a slow machine: twice that before it counts as hung

  it('reports each step to the progress line as it goes: judging, each table written, the passwords', () => {
    expect(progressLines[0]).toMatch(/^demo seed: judging .+'s answers \(property 1 of \d+\)$/);
    expect(progressLines).toContain(`demo seed: writing users, ${DEMO_USERS.length} of ${DEMO_USERS.length} rows`);
    const responses = progressLines.filter((line) => line.startsWith('demo seed: writing responses, '));
    expect(responses.length).toBeGreaterThan(10); // one per chunk of 1,000 rows
    expect(responses.at(-1)).toBe(
      `demo seed: writing responses, ${first.counts.responses} of ${first.counts.responses} rows`,
    );
    expect(progressLines.at(-1)).toBe('demo seed: the demo people’s console password');
    expect(progressDone).toBe(0); // the CLI clears the line, once, when the command ends
  });

  it('creates the demo team with an owner, an admin and two members, and reports what it created', async () => {
    expect(first.team).toMatchObject({ slug: DEMO_TEAM_SLUG, name: 'Demo Team' });
    const memberships = await db.membership.findMany({ where: { teamId: first.team.id }, include: { user: true } });
    expect(memberships.map((m) => m.role).sort()).toEqual(['admin', 'member', 'member', 'owner']);
    expect(memberships.find((m) => m.role === 'owner')?.user).toMatchObject({
      email: 'owner@demo.example',
      name: 'Dana Owner',
    });
    expect(first.counts).toEqual(await demoRowCounts(db, first.team.id));
  });

  it('creates two paid properties, one free and one lapsed, each printed with its connection details', () => {
    const byName = new Map(first.properties.map((p) => [p.name, p]));
    expect(byName.get('Acme Analytics')).toMatchObject({ plan: 'growth', subscriptionStatus: 'active' });
    expect(byName.get('Northwind Coffee')).toMatchObject({ plan: 'starter', subscriptionStatus: 'active' });
    expect(byName.get('Free Sandbox')).toMatchObject({ plan: 'free', subscriptionStatus: 'active' });
    expect(byName.get('Globex Cloud')).toMatchObject({ plan: 'scale', subscriptionStatus: 'lapsed' });
    for (const property of first.properties) {
      expect(property.teamId).toBe(first.team.id);
      expect(property.crawl.token).toMatch(/^vtc_/);
      expect(property.crawl.ingestUrl).toContain(property.id);
      expect(property.webhook.signingSecret).toBeTruthy();
    }
  });

  it('stores one answer per active prompt, platform and UTC day for the 90 days ending today', async () => {
    expect([todayBefore, todayAfter]).toContain(first.days.to);
    const lastDay = new Date(`${first.days.to}T00:00:00.000Z`);
    const firstDay = addUtcDays(lastDay, 1 - DEMO_DAYS);
    expect(first.days.from).toBe(formatUtcDay(firstDay));

    const prompts = await db.prompt.findMany({ where: { property: { teamId: first.team.id } } });
    expect(prompts.some((p) => !p.active)).toBe(true);
    for (const prompt of prompts) {
      const rows = await db.response.groupBy({
        by: ['model'],
        where: { promptId: prompt.id },
        _count: { _all: true },
        _min: { day: true },
        _max: { day: true },
      });
      if (!prompt.active) {
        expect(rows).toEqual([]);
        continue;
      }
      expect(rows.map((r) => r.model).sort()).toEqual([...AI_PLATFORM_IDS].sort());
      for (const row of rows) {
        expect(row._count._all).toBe(DEMO_DAYS);
        expect(row._min.day).toEqual(firstDay);
        expect(row._max.day).toEqual(lastDay);
      }
    }
    // Every paid or lapsed property has 7 active prompts; the free one has 2.
    expect(first.counts.responses).toBe((3 * 7 + 2) * AI_PLATFORM_IDS.length * DEMO_DAYS);
  });

  it('leaves matchedTerm, position and sentiment null when not mentioned, and points position at matchedTerm when mentioned', async () => {
    const properties = await db.property.findMany({ where: { teamId: first.team.id } });
    const rows = await db.response.findMany({ where: { propertyId: { in: properties.map((p) => p.id) } } });
    const mentionRate = new Map<string, number>();
    for (const row of rows) {
      const terms = properties.find((p) => p.id === row.propertyId)?.brandTerms ?? [];
      expect(row.excerpt.length).toBeLessThanOrEqual(300);
      expect(row.excerpt).not.toMatch(/\*\*|^#|\n/);
      expect(row.collectedAt.getTime() - row.day.getTime()).toBeGreaterThanOrEqual(0);
      expect(row.collectedAt.getTime() - row.day.getTime()).toBeLessThan(86_400_000);
      if (row.mentioned) {
        expect(terms).toContain(row.matchedTerm);
        const term = row.matchedTerm ?? '';
        expect(row.text.slice(row.position ?? -1, (row.position ?? -1) + term.length)).toBe(term);
        expect(row.text.indexOf(term)).toBe(row.position);
        expect(row.excerpt).toContain(term);
        expect(row.sentiment).toBeGreaterThanOrEqual(-1);
        expect(row.sentiment).toBeLessThanOrEqual(1);
        expect(Math.round((row.sentiment ?? 0) * 1000) / 1000).toBe(row.sentiment);
        mentionRate.set(row.model, (mentionRate.get(row.model) ?? 0) + 1);
      } else {
        expect([row.matchedTerm, row.position, row.sentiment]).toEqual([null, null, null]);
        for (const term of terms) expect(row.text.toLowerCase()).not.toContain(term.toLowerCase());
      }
    }
    for (const model of AI_PLATFORM_IDS) {
      const rate = (mentionRate.get(model) ?? 0) / (rows.length / AI_PLATFORM_IDS.length);
      expect(rate).toBeGreaterThan(0.35);
      expect(rate).toBeLessThan(0.75);
    }
  });

  it('records 1-4 cited sources per answer with bare-host domains, and competitor mentions at their positions', async () => {
    const rows = await db.response.findMany({
      where: { property: { teamId: first.team.id } },
      include: { sources: true, competitorMentions: { include: { competitor: true } } },
    });
    let withMentions = 0;
    for (const row of rows) {
      expect(row.sources.length).toBeGreaterThanOrEqual(1);
      expect(row.sources.length).toBeLessThanOrEqual(4);
      expect(row.sources.map((s) => s.ordinal).sort((a, b) => a - b)).toEqual(row.sources.map((_, i) => i));
      for (const source of row.sources) {
        expect(source.domain).toBe(new URL(source.url).hostname.toLowerCase().replace(/^www\./, ''));
        expect(source).toMatchObject({ propertyId: row.propertyId, day: row.day, model: row.model });
      }
      for (const mention of row.competitorMentions) {
        expect(row.text.indexOf(mention.competitor.name)).toBe(mention.position);
        expect(mention).toMatchObject({ propertyId: row.propertyId, day: row.day, model: row.model });
      }
      if (row.competitorMentions.length) withMentions += 1;
    }
    expect(withMentions).toBeGreaterThan(rows.length / 4);
  });

  it('creates plan steps in accepted, declined and proposed review, ad-hoc tasks, labels and assignees', async () => {
    const tasks = await db.task.findMany({
      where: { property: { teamId: first.team.id } },
      include: { labels: { include: { label: true } }, property: true },
    });
    const steps = tasks.filter((t) => t.planId !== null);
    const adHoc = tasks.filter((t) => t.planId === null);
    expect(new Set(steps.map((t) => t.reviewState))).toEqual(new Set(['accepted', 'declined', 'proposed']));
    expect(adHoc.length).toBeGreaterThan(0);
    expect(adHoc.every((t) => t.reviewState === 'accepted' && t.stepNumber === null)).toBe(true);
    expect(new Set(tasks.map((t) => t.status))).toEqual(
      new Set(['backlog', 'todo', 'in_progress', 'done', 'canceled']),
    );
    expect(tasks.some((t) => t.priority === null)).toBe(true);
    expect(tasks.some((t) => t.description === '')).toBe(true);
    expect(tasks.some((t) => t.dueDate === null) && tasks.some((t) => t.dueDate !== null)).toBe(true);

    const plans = await db.actionPlan.findMany({ where: { property: { teamId: first.team.id } } });
    for (const property of first.properties.filter((p) => p.plan !== 'free')) {
      const own = plans.filter((p) => p.propertyId === property.id);
      expect(own).toHaveLength(2);
      for (const plan of own) {
        const numbers = steps.filter((t) => t.planId === plan.id).map((t) => t.stepNumber ?? 0);
        expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
      }
    }

    const members = await db.membership.findMany({ where: { teamId: first.team.id } });
    const assignees = tasks.map((t) => t.assigneeId);
    expect(assignees).toContain(null);
    for (const id of assignees.filter((a) => a !== null)) expect(members.map((m) => m.userId)).toContain(id);

    const labels = tasks.flatMap((t) => t.labels.map((l) => l.label));
    expect(labels.every((l) => l.teamId === first.team.id)).toBe(true);
    expect(labels.some((l) => l.color === null)).toBe(true);
    expect(labels.filter((l) => l.color !== null).every((l) => /^#[0-9a-f]{6}$/.test(l.color ?? ''))).toBe(true);

    const sixtyOneDaysAgo = Date.now() - 61 * 86_400_000;
    expect(tasks.every((t) => t.createdAt.getTime() > sixtyOneDaysAgo && t.createdAt <= new Date())).toBe(true);
  });

  it('stores only the hash of the demo key derived from CRAWL_TOKEN_SECRET', async () => {
    const derived = deriveApiKey(testEnv.CRAWL_TOKEN_SECRET, 'demo-read-api-key');
    expect(first.apiKey.key).toBe(derived.key);
    expect(first.apiKey.prefix).toBe(derived.prefix);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: first.apiKey.id } });
    expect(row).toMatchObject({
      teamId: first.team.id,
      name: 'Demo key',
      keyHash: hashApiKey(derived.key),
      access: 'read',
      allProperties: true,
      revokedAt: null,
    });
    expect(JSON.stringify(row)).not.toContain(derived.key);
  });

  it('gives every demo person a console login with the password derived from CRAWL_TOKEN_SECRET, stored as argon2id', async () => {
    const password = demoPassword(testEnv);
    expect(first.login).toEqual({ emails: DEMO_USERS.map((u) => u.email), password });
    for (const email of first.login.emails) {
      expect(await checkCredentials(testDb(), { email, password })).toMatchObject({ email });
      expect(await checkCredentials(testDb(), { email, password: `${password}x` })).toBeNull();
      const stored = await testDb().user.findUniqueOrThrow({ where: { email } });
      expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
      expect(stored.passwordHash).not.toContain(password);
    }
  });

  it('seeds team settings and branding the console reads back whole', async () => {
    const team = await testDb().team.findUniqueOrThrow({ where: { slug: DEMO_TEAM_SLUG } });
    expect(teamView(team)).toMatchObject({
      settings: { timeZone: 'UTC', weekStartsOn: 'monday', defaultDayRange: 30 },
      branding: { displayName: 'Demo Team', accentColor: '#1f77b4' },
    });
  });

  it('demoApiKey refuses with not_configured when CRAWL_TOKEN_SECRET is unset', () => {
    expect(demoApiKey(ctx().config).key).toBe(first.apiKey.key);
    const unset = () => demoApiKey({ CRAWL_TOKEN_SECRET: undefined });
    expect(unset).toThrow(OpsError);
    expect(unset).toThrow(expect.objectContaining({ code: 'not_configured' }));
  });

  it('gives the paid, active properties 90 whole days of crawler, referral and lead traffic the way the workers count it', async () => {
    const properties = await db.property.findMany({ where: { teamId: first.team.id } });
    const yesterday = addUtcDays(utcDay(new Date(`${first.days.to}T00:00:00Z`)), -1);
    for (const property of properties) {
      const ingesting = property.plan !== 'free' && property.subscriptionStatus === 'active';
      const where = { propertyId: property.id };
      const crawl = await db.crawlerDailyCount.aggregate({ where, _min: { day: true }, _max: { day: true } });
      if (!ingesting) {
        expect(crawl._max.day, property.name).toBeNull();
        continue;
      }
      expect(crawl._max.day).toEqual(yesterday);
      expect(crawl._min.day).toEqual(addUtcDays(yesterday, 1 - DEMO_DAYS));
      // The AI-attributed lead counts are exactly the matched leads, per day and platform.
      const matched = await db.lead.groupBy({
        by: ['day', 'platform'],
        where: { ...where, matched: true },
        _count: { _all: true },
      });
      const counted = await db.aiLeadDailyCount.findMany({ where });
      expect(counted.length).toBeGreaterThan(0);
      expect(new Map(counted.map((c) => [`${formatUtcDay(c.day)}|${c.platform}`, c.leads]))).toEqual(
        new Map(matched.map((m) => [`${formatUtcDay(m.day)}|${m.platform}`, m._count._all])),
      );
      // The crawl log's newest batch was accepted: the crawl setup shows the property connected.
      const newest = await db.deliveryLogEntry.findFirst({
        where: { ...where, channel: 'crawl' },
        orderBy: { createdAt: 'desc' },
      });
      expect(newest?.statusCode).toBe(202);
    }
  });

  it('a second run creates no rows in any table and returns the same team, properties and key', async () => {
    const before = await demoRowCounts(db, first.team.id);
    const passwordHashes = async () =>
      (await db.user.findMany({ where: { email: { in: first.login.emails } }, orderBy: { email: 'asc' } })).map(
        (u) => u.passwordHash,
      );
    const hashesBefore = await passwordHashes();
    const second = await seedDemo(ctx());
    expect(await passwordHashes()).toEqual(hashesBefore);
    expect(await demoRowCounts(db, first.team.id)).toEqual(before);
    expect(Object.values(second.counts).every((n) => n === 0)).toBe(true);
    expect(second.apiKey).toEqual(first.apiKey);
    expect(second.team).toEqual(first.team);
    expect(second.properties.map((p) => p.id)).toEqual(first.properties.map((p) => p.id));
  }, 120_000);
});
