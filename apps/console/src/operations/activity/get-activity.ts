import { crawlActivity, crawlerRangesLoaded, findTeamProperty, leadActivity, platformNames } from '@vt/properties';
import { dayRange } from '../day-range.ts';
import { defineConsoleHandler } from '../define-console-handler.ts';

/** GET /api/properties/{id}/activity: crawler hits, AI referrals and leads over inclusive UTC days. */
export const getActivityHandler = defineConsoleHandler(
  'getActivity',
  ({ db, now }) =>
    async ({ team, params, query }) => {
      const found = await findTeamProperty(db, team.teamId, params.id);
      const id = found.id;
      const { from, to } = dayRange(query, now());
      const [crawl, leads, rangesLoaded] = await Promise.all([
        crawlActivity(db, found, from, to),
        leadActivity(db, id, from, to),
        crawlerRangesLoaded(db),
      ]);
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
        platformNames: platformNames([
          ...crawl.aiReferrals.map((r) => r.platform),
          ...leads.leads.map((l) => l.platform),
          ...leads.aiAttributed.map((r) => r.platform),
        ]),
        crawlerRangesLoaded: rangesLoaded,
      };
    },
);
