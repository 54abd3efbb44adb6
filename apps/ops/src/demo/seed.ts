import { createHash, createHmac } from 'node:crypto';
import { hashPassword, verifyPassword } from '@vt/accounts';
import { AI_PLATFORMS } from '@vt/attribution';
import type { OpsConfig } from '@vt/config';
import { deriveApiKey, type IssuedApiKey, nameBasedUuid } from '@vt/credentials';
import {
  addUtcDays,
  formatUtcDay,
  type Prisma,
  type Response,
  type ResponseCompetitorMention,
  type ResponseSource,
  utcDay,
} from '@vt/db';
import { judgeAnswer } from '@vt/verdict';
import { connectionDetails, propertySummary } from '../cli/commands/properties.ts';
import type { OpsContext } from '../cli/context.ts';
import { OpsError } from '../cli/ops-error.ts';
import { type Progress, silentProgress } from '../cli/progress.ts';
import {
  COMMON_SOURCES,
  composeAnswer,
  DEMO_ADHOC_TASKS,
  DEMO_LABELS,
  DEMO_PLANS,
  DEMO_PROPERTIES,
  DEMO_TEAM,
  DEMO_USERS,
  type DemoPropertySpec,
  type DemoTaskStep,
  fill,
  MENTION_RATE,
  pick,
  type Rng,
  shuffled,
} from './content.ts';
import { demoTraffic } from './traffic.ts';

export const DEMO_TEAM_SLUG = 'demo';
/** Days of collected answers, ending today (UTC). */
export const DEMO_DAYS = 90;
const DEMO_KEY_LABEL = 'demo-read-api-key';
const INSERT_CHUNK = 1000;
const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 24 * MS_PER_HOUR;

type Tx = Prisma.TransactionClient;
interface WorkRows {
  prompts: Prisma.PromptCreateManyInput[];
  competitors: Prisma.CompetitorCreateManyInput[];
  plans: Prisma.ActionPlanCreateManyInput[];
  tasks: Prisma.TaskCreateManyInput[];
  taskLabels: Prisma.TaskLabelCreateManyInput[];
}
interface Answers {
  /**
   * source_urls is copied from response_sources by their insert trigger, and list_fragment is
   * generated, as for every writer that stores sources on their own.
   */
  responses: Omit<Response, 'sourceUrls' | 'listFragment'>[];
  sources: ResponseSource[];
  /** before_brand is the database's to set (a trigger), as for every writer. */
  mentions: Omit<ResponseCompetitorMention, 'beforeBrand'>[];
}
const TABLES = [
  'users',
  'teams',
  'memberships',
  'properties',
  'apiKeys',
  'labels',
  'prompts',
  'competitors',
  'actionPlans',
  'tasks',
  'taskLabels',
  'responses',
  'responseSources',
  'competitorMentions',
  'crawlerDailyCounts',
  'crawledPages',
  'aiReferrals',
  'leads',
  'aiLeadCounts',
  'deliveryLog',
] as const;
type TableName = (typeof TABLES)[number];
/** Rows each table gained in this run: all zero when the demo data was already complete. */
export type DemoSeedCounts = Record<TableName, number>;

export interface DemoSeedResult {
  team: { id: string; slug: string; name: string };
  apiKey: { id: string; key: string; prefix: string };
  properties: (ReturnType<typeof propertySummary> & ReturnType<typeof connectionDetails>)[];
  days: { from: string; to: string };
  counts: DemoSeedCounts;
  /** The console sign-in of every demo person (one password; the owner first). */
  login: { emails: string[]; password: string };
}

/**
 * The demo read key, derived from CRAWL_TOKEN_SECRET so it can be printed again on every run
 * while only its hash is stored.
 */
export function demoApiKey(config: Pick<OpsConfig, 'CRAWL_TOKEN_SECRET'>): IssuedApiKey {
  if (!config.CRAWL_TOKEN_SECRET) {
    throw new OpsError('not_configured', 'CRAWL_TOKEN_SECRET is not set: the demo API key is derived from it.');
  }
  return deriveApiKey(config.CRAWL_TOKEN_SECRET, DEMO_KEY_LABEL);
}

