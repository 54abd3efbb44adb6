import { canManageTeam } from '@vt/accounts';
import { DEFAULT_RANGE_DAYS } from '@vt/contracts';
import { ACTIVITY_MAX_DAYS, OperationError } from '@vt/contracts/console';
import { addUtcDays, formatUtcDay, parseUtcDay, sqlReaderOf, utcDay } from '@vt/db';
import {
  addCompetitor,
  addPrompt,
  crawlActivity,
  crawlLog,
  crawlSetup,
  createProperty,
  deleteProperty,
  disconnectCrawl,
  findTeamProperty,
  leadActivity,
  listProperties,
  propertyDetail,
  reconnectCrawl,
  removeCompetitor,
  removePrompt,
  rotateCrawlToken,
  updatePrompt,
  updateProperty,
  webhookLog,
  webhookSetup,
} from '@vt/properties';
import { competitorShares, listResponses, listTasks, pageOf, visibilitySeries } from '@vt/read-model';
import type { ConsoleHandlers } from '../http/console-operation.ts';
import type { HandlerDeps } from './handler-deps.ts';

const DAY_MS = 86_400_000;

/**
 * Inclusive UTC days (the query schema has made sure each is a real day): `to` defaults to today,
 * `from` to 29 days before `to`.
 */
function dayRange(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const to = query.to ? (parseUtcDay(query.to) as Date) : utcDay(now);
  const from = query.from ? (parseUtcDay(query.from) as Date) : addUtcDays(to, 1 - DEFAULT_RANGE_DAYS);
  if (from > to)
    throw new OperationError('INVALID_PARAM', 'from is after to.', [{ path: 'from', message: 'must not be after to' }]);
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > ACTIVITY_MAX_DAYS) {
    throw new OperationError('INVALID_PARAM', `A range spans at most ${ACTIVITY_MAX_DAYS} days.`, [
      { path: 'from', message: `at most ${ACTIVITY_MAX_DAYS} days before to` },
    ]);
  }
  return { from, to };
}

/**
 * The whole of a bounded list in one answer: a range holds at most 366 days × a handful of
 * platforms of visibility points, and a property's competitors are capped when added.
 */
const EVERY_ROW = { limit: 100_000, offset: 0 };

/** The range as /v1's read model takes it. */
const asDays = (range: { from: Date; to: Date }) => ({ from: formatUtcDay(range.from), to: formatUtcDay(range.to) });

/** Properties, their setup dialogs, delivery logs and activity, always within the current team. */
export function propertyHandlers({ db, connection, now, requestRejudge }: HandlerDeps) {
  const sql = sqlReaderOf(db);
  const property = (teamId: string, params: { id: string }) => findTeamProperty(db, teamId, params.id);
  const answer = async (p: Parameters<typeof propertyDetail>[1]) => ({ property: await propertyDetail(db, p) });

  return {
    listProperties: async ({ team }) => ({ properties: await listProperties(db, team.teamId) }),
    createProperty: async ({ team, body }) => answer(await createProperty(db, { teamId: team.teamId, ...body })),
    getProperty: async ({ team, params }) => answer(await property(team.teamId, params)),
    updateProperty: async ({ team, params, body }) => {
      const updated = await updateProperty(db, await property(team.teamId, params), body);
      // New brand terms change every stored verdict: judged again, in the background.
      if (body.brandTerms) await requestRejudge(updated.id);
      return answer(updated);
    },
    deleteProperty: async ({ team, params }) => {
      await deleteProperty(db, await property(team.teamId, params));
      return undefined;
    },

    addCompetitor: async ({ team, params, body }) => {
      const p = await property(team.teamId, params);
      const competitor = await addCompetitor(db, p, body);
      await requestRejudge(p.id);
      return { competitor };
    },
    removeCompetitor: async ({ team, params }) => {
      const p = await property(team.teamId, params);
      await removeCompetitor(db, p, params.competitorId);
      await requestRejudge(p.id);
      return undefined;
    },
    addPrompt: async ({ team, params, body }) => ({
      prompt: await addPrompt(db, await property(team.teamId, params), body),
    }),
    updatePrompt: async ({ team, params, body }) => ({
      prompt: await updatePrompt(db, await property(team.teamId, params), params.promptId, body),
    }),
    removePrompt: async ({ team, params }) => {
      await removePrompt(db, await property(team.teamId, params), params.promptId);
      return undefined;
    },

    getCrawlSetup: async ({ team, params }) =>
      crawlSetup(db, connection, await property(team.teamId, params), {
        showSecrets: canManageTeam(team.role),
        now: now(),
      }),
    rotateCrawlToken: async ({ team, params }) =>
      crawlSetup(db, connection, await rotateCrawlToken(db, connection, await property(team.teamId, params)), {
        showSecrets: true,
        now: now(),
      }),
    disconnectCrawl: async ({ team, params }) =>
      crawlSetup(db, connection, await disconnectCrawl(db, await property(team.teamId, params)), {
        showSecrets: true,
        now: now(),
      }),
    reconnectCrawl: async ({ team, params }) =>
      crawlSetup(db, connection, await reconnectCrawl(db, await property(team.teamId, params), now()), {
        showSecrets: true,
        now: now(),
      }),
    getCrawlLog: async ({ team, params }) => crawlLog(db, (await property(team.teamId, params)).id),
    getWebhookSetup: async ({ team, params }) =>
      webhookSetup(db, connection, await property(team.teamId, params), { showSecrets: canManageTeam(team.role) }),
    getWebhookLog: async ({ team, params }) => webhookLog(db, (await property(team.teamId, params)).id),

    getActivity: async ({ team, params, query }) => {
      const found = await property(team.teamId, params);
      const id = found.id;
      const { from, to } = dayRange(query, now());
      const [crawl, leads] = await Promise.all([crawlActivity(db, found, from, to), leadActivity(db, id, from, to)]);
      return {
        propertyId: id,
        from: crawl.from,
        to: crawl.to,
        countDualUseAsAi: crawl.countDualUseAsAi,
        crawlerDaily: crawl.daily,
        crawlers: crawl.crawlers,
        categories: crawl.categories,
        topPages: crawl.topPages,
        aiReferrals: crawl.aiReferrals,
        aiReferralsDaily: crawl.aiReferralsDaily,
        topLandingPaths: crawl.topLandingPaths,
        recentLeads: leads.leads,
        aiLeadsDaily: leads.aiAttributed,
      };
    },

    // The /v1 data of one property, from the read model /v1 itself uses.
    getVisibilityOverTime: async ({ team, params, query }) => {
      const { id } = await property(team.teamId, params);
      const days = asDays(dayRange(query, now()));
      const { data } = await visibilitySeries(sql, [id], { model: query.model }, days, EVERY_ROW);
      return { propertyId: id, ...days, points: data };
    },
    listPropertyResponses: async ({ team, params, query }) => {
      const { id } = await property(team.teamId, params);
      const page = pageOf(query);
      const list = await listResponses(sql, [id], query, asDays(dayRange(query, now())), page);
      return { ...list, ...page };
    },
    getShareOfVoice: async ({ team, params, query }) => {
      const { id } = await property(team.teamId, params);
      const days = asDays(dayRange(query, now()));
      const { data } = await competitorShares(sql, [id], days, EVERY_ROW);
      return { propertyId: id, ...days, competitors: data };
    },
    listPropertyTasks: async ({ team, params, query }) => {
      const { id } = await property(team.teamId, params);
      const page = pageOf(query);
      return { ...(await listTasks(sql, [id], query, page)), ...page };
    },
  } satisfies Partial<ConsoleHandlers>;
}
