import { randomUUID } from 'node:crypto';
import { generateApiKey } from '@vt/credentials';
import { addUtcDays, formatUtcDay, type Plan, type PrismaClient, utcDay } from '@vt/db';
import { uniqueSlug } from '@vt/test-support';

/**
 * A small, fully known world for read API tests, laid out around `today` (a UTC day):
 *
 * - team A: `growth` and `starter` (paid, active), `free`, `lapsed` (scale plan, subscription lapsed);
 *   keys: `all` (every property), `write` (write access, every property), `scoped` (starter only),
 *   `revoked`, and `empty` (scoped to the free property only, so it reads nothing);
 * - team B: `other` (paid) and key `teamB`.
 *
 * Every property has two prompts; each prompt is answered by chatgpt and perplexity on each of the
 * 40 days ending today: even days mention the brand (position 10 + day index, sentiment 0.5) and
 * cite two URLs; odd days miss it and cite one. Competitor "Rival" is named on days divisible by 3.
 * Tasks (on growth): accepted ad-hoc and plan steps, plus one proposed and one declined step.
 */
export const WORLD_DAYS = 40;
export const WORLD_MODELS = ['chatgpt', 'perplexity'] as const;

export interface WorldProperty {
  id: string;
  name: string;
  promptIds: [string, string];
  competitorIds: [string, string];
}

export async function seedReadWorld(db: PrismaClient, today: Date) {
  const day0 = utcDay(today);
  const label = uniqueSlug('read');
  const [teamA, teamB] = await Promise.all(
    ['a', 'b'].map((t) => db.team.create({ data: { name: `${label}-${t}`, slug: `${label}-${t}` } })),
  );
  if (!teamA || !teamB) throw new Error('teams not created');
  const user = await db.user.create({ data: { email: `${label}@example.com`, name: 'Ada Assignee' } });

  async function property(teamId: string, name: string, plan: Plan, lapsed = false): Promise<WorldProperty> {
    const created = await db.property.create({
      data: {
        teamId,
        name: `${label} ${name}`,
        domain: `${name}.example.com`,
        plan,
        subscriptionStatus: lapsed ? 'lapsed' : 'active',
        brandTerms: [name],
      },
    });
    const prompts = await Promise.all(
      ['best tools', 'compare vendors'].map((text, i) =>
        db.prompt.create({
          data: {
            propertyId: created.id,
            text: `${text} (${name})`,
            tags: i === 0 ? ['discovery'] : [],
            createdAt: new Date(day0.getTime() - (10 - i) * 3_600_000),
          },
        }),
      ),
    );
    const competitors = await Promise.all(
      ['Rival', 'Quiet'].map((competitor) =>
        db.competitor.create({
          data: {
            propertyId: created.id,
            name: competitor,
            domain: `${competitor.toLowerCase()}.test`,
            terms: [competitor],
          },
        }),
      ),
    );
    await seedAnswers(
      db,
      created.id,
      name,
      prompts.map((p) => p.id),
      competitors[0]!.id,
      day0,
    );
    return {
      id: created.id,
      name: created.name,
      promptIds: [prompts[0]!.id, prompts[1]!.id],
      competitorIds: [competitors[0]!.id, competitors[1]!.id],
    };
  }

  const properties = {
    growth: await property(teamA.id, 'growth', 'growth'),
    starter: await property(teamA.id, 'starter', 'starter'),
    free: await property(teamA.id, 'free', 'free'),
    lapsed: await property(teamA.id, 'lapsed', 'scale', true),
    other: await property(teamB.id, 'other', 'scale'),
  };

  async function key(teamId: string, options: { access?: 'read' | 'write'; only?: string[]; revoked?: boolean } = {}) {
    const issued = generateApiKey();
    await db.apiKey.create({
      data: {
        teamId,
        name: `${label} key`,
        keyHash: issued.hash,
        prefix: issued.prefix,
        access: options.access ?? 'read',
        allProperties: options.only === undefined,
        revokedAt: options.revoked ? new Date() : null,
        properties: options.only ? { create: options.only.map((propertyId) => ({ propertyId })) } : undefined,
      },
    });
    return issued.key;
  }

  const keys = {
    all: await key(teamA.id),
    write: await key(teamA.id, { access: 'write' }),
    scoped: await key(teamA.id, { only: [properties.starter.id] }),
    revoked: await key(teamA.id, { revoked: true }),
    empty: await key(teamA.id, { only: [properties.free.id] }),
    teamB: await key(teamB.id),
  };

  const tasks = await seedTasks(db, teamA.id, properties.growth.id, user.id, day0);
  return { today: day0, teamA, teamB, user, properties, keys, tasks };
}

export type ReadWorld = Awaited<ReturnType<typeof seedReadWorld>>;

/**
 * The answer the world holds for a brand's prompt, `daysBack` days before today (`day`), from one
 * model: the one definition the seeding and the tests' expectations share.
 */
export function worldAnswer(brand: string, daysBack: number, day: string, model: string) {
  const mentioned = daysBack % 2 === 0;
  return {
    mentioned,
    matchedTerm: mentioned ? brand : null,
    position: mentioned ? 10 + daysBack : null,
    sentiment: mentioned ? 0.5 : null,
    text: mentioned
      ? `# Answer\n\nFor this, **${brand}** is a good choice (${day}, ${model}).`
      : `# Answer\n\nSeveral vendors exist (${day}, ${model}).`,
    urls: mentioned
      ? [`https://docs.${brand}.example.com/guide`, 'https://www.wikipedia.org/wiki/Vendors']
      : ['https://www.wikipedia.org/wiki/Vendors'],
    /** Whether the answer also names the property's rival competitor. */
    rivalNamed: daysBack % 3 === 0,
  };
}

