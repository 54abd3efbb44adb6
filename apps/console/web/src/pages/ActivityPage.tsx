import { Link, useParams } from 'react-router';
import { StackedDailyBars } from '../components/charts.tsx';
import { ExportCsvButton } from '../components/ExportCsvButton.tsx';
import { RangePicker } from '../components/RangePicker.tsx';
import { Table } from '../components/Table.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type { Activity, PropertyDetail } from '../console-types.ts';
import { daysOf, pivotByDay, useDayRange } from '../range.ts';
import { formatWhen } from '../team-time.ts';
import { verifiedShare } from '../verified-share.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** What AI crawlers read, which humans AI answers sent, and the leads they became, over a day range. */
export function ActivityPage() {
  const { teamId = '', propertyId = '' } = useParams();
  const range = useDayRange();
  const { data, error } = useConsoleData(`${teamId}/${propertyId}/${range.key}`, async () => {
    const [me, team, detail] = await Promise.all([
      consoleApi.getMe(),
      consoleApi.getTeam(teamId),
      consoleApi.getProperty(teamId, propertyId),
    ]);
    const { from, to } = range.resolve(team.team.settings.defaultDayRange ?? 30);
    const activity = await consoleApi.getActivity(teamId, propertyId, { from, to });
    return { me, property: detail.property, activity, timeZone: team.team.settings.timeZone };
  });

  return (
    <ViewPage me={data?.me ?? null} teamId={teamId} title="Activity" error={error} property={data?.property}>
      {!data ? (
        <Loading failed={error !== null} />
      ) : (
        <ActivityViews
          activity={data.activity}
          property={data.property}
          teamId={teamId}
          timeZone={data.timeZone}
          onRange={range.set}
          manages={canManage(data.me, teamId)}
        />
      )}
    </ViewPage>
  );
}