/**
 * The demo people's console password, derived from CRAWL_TOKEN_SECRET like the demo key: printed
 * by every `pnpm start`, different on every deployment, never stored but as an argon2id hash.
 */
export function demoPassword(config: Pick<OpsConfig, 'CRAWL_TOKEN_SECRET'>): string {
  if (!config.CRAWL_TOKEN_SECRET) {
    throw new OpsError('not_configured', 'CRAWL_TOKEN_SECRET is not set: the demo password is derived from it.');
  }
  return createHmac('sha256', config.CRAWL_TOKEN_SECRET)
    .update('vt-demo:console-password')
    .digest('base64url')
    .slice(0, 20);
}

/** Gives each demo person the demo password unless theirs already is it (a rerun writes nothing). */
async function setDemoPasswords(ctx: OpsContext, password: string): Promise<void> {
  const people = await ctx.db.user.findMany({ where: { email: { in: DEMO_USERS.map((u) => u.email) } } });
  const hash = await hashPassword(password);
  for (const person of people) {
    if (await verifyPassword(person.passwordHash, password)) continue;
    await ctx.db.user.update({ where: { id: person.id }, data: { passwordHash: hash } });
  }
}

/** The id of a demo row: a name gives the same id on every run. */
const demoId = (name: string) => nameBasedUuid(`vt-demo:${name}`);

/** mulberry32, seeded from a name: the same name draws the same numbers on every run. */
function rngFor(name: string): Rng {
  let state = createHash('sha256').update(name).digest().readUInt32BE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Seeds the demo team: four people, three paid properties (one lapsed) and a free one, prompts,
 * competitors, 90 days of answers on every platform, action plans and tasks, and the demo key.
 * Every id is derived from a name and every insert skips existing rows, so a rerun adds nothing
 * (on a later day it adds only the new days' answers). One transaction: all or nothing.
 */
export async function seedDemo(ctx: OpsContext, _options?: unknown): Promise<DemoSeedResult> {
  const issued = demoApiKey(ctx.config);
  const progress = ctx.progress ?? silentProgress;
  const now = new Date();
  // Answers are composed and judged before the transaction opens (seconds of CPU), and only for
  // days not stored yet: a rerun judges nothing but the days it adds.
  const answers = await demoAnswers(ctx.db, now, progress);
  const seeded = await ctx.db.$transaction((tx) => seedRows(tx, issued, now, answers, progress), {
    maxWait: 10_000,
    timeout: 300_000,
  });
  progress.update('demo seed: the demo people’s console password');
  const password = demoPassword(ctx.config);
  await setDemoPasswords(ctx, password);
  const today = utcDay(now);
  return {
    team: { id: seeded.team.id, slug: seeded.team.slug, name: seeded.team.name },
    apiKey: { id: seeded.apiKey.id, key: issued.key, prefix: seeded.apiKey.prefix },
    properties: seeded.properties.map((p) => ({ ...propertySummary(p), ...connectionDetails(ctx, p) })),
    days: { from: formatUtcDay(addUtcDays(today, 1 - DEMO_DAYS)), to: formatUtcDay(today) },
    counts: seeded.counts,
    login: { emails: DEMO_USERS.map((u) => u.email), password },
  };
}

/** createMany-style inserters in chunks of INSERT_CHUNK, counting the rows actually inserted. */
function chunkedInserter(counts: DemoSeedCounts, progress: Progress) {
  return async <T>(table: TableName, rows: T[], createMany: (data: T[]) => Promise<{ count: number }>) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      progress.update(`demo seed: writing ${table}, ${Math.min(i + INSERT_CHUNK, rows.length)} of ${rows.length} rows`);
      counts[table] += (await createMany(rows.slice(i, i + INSERT_CHUNK))).count;
    }
  };
}

