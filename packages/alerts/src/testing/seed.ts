import { randomUUID } from 'node:crypto';
import type { AlertRuleKind } from '@vt/contracts/console';
import { addUtcDays, formatUtcDay, type PrismaClient, utcDay } from '@vt/db';

// What the alert tests seed, written as the service writes it: a team of three (owner, admin,
// member) with a property, delivery-log rows as the gateway logs them, daily crawler counts as the
// crawl worker keeps them, and answers with competitor mentions as the collector stores them
// (the daily answer counts follow from the answers through their triggers).

export interface AlertTeam {
  teamId: string;
  propertyId: string;
  owner: { id: string; email: string };
  admin: { id: string; email: string };
  member: { id: string; email: string };
}

export async function seedAlertTeam(db: PrismaClient, slug: string): Promise<AlertTeam> {
  const team = await db.team.create({ data: { name: `Team ${slug}`, slug } });
  const person = async (role: 'owner' | 'admin' | 'member') => {
    const user = await db.user.create({ data: { email: `${role}-${slug}@example.com`, name: `${role} ${slug}` } });
    await db.membership.create({ data: { teamId: team.id, userId: user.id, role } });
    return { id: user.id, email: user.email };
  };
  const property = await db.property.create({
    data: { teamId: team.id, name: `Shop ${slug}`, domain: `${slug}.example`, brandTerms: ['Shop'], plan: 'growth' },
  });
  return {
    teamId: team.id,
    propertyId: property.id,
    owner: await person('owner'),
    admin: await person('admin'),
    member: await person('member'),
  };
}

/** Switches rules on (with a threshold where given), recipients and webhooks at their defaults. */
export async function enableRules(
  db: PrismaClient,
  propertyId: string,
  rules: { kind: AlertRuleKind; threshold?: number; emailUserIds?: string[]; webhooks?: boolean }[],
) {
  for (const rule of rules) {
    await db.alertRule.upsert({
      where: { propertyId_kind: { propertyId, kind: rule.kind } },
      create: {
        propertyId,
        kind: rule.kind,
        enabled: true,
        threshold: rule.threshold ?? null,
        emailOwnersAndAdmins: rule.emailUserIds === undefined,
        emailUserIds: rule.emailUserIds ?? [],
        webhooks: rule.webhooks ?? true,
      },
      update: { enabled: true, threshold: rule.threshold ?? null },
    });
  }
}

/** A crawl delivery-log row: 202 accepted, 401 refused (a bad token). */
export async function logCrawlAttempt(db: PrismaClient, propertyId: string, at: Date, statusCode: 202 | 401) {
  await db.deliveryLogEntry.create({
    data: {
      propertyId,
      channel: 'crawl',
      createdAt: at,
      statusCode,
      outcome: statusCode === 202 ? 'accepted' : 'rejected',
      reason: statusCode === 202 ? null : 'invalid_token',
    },
  });
}

/** A refused lead webhook attempt (a bad signature): no lead stored. */
export async function logRefusedLead(db: PrismaClient, propertyId: string, at: Date) {
  await db.deliveryLogEntry.create({
    data: {
      propertyId,
      channel: 'webhook',
      createdAt: at,
      statusCode: 401,
      outcome: 'rejected',
      reason: 'bad_signature',
    },
  });
}

/** `perDay` GPTBot hits on each of the days `fromDaysAgo` … `toDaysAgo` before `now`'s day. */
export async function seedCrawlerHits(
  db: PrismaClient,
  propertyId: string,
  now: Date,
  days: { fromDaysAgo: number; toDaysAgo: number; perDay: number },
) {
  const today = utcDay(now);
  for (let n = days.toDaysAgo; n <= days.fromDaysAgo; n++) {
    await db.crawlerDailyCount.create({
      data: {
        propertyId,
        day: addUtcDays(today, -n),
        crawler: 'GPTBot',
        operator: 'OpenAI',
        verification: 'verified',
        hits: days.perDay,
      },
    });
  }
}

/**
 * `answers` answers a day on the given days (one per prompt, on chatgpt), the first `mentioned`
 * of them naming the brand, and the first `competitorNamed` naming `competitor` (created if new).
 * A competitor's answers have prompts of their own, so two competitors can be seeded on one day.
 */
export async function seedAnswers(
  db: PrismaClient,
  propertyId: string,
  now: Date,
  days: { fromDaysAgo: number; toDaysAgo: number },
  counts: { answers: number; mentioned: number; competitor?: string; competitorNamed?: number },
) {
  const today = utcDay(now);
  const prompts = [];
  for (let i = 0; i < counts.answers; i++) {
    prompts.push(
      await db.prompt.upsert({
        where: { propertyId_text: { propertyId, text: `${counts.competitor ?? 'Question'} ${i}` } },
        create: { propertyId, text: `${counts.competitor ?? 'Question'} ${i}`, tags: [] },
        update: {},
      }),
    );
  }
  const competitor = counts.competitor
    ? await db.competitor.upsert({
        where: { propertyId_name: { propertyId, name: counts.competitor } },
        create: { propertyId, name: counts.competitor, terms: [counts.competitor] },
        update: {},
      })
    : null;
  for (let n = days.toDaysAgo; n <= days.fromDaysAgo; n++) {
    const day = addUtcDays(today, -n);
    for (const [i, prompt] of prompts.entries()) {
      const mentioned = i < counts.mentioned;
      const response = await db.response.create({
        data: {
          id: randomUUID(),
          propertyId,
          promptId: prompt.id,
          model: 'chatgpt',
          day,
          mentioned,
          matchedTerm: mentioned ? 'Shop' : null,
          position: mentioned ? 1 : null,
          excerpt: `An answer of ${formatUtcDay(day)}`,
          text: `An answer of ${formatUtcDay(day)}`,
        },
      });
      if (competitor && i < (counts.competitorNamed ?? 0)) {
        await db.responseCompetitorMention.create({
          data: {
            responseId: response.id,
            competitorId: competitor.id,
            position: 2,
            propertyId,
            day,
            model: 'chatgpt',
          },
        });
      }
    }
  }
}
