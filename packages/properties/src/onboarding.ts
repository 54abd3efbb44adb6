import { aiPlatformName } from '@vt/attribution';
import { formatUtcDay, type PrismaClient, type Property } from '@vt/db';
import { crawlConnection, webhookConnection } from './connection.ts';
import { suggestCompetitors, suggestPrompts } from './suggestions.ts';

type Step = 'prompts' | 'competitors' | 'crawl' | 'webhook' | 'answers';
export interface OnboardingChecklist {
  steps: { step: Step; done: boolean; detail: string }[];
  complete: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const dayOf = (iso: string) => iso.slice(0, 10);

/**
 * What of each property's setup is done. Prompts, competitors and stored answers are counted for
 * every property in one query each; the crawl and webhook steps read each property's delivery log
 * as its setup dialog does, so the checklist and the dialog never disagree. The answers step is
 * done once answers are stored (what platform keys produce); until then it says what the answer
 * collector last published: no platform key set, or which platforms ask and when next.
 */
export async function onboardingChecklists(
  db: PrismaClient,
  properties: readonly Property[],
  now = new Date(),
): Promise<Map<string, OnboardingChecklist>> {
  const ids = properties.map((p) => p.id);
  const [prompts, competitors, answers, platforms] = await Promise.all([
    db.prompt.groupBy({ by: ['propertyId'], where: { propertyId: { in: ids }, active: true }, _count: { _all: true } }),
    db.competitor.groupBy({ by: ['propertyId'], where: { propertyId: { in: ids } }, _count: { _all: true } }),
    db.responseDailyCount.groupBy({
      by: ['propertyId'],
      where: { propertyId: { in: ids } },
      _sum: { responses: true },
      _max: { day: true },
    }),
    db.answerPlatformStatus.findMany({ where: { configured: true }, orderBy: { nextRunAt: 'asc' } }),
  ]);
  const noAnswerYet = waitingForAnswers(platforms);
  const promptCount = new Map(prompts.map((r) => [r.propertyId, r._count._all]));
  const competitorCount = new Map(competitors.map((r) => [r.propertyId, r._count._all]));
  const answerRows = new Map(answers.map((r) => [r.propertyId, r]));
  const result = new Map<string, OnboardingChecklist>();
  await Promise.all(
    properties.map(async (property) => {
      const [crawl, webhook] = await Promise.all([crawlConnection(db, property, now), webhookConnection(db, property)]);
      const nPrompts = promptCount.get(property.id) ?? 0;
      const nCompetitors = competitorCount.get(property.id) ?? 0;
      const stored = answerRows.get(property.id);
      const nAnswers = stored?._sum.responses ?? 0;
      const steps: OnboardingChecklist['steps'] = [
        {
          step: 'prompts',
          done: nPrompts > 0,
          detail: nPrompts > 0 ? `${plural(nPrompts, 'prompt', 'prompts')} asked` : 'No prompt yet',
        },
        {
          step: 'competitors',
          done: nCompetitors > 0,
          detail:
            nCompetitors > 0 ? `${plural(nCompetitors, 'competitor', 'competitors')} tracked` : 'No competitor yet',
        },
        {
          step: 'crawl',
          done: crawl.lastAcceptedAt !== null,
          detail: crawl.lastAcceptedAt
            ? `Last batch accepted on ${dayOf(crawl.lastAcceptedAt)}`
            : crawl.lastAttemptAt
              ? 'Batches arrived, none accepted yet'
              : 'No batch has arrived yet',
        },
        {
          step: 'webhook',
          done: webhook.status === 'verified',
          detail:
            webhook.status === 'verified' && webhook.lastAcceptedAt
              ? `Last lead stored on ${dayOf(webhook.lastAcceptedAt)}`
              : webhook.lastAttemptAt
                ? 'Leads arrived, none stored yet'
                : 'No lead has arrived yet',
        },
        {
          step: 'answers',
          done: nAnswers > 0,
          detail:
            nAnswers > 0 && stored?._max.day
              ? `${plural(nAnswers, 'answer', 'answers')} stored, the latest on ${formatUtcDay(stored._max.day)}`
              : noAnswerYet,
        },
      ];
      result.set(property.id, { steps, complete: steps.every((s) => s.done) });
    }),
  );
  return result;
}

/** Why a property has no answer yet, from the platforms the collector reported as configured. */
function waitingForAnswers(configured: readonly { platform: string; nextRunAt: Date }[]): string {
  const next = configured[0];
  if (!next) return 'No AI answer yet: no AI platform key is set on the answer collector';
  const names = configured.map((p) => aiPlatformName(p.platform)).join(', ');
  return `No AI answer yet: ${names} will ask at the next run, ${next.nextRunAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The domains a property's stored answers cite, by the number of answers citing each. */
const CITED_DOMAINS_READ = 50;

/** The checklist of one property and what it could start from. */
export async function onboarding(db: PrismaClient, property: Property, options: { category?: string; now?: Date }) {
  const [checklists, prompts, competitors, cited] = await Promise.all([
    onboardingChecklists(db, [property], options.now),
    db.prompt.findMany({ where: { propertyId: property.id }, select: { text: true } }),
    db.competitor.findMany({ where: { propertyId: property.id }, select: { name: true, domain: true } }),
    db.responseSource.groupBy({
      by: ['domain'],
      where: { propertyId: property.id },
      _count: { responseId: true },
      orderBy: { _count: { responseId: 'desc' } },
      take: CITED_DOMAINS_READ,
    }),
  ]);
  const input = {
    name: property.name,
    domain: property.domain,
    brandTerms: property.brandTerms,
    prompts: prompts.map((p) => p.text),
    competitors,
    category: options.category,
  };
  return {
    propertyId: property.id,
    checklist: checklists.get(property.id) as OnboardingChecklist,
    suggestedPrompts: suggestPrompts(input),
    suggestedCompetitors: suggestCompetitors(
      input,
      cited.map((c) => ({ domain: c.domain, answers: c._count.responseId })),
    ),
  };
}