async function seedRows(tx: Tx, issued: IssuedApiKey, now: Date, answers: Answers, progress: Progress) {
  const counts = Object.fromEntries(TABLES.map((table) => [table, 0])) as DemoSeedCounts;
  const insert = chunkedInserter(counts, progress);
  const daysAgo = (days: number, hours = 0) => new Date(now.getTime() - days * MS_PER_DAY - hours * MS_PER_HOUR);

  // People and the team are read back by their natural keys: they may predate the seed.
  const people = DEMO_USERS.map((u) => ({ ...u, id: demoId(`user:${u.key}`) }));
  const userRows = people.map(({ id, email, name }) => ({ id, email, name, createdAt: daysAgo(120) }));
  await insert('users', userRows, (data) => tx.user.createMany({ data, skipDuplicates: true }));
  const existingUsers = await tx.user.findMany({ where: { email: { in: people.map((u) => u.email) } } });
  for (const person of people) person.id = existingUsers.find((row) => row.email === person.email)?.id ?? person.id;

  const teamRow = { id: demoId('team'), slug: DEMO_TEAM_SLUG, ...DEMO_TEAM, createdAt: daysAgo(120) };
  await insert('teams', [teamRow], (data) => tx.team.createMany({ data, skipDuplicates: true }));
  const team = await tx.team.findUniqueOrThrow({ where: { slug: DEMO_TEAM_SLUG } });
  const memberships = people.map((p) => ({
    id: demoId(`member:${p.key}`),
    teamId: team.id,
    userId: p.id,
    role: p.role,
  }));
  await insert('memberships', memberships, (data) => tx.membership.createMany({ data, skipDuplicates: true }));

  const labels = DEMO_LABELS.map(({ name, color }) => ({ id: demoId(`label:${name}`), teamId: team.id, name, color }));
  await insert('labels', labels, (data) => tx.label.createMany({ data, skipDuplicates: true }));
  const labelIds = new Map((await tx.label.findMany({ where: { teamId: team.id } })).map((l) => [l.name, l.id]));

  const apiKey = await upsertDemoKey(tx, team.id, people[0]?.id ?? null, issued, counts);

  const propertyRows = DEMO_PROPERTIES.map(({ key, name, domain, brandTerms, plan, subscriptionStatus }) => {
    const createdAt = daysAgo(DEMO_DAYS + 5);
    return {
      id: demoId(`property:${key}`),
      teamId: team.id,
      name,
      domain,
      brandTerms,
      plan,
      subscriptionStatus,
      createdAt,
    };
  });
  await insert('properties', propertyRows, (data) => tx.property.createMany({ data, skipDuplicates: true }));
  const found = await tx.property.findMany({ where: { id: { in: propertyRows.map((p) => p.id) } } });
  const properties = propertyRows.flatMap((p) => found.filter((row) => row.id === p.id));

  const rows = { prompts: [], competitors: [], plans: [], tasks: [], taskLabels: [] } as WorkRows;
  DEMO_PROPERTIES.forEach((spec, index) => {
    const propertyId = demoId(`property:${spec.key}`);
    for (const [i, { text, tags, active = true }] of spec.prompts.entries()) {
      rows.prompts.push({
        id: demoId(`prompt:${spec.key}:${i}`),
        propertyId,
        text,
        tags,
        active,
        createdAt: daysAgo(92, i),
      });
    }
    for (const c of spec.competitors) {
      rows.competitors.push({
        id: demoId(`competitor:${spec.key}:${c.name}`),
        propertyId,
        ...c,
        createdAt: daysAgo(92),
      });
    }
    collectWork(spec, propertyId, { index, now, people: people.map((p) => p.id), labelIds }, rows);
  });

  await insert('prompts', rows.prompts, (data) => tx.prompt.createMany({ data, skipDuplicates: true }));
  await insert('competitors', rows.competitors, (data) => tx.competitor.createMany({ data, skipDuplicates: true }));
  await insert('actionPlans', rows.plans, (data) => tx.actionPlan.createMany({ data, skipDuplicates: true }));
  await insert('tasks', rows.tasks, (data) => tx.task.createMany({ data, skipDuplicates: true }));
  await insert('taskLabels', rows.taskLabels, (data) => tx.taskLabel.createMany({ data, skipDuplicates: true }));
  await insert('responses', answers.responses, (data) => bulkInsert(tx, 'responses', RESPONSE_COLUMNS, data));
  await insert('responseSources', answers.sources, (data) => bulkInsert(tx, 'response_sources', SOURCE_COLUMNS, data));
  await insert('competitorMentions', answers.mentions, (data) =>
    bulkInsert(tx, 'response_competitor_mentions', MENTION_COLUMNS, data),
  );
  await insertTraffic(tx, now, insert);
  return { team, apiKey, properties, counts };
}