function ActivityViews({
  activity,
  property,
  teamId,
  timeZone,
  onRange,
  manages,
}: {
  activity: Activity;
  property: PropertyDetail;
  teamId: string;
  timeZone?: string;
  onRange: (r: { from: string; to: string }) => void;
  /** Owners and admins: they alone export leads. */
  manages: boolean;
}) {
  const when = (iso: string | null) => formatWhen(iso, timeZone);
  const platform = (id: string) => activity.platformNames[id] ?? id;
  const days = daysOf(activity.from, activity.to);
  const hits = sum(activity.crawlerDaily.map((d) => d.hits));
  const dualUse = sum(activity.categories.filter((c) => !c.countedAsAi).map((c) => c.hits));
  const verified = sum(activity.crawlerDaily.map((d) => d.verified));
  const share = verifiedShare({
    hits,
    verified,
    unverified: sum(activity.crawlerDaily.map((d) => d.unverified)),
    rangesLoaded: activity.crawlerRangesLoaded,
  });
  const visits = sum(activity.aiReferrals.map((r) => r.visits));
  const aiLeads = sum(activity.aiLeadsDaily.map((d) => d.leads));
  const crawl = `/t/${teamId}/p/${activity.propertyId}/crawl`;
  /** The CSV export of one section, over the range the page shows. */
  const exportOf = (kind: 'crawlers' | 'referrals' | 'leads', what: string, refusal?: string) => (
    <ExportCsvButton
      teamId={teamId}
      propertyId={activity.propertyId}
      kind={kind}
      what={what}
      from={activity.from}
      to={activity.to}
      {...(refusal ? { refusal } : {})}
    />
  );

  const crawlerChart = pivotByDay(
    days,
    activity.crawlerDaily.flatMap((d) => [
      { date: d.date, key: 'verified', value: d.verified },
      { date: d.date, key: 'unverified', value: d.unverified },
      { date: d.date, key: 'unverifiable', value: d.unverifiable },
    ]),
    (r) => r.date,
    (r) => r.key,
    (r) => r.value,
  );
  const referralChart = pivotByDay(
    days,
    activity.aiReferralsDaily,
    (r) => r.date,
    (r) => r.platform,
    (r) => r.visits,
  );
  const leadChart = pivotByDay(
    days,
    activity.aiLeadsDaily,
    (r) => r.date,
    (r) => r.platform,
    (r) => r.leads,
  );

  return (
    <>
      <RangePicker from={activity.from} to={activity.to} onChange={onRange} />
      <dl className="totals" data-testid="activity-totals">
        <div>
          <dt>AI crawler hits</dt>
          <dd data-testid="total-hits">{hits.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Verified</dt>
          <dd data-testid="verified-share">
            {share.value} <small className="hint">{share.detail}</small>
          </dd>
        </div>
        <div>
          <dt>AI-referred visits</dt>
          <dd data-testid="total-visits">{visits.toLocaleString()}</dd>
        </div>
        <div>
          <dt>AI-attributed leads</dt>
          <dd data-testid="total-leads">{aiLeads.toLocaleString()}</dd>
        </div>
      </dl>

      <section aria-labelledby="crawlers-title">
        <h2 id="crawlers-title">AI crawler hits per day</h2>
        {hits === 0 && dualUse === 0 ? (
          <div className="empty" data-testid="crawl-empty">
            <p>No AI crawler visit in this range.</p>
            {property.plan === 'free' ? (
              <p data-testid="not-ingesting">
                This property is on the free plan: crawl activity is kept for paid plans only. Change its plan under{' '}
                <Link to={`/t/${teamId}/p/${activity.propertyId}/settings`}>Brand and prompts</Link>.
              </p>
            ) : property.subscriptionStatus !== 'active' ? (
              <p data-testid="not-ingesting">
                This property's subscription has lapsed: batches are refused until it is active again.
              </p>
            ) : null}
            <p>
              Send your site's request log to the ingest endpoint: the <Link to={crawl}>crawl setup</Link> has the
              endpoint, the token and ready-to-run senders. Only AI crawlers and AI-referred visits are kept.
            </p>
          </div>
        ) : (
          <>
            {exportOf('crawlers', 'AI crawler hits per day and crawler')}
            <StackedDailyBars
              data={crawlerChart.data}
              keys={['verified', 'unverified', 'unverifiable']}
              summary={`${hits} AI crawler hits from ${activity.from} to ${activity.to}, ${verified} verified`}
              testId="crawler-chart"
            />
            {dualUse > 0 && !activity.countDualUseAsAi && (
              <p className="note" data-testid="dual-use-note">
                {dualUse.toLocaleString()} hits from dual-use crawlers (search crawlers whose fetches also feed AI
                answers, such as Applebot, and agents the public crawler lists disagree on, such as Amazonbot) are
                listed below but not counted as AI. Count them under{' '}
                <Link to={`/t/${teamId}/p/${activity.propertyId}/settings`}>Brand and prompts</Link>.
              </p>
            )}
            <p className="hint">
              Verified: the request came from the operator's published IP ranges. Unverified: it claimed an AI crawler's
              name from elsewhere. Unverifiable: the operator publishes no ranges.
            </p>
            <div className="columns">
              <Table
                testId="crawlers"
                caption="By crawler"
                head={['Crawler', 'Operator', 'Category', 'Hits', 'Verified']}
                rows={activity.crawlers.map((c) => [
                  c.crawler,
                  c.operatorName,
                  categoryLabel(c.category, c.countedAsAi),
                  c.hits,
                  c.verified,
                ])}
              />
              <Table
                testId="categories"
                caption="By category"
                head={['Category', 'Hits', 'Verified']}
                rows={activity.categories.map((c) => [categoryLabel(c.category, c.countedAsAi), c.hits, c.verified])}
              />
              <Table
                testId="top-pages"
                caption="Top pages (all time)"
                head={['Path', 'Hits', 'Last read']}
                rows={activity.topPages.map((p) => [p.path, p.hits, when(p.lastSeenAt)])}
              />
            </div>
          </>
        )}
      </section>

      <section aria-labelledby="referrals-title">
        <h2 id="referrals-title">Visits from AI answers</h2>
        {visits === 0 ? (
          <p className="empty">
            No visit from an AI assistant in this range. People who click a link in ChatGPT, Perplexity, Claude, Gemini
            or Copilot show up here from the same request log.
          </p>
        ) : (
          <>
            {exportOf('referrals', 'AI-referred visits per day, platform and landing page')}
            <StackedDailyBars
              data={referralChart.data}
              keys={referralChart.keys}
              names={(key) => activity.platformNames[key] ?? key}
              summary={`${visits} AI-referred visits from ${activity.from} to ${activity.to}`}
              testId="referral-chart"
            />
            <div className="columns">
              <Table
                testId="referrals"
                caption="By platform"
                head={['Platform', 'Visits']}
                rows={activity.aiReferrals.map((r) => [platform(r.platform), r.visits])}
              />
              <Table
                testId="landing-paths"
                caption="Landing pages"
                head={['Path', 'Visits']}
                rows={activity.topLandingPaths.map((p) => [p.path, p.visits])}
              />
            </div>
          </>
        )}
      </section>

      <section aria-labelledby="leads-title">
        <h2 id="leads-title">Leads</h2>
        {activity.recentLeads.length > 0 &&
          exportOf(
            'leads',
            'every lead received, with its contact details',
            manages ? undefined : 'Owners and admins export leads: they hold people’s names and emails.',
          )}
        {aiLeads > 0 && (
          <StackedDailyBars
            data={leadChart.data}
            keys={leadChart.keys}
            names={(key) => activity.platformNames[key] ?? key}
            summary={`${aiLeads} AI-attributed leads from ${activity.from} to ${activity.to}`}
            testId="lead-chart"
          />
        )}
        {activity.recentLeads.length === 0 ? (
          <p className="empty">
            No lead yet. Point your form or CRM at the{' '}
            <Link to={`/t/${teamId}/p/${activity.propertyId}/webhook`}>lead webhook</Link>: each lead is attributed to
            the AI platform that sent its visitor.
          </p>
        ) : (
          <Table
            testId="recent-leads"
            caption="Recent leads (the 20 newest, any day)"
            head={['Received', 'Contact', 'AI platform', 'Landing page', 'Referrer']}
            rows={activity.recentLeads
              .slice(0, 20)
              .map((l) => [
                when(l.receivedAt),
                l.email ?? l.contact,
                l.matched ? platform(l.platform) : 'not from AI',
                l.landingPath ?? '',
                l.referrer ?? l.utmSource ?? '',
              ])}
          />
        )}
      </section>
    </>
  );
}

const CATEGORY_LABELS: Record<string, string> = {
  'ai-training': 'AI training',
  'ai-search': 'AI search',
  'ai-assistant': 'AI assistant (user-triggered)',
  'ai-coding-agent': 'AI coding agent',
  'ai-browser-agent': 'AI browser agent',
  'dual-use': 'Dual-use crawler',
};

/** A category in words, saying when it is left out of the AI totals. */
function categoryLabel(category: string | null, countedAsAi: boolean) {
  const label = category ? (CATEGORY_LABELS[category] ?? category) : 'Uncategorised';
  return countedAsAi ? label : `${label} (not counted as AI)`;
}