interface AnswerRow {
  id: string;
  promptId: string;
  model: string;
  day: string;
  mentioned: boolean;
  matchedTerm: string | null;
  position: number | null;
  sentiment: number | null;
  excerpt: string;
  text: string;
}

interface SourceRow {
  responseId: string;
  ordinal: number;
  url: string;
  domain: string;
  day: string;
  model: string;
}

// Every test file seeds its own world, so this runs once per file: createMany spent ~0.6 s per
// world building its statements of thousands of parameters, unnest() (one array per column) ~50 ms.
async function seedAnswers(
  db: PrismaClient,
  propertyId: string,
  brand: string,
  promptIds: string[],
  rivalId: string,
  day0: Date,
) {
  const responses: AnswerRow[] = [];
  const sources: SourceRow[] = [];
  const mentions: { responseId: string; day: string; model: string }[] = [];
  for (let d = 0; d < WORLD_DAYS; d++) {
    const day = formatUtcDay(addUtcDays(day0, -d));
    for (const promptId of promptIds) {
      for (const model of WORLD_MODELS) {
        const id = randomUUID();
        const answer = worldAnswer(brand, d, day, model);
        const { urls, rivalNamed, ...columns } = answer;
        responses.push({
          id,
          promptId,
          model,
          day,
          ...columns,
          excerpt: answer.text.replace(/[#*]/g, '').trim().slice(0, 300),
        });
        urls.forEach((url, ordinal) => {
          sources.push({
            responseId: id,
            ordinal,
            url,
            domain: new URL(url).hostname.replace(/^www\./, ''),
            day,
            model,
          });
        });
        if (rivalNamed) mentions.push({ responseId: id, day, model });
      }
    }
  }
  await db.$executeRaw`
    INSERT INTO responses (property_id, id, prompt_id, model, day, mentioned, matched_term, position, sentiment,
                           excerpt, text)
    SELECT ${propertyId}::uuid, r.*
    FROM unnest(
      ${responses.map((r) => r.id)}::uuid[], ${responses.map((r) => r.promptId)}::uuid[],
      ${responses.map((r) => r.model)}::text[], ${responses.map((r) => r.day)}::date[],
      ${responses.map((r) => r.mentioned)}::boolean[], ${responses.map((r) => r.matchedTerm)}::text[],
      ${responses.map((r) => r.position)}::int[], ${responses.map((r) => r.sentiment)}::float8[],
      ${responses.map((r) => r.excerpt)}::text[], ${responses.map((r) => r.text)}::text[]
    ) AS r`;
  await db.$executeRaw`
    INSERT INTO response_sources (property_id, response_id, ordinal, url, domain, day, model)
    SELECT ${propertyId}::uuid, s.*
    FROM unnest(
      ${sources.map((s) => s.responseId)}::uuid[], ${sources.map((s) => s.ordinal)}::int[],
      ${sources.map((s) => s.url)}::text[], ${sources.map((s) => s.domain)}::text[],
      ${sources.map((s) => s.day)}::date[], ${sources.map((s) => s.model)}::text[]
    ) AS s`;
  await db.$executeRaw`
    INSERT INTO response_competitor_mentions (property_id, competitor_id, position, response_id, day, model)
    SELECT ${propertyId}::uuid, ${rivalId}::uuid, 40, m.*
    FROM unnest(
      ${mentions.map((m) => m.responseId)}::uuid[], ${mentions.map((m) => m.day)}::date[],
      ${mentions.map((m) => m.model)}::text[]
    ) AS m`;
}

async function seedTasks(db: PrismaClient, teamId: string, propertyId: string, userId: string, day0: Date) {
  const at = (hoursAgo: number) => new Date(day0.getTime() - hoursAgo * 3_600_000);
  const label = await db.label.create({ data: { teamId, name: 'seo', color: '#2f80ed' } });
  const plain = await db.label.create({ data: { teamId, name: 'content', color: null } });
  const plan = await db.actionPlan.create({ data: { propertyId, title: 'Win comparisons' } });
  const adHoc = await db.task.create({
    data: { propertyId, title: 'Title only', createdAt: at(1), status: 'todo' },
  });
  const step1 = await db.task.create({
    data: {
      propertyId,
      planId: plan.id,
      stepNumber: 1,
      title: 'Publish a comparison page',
      description: 'Cover pricing and integrations.',
      status: 'in_progress',
      priority: 'high',
      dueDate: addUtcDays(day0, 7),
      assigneeId: userId,
      reviewState: 'accepted',
      createdAt: at(2),
      labels: { create: [{ labelId: label.id }, { labelId: plain.id }] },
    },
  });
  const step2 = await db.task.create({
    data: {
      propertyId,
      planId: plan.id,
      stepNumber: 2,
      title: 'Proposed step',
      reviewState: 'proposed',
      createdAt: at(3),
    },
  });
  const step3 = await db.task.create({
    data: {
      propertyId,
      planId: plan.id,
      stepNumber: 3,
      title: 'Declined step',
      reviewState: 'declined',
      createdAt: at(4),
    },
  });
  const done = await db.task.create({
    data: { propertyId, title: 'Old done task', status: 'done', priority: 'low', createdAt: at(5) },
  });
  return { adHoc, step1, proposed: step2, declined: step3, done, plan, labels: { seo: label, content: plain } };
}