/** Site traffic as the workers count it, for the properties that ingest today (paid and active). */
async function insertTraffic(tx: Tx, now: Date, insert: ReturnType<typeof chunkedInserter>) {
  const ingesting = DEMO_PROPERTIES.filter((p) => p.plan !== 'free' && p.subscriptionStatus === 'active');
  for (const [index, spec] of ingesting.entries()) {
    const rows = demoTraffic(demoId(`property:${spec.key}`), {
      now,
      days: DEMO_DAYS,
      scale: index === 0 ? 1 : 0.4,
      rng: rngFor(`traffic:${spec.key}:${formatUtcDay(utcDay(now))}`),
      id: demoId,
    });
    const skip = { skipDuplicates: true } as const;
    await insert('crawlerDailyCounts', rows.crawlerDailyCounts, (data) =>
      tx.crawlerDailyCount.createMany({ data, ...skip }),
    );
    await insert('crawledPages', rows.crawledPages, (data) => tx.crawledPage.createMany({ data, ...skip }));
    await insert('aiReferrals', rows.aiReferrals, (data) => tx.aiReferralDailyCount.createMany({ data, ...skip }));
    await insert('leads', rows.leads, (data) => tx.lead.createMany({ data, ...skip }));
    await insert('aiLeadCounts', rows.aiLeadCounts, (data) => tx.aiLeadDailyCount.createMany({ data, ...skip }));
    await insert('deliveryLog', rows.deliveryLog, (data) => tx.deliveryLogEntry.createMany({ data, ...skip }));
  }
}

/**
 * Action plans (paid properties only) with their steps, and ad-hoc tasks; the free property gets
 * one ad-hoc task. Created times count back from `now`: fixed at the first run, since reruns skip.
 */
function collectWork(
  spec: DemoPropertySpec,
  propertyId: string,
  { index, now, people, labelIds }: { index: number; now: Date; people: string[]; labelIds: Map<string, string> },
  out: WorkRows,
) {
  const competitor = spec.competitors[0]?.name ?? 'the market leader';
  const vars = { brand: spec.name, competitor, domain: spec.domain, topic: spec.topic };
  const addTask = (id: string, task: DemoTaskStep, createdAt: Date, step?: { planId: string; stepNumber: number }) => {
    out.tasks.push({
      id,
      propertyId,
      ...step,
      title: fill(task.title, vars),
      description: fill(task.description, vars),
      status: task.status,
      priority: task.priority,
      reviewState: task.reviewState,
      dueDate: task.dueAfterDays === null ? null : addUtcDays(utcDay(createdAt), task.dueAfterDays),
      assigneeId: task.assignee === null ? null : (people[task.assignee] ?? null),
      createdAt,
      updatedAt: new Date(Math.min(now.getTime(), createdAt.getTime() + 2 * MS_PER_DAY)),
    });
    for (const name of task.labels) {
      const labelId = labelIds.get(name);
      if (labelId) out.taskLabels.push({ taskId: id, labelId });
    }
  };
  // Properties are staggered by a few hours so lists across them interleave rather than tie.
  const ago = (days: number, hours: number) => new Date(now.getTime() - days * MS_PER_DAY - hours * MS_PER_HOUR);
  const paid = spec.plan !== 'free';
  for (const [n, plan] of (paid ? DEMO_PLANS : []).entries()) {
    const planId = demoId(`plan:${spec.key}:${n}`);
    const createdAt = ago(plan.createdDaysAgo, index * 3);
    out.plans.push({ id: planId, propertyId, title: plan.title, summary: fill(plan.summary, vars), createdAt });
    for (const [s, step] of plan.steps.entries()) {
      const stepCreatedAt = new Date(createdAt.getTime() + (s + 1) * 60_000);
      addTask(demoId(`task:${spec.key}:plan${n}:${s + 1}`), step, stepCreatedAt, { planId, stepNumber: s + 1 });
    }
  }
  for (const [t, task] of (paid ? DEMO_ADHOC_TASKS : DEMO_ADHOC_TASKS.slice(0, 1)).entries()) {
    addTask(demoId(`task:${spec.key}:adhoc:${t}`), task, ago(task.createdDaysAgo, index * 3 + t));
  }
}

/** The key row follows the current secret: a changed CRAWL_TOKEN_SECRET re-points it. */
async function upsertDemoKey(
  tx: Tx,
  teamId: string,
  ownerId: string | null,
  issued: IssuedApiKey,
  counts: DemoSeedCounts,
) {
  const id = demoId('api-key');
  const existing = await tx.apiKey.findUnique({ where: { id } });
  if (!existing) {
    counts.apiKeys += 1;
    return tx.apiKey.create({
      data: {
        id,
        teamId,
        name: 'Demo key',
        keyHash: issued.hash,
        prefix: issued.prefix,
        access: 'read',
        allProperties: true,
        createdById: ownerId,
      },
    });
  }
  if (existing.keyHash === issued.hash) return existing;
  return tx.apiKey.update({ where: { id }, data: { keyHash: issued.hash, prefix: issued.prefix } });
}

// The answer tables take ~50k rows; createMany spends seconds building statements of thousands of
// scalar parameters, so these go through unnest(): one array parameter per column.
// "column:type" in table order; each row field is its column's name in camelCase.
const RESPONSE_COLUMNS =
  'id:uuid property_id:uuid prompt_id:uuid model:text day:date mentioned:boolean ' +
  'matched_term:text position:int sentiment:float8 excerpt:text text:text collected_at:timestamptz';
const SOURCE_COLUMNS = 'response_id:uuid ordinal:int url:text domain:text property_id:uuid day:date model:text';
const MENTION_COLUMNS = 'response_id:uuid competitor_id:uuid position:int property_id:uuid day:date model:text';

/** INSERT … SELECT FROM unnest(…) ON CONFLICT DO NOTHING; resolves with the rows inserted. */
async function bulkInsert(tx: Tx, table: string, columnSpec: string, rows: object[]) {
  const columns = columnSpec.split(' ').map((pair) => {
    const [column = '', type = ''] = pair.split(':');
    return { column, type, field: column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) };
  });
  const params = columns.map(({ field }) =>
    rows.map((row) => {
      const value = (row as Record<string, unknown>)[field];
      return value instanceof Date ? value.toISOString() : value;
    }),
  );
  const sql =
    `INSERT INTO ${table} (${columns.map((c) => c.column).join(', ')}) ` +
    `SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')}) ON CONFLICT DO NOTHING`;
  return { count: await tx.$executeRawUnsafe(sql, ...params) };
}

/** Every demo property's answers for the days after the last one already stored. */
async function demoAnswers(db: OpsContext['db'], now: Date, progress: Progress): Promise<Answers> {
  const stored = await db.response.groupBy({
    by: ['propertyId'],
    where: { propertyId: { in: DEMO_PROPERTIES.map((spec) => demoId(`property:${spec.key}`)) } },
    _max: { day: true },
  });
  const answers: Answers = { responses: [], sources: [], mentions: [] };
  for (const [index, spec] of DEMO_PROPERTIES.entries()) {
    progress.update(`demo seed: judging ${spec.name}'s answers (property ${index + 1} of ${DEMO_PROPERTIES.length})`);
    const propertyId = demoId(`property:${spec.key}`);
    const last = stored.find((row) => row.propertyId === propertyId)?._max.day ?? null;
    collectAnswers(spec, propertyId, now, last, answers);
  }
  return answers;
}

/**
 * One answer per active prompt, platform and day after `storedThrough`, with its cited sources and
 * competitor mentions. Each answer's draws come from its own name, so skipping days changes nothing else.
 */
function collectAnswers(
  spec: DemoPropertySpec,
  propertyId: string,
  now: Date,
  storedThrough: Date | null,
  out: Answers,
) {
  const today = utcDay(now);
  const pool = [...spec.sources, ...COMMON_SOURCES];
  // Judged as collection judges: the brand's terms and domain, each competitor's name.
  const terms = {
    brandTerms: [...spec.brandTerms, spec.domain],
    competitors: spec.competitors.map((c) => ({ id: demoId(`competitor:${spec.key}:${c.name}`), terms: [c.name] })),
  };
  spec.prompts.forEach((prompt, pi) => {
    if (prompt.active === false) return;
    const promptId = demoId(`prompt:${spec.key}:${pi}`);
    const promptBias = (rngFor(`bias:${spec.key}:${pi}`)() - 0.5) * 0.2;
    for (let d = 0; d < DEMO_DAYS; d++) {
      const day = addUtcDays(today, d + 1 - DEMO_DAYS);
      if (storedThrough && day <= storedThrough) continue; // a whole day is stored at once, in one transaction
      const dayText = formatUtcDay(day);
      // Visibility improves slowly over the window, as a demo of a working action plan should.
      const trend = (d / (DEMO_DAYS - 1) - 0.5) * 0.1;
      for (const { id: model } of AI_PLATFORMS) {
        const rng = rngFor(`response:${spec.key}:${pi}:${model}:${dayText}`);
        const rate = Math.min(0.9, Math.max(0.1, (MENTION_RATE[model] ?? 0.5) + promptBias + trend));
        const mentioned = rng() < rate;
        const text = composeAnswer(rng, spec, prompt.text, model, mentioned);
        // 1-4 cited pages; the brand's own site now and then, more often when it was mentioned.
        const cited = shuffled(rng, pool).slice(0, 1 + Math.floor(rng() * 4));
        if (rng() < (mentioned ? 0.35 : 0.1)) {
          const ownPage = `https://www.${spec.domain}${pick(rng, spec.ownPaths)}`;
          cited.splice(Math.floor(rng() * (cited.length + 1)), 0, ownPage);
        }
        const verdict = judgeAnswer({ answer: text, citations: cited.slice(0, 4), ...terms });
        const responseId = demoId(`response:${spec.key}:${pi}:${model}:${dayText}`);
        const collectedWithin = Math.min(MS_PER_DAY - 1, now.getTime() - day.getTime());
        out.responses.push({
          id: responseId,
          propertyId,
          promptId,
          model,
          day,
          mentioned: verdict.mentioned,
          matchedTerm: verdict.matchedTerm,
          position: verdict.position,
          sentiment: verdict.sentiment,
          excerpt: verdict.excerpt,
          text,
          collectedAt: new Date(day.getTime() + Math.floor(rng() * collectedWithin)),
          // Demo answers were asked nowhere in particular: the platforms' defaults; each is whole.
          country: null,
          language: null,
          truncated: null,
        });
        for (const [ordinal, source] of verdict.sources.entries()) {
          out.sources.push({ responseId, ordinal, ...source, propertyId, day, model });
        }
        for (const mention of verdict.competitorMentions) {
          out.mentions.push({
            responseId,
            competitorId: mention.competitorId,
            position: mention.position,
            propertyId,
            day,
            model,
          });
        }
      }
    }
  });
}
