import { RangePicker } from '../components/RangePicker.tsx';
import { SetupSteps } from '../components/SetupChecklist.tsx';
import { type Shown, showAverage, showCount, showPercent } from '../components/trend.ts';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, useConsoleData } from '../console-data.tsx';
import type { Overview, OverviewFigures } from '../console-types.ts';
import { daysOf, useDayRange } from '../range.ts';
import { Loading } from './ViewPage.tsx';

/** The figures in the order of the table's columns, with their headings. */
const COLUMNS: [string, string, (f: OverviewFigures) => Shown | null][] = [
  ['Visibility', 'Share of AI answers that mention the brand', (f) => showPercent(f.visibility)],
  ['Share of voice', 'Brand mentions over brand and competitor mentions', (f) => showPercent(f.shareOfVoice)],
  [
    'Average rank',
    'Place among the brands an answer names (1 = named first); lower is better',
    (f) => showAverage(f.averageRank, { lowerIsBetter: true }),
  ],
  ['Sentiment', 'Average sentiment of the answers that mention the brand', (f) => showAverage(f.averageSentiment)],
  ['AI crawler visits', 'Hits by AI crawlers', (f) => showCount(f.crawlerHits)],
  ['AI-referred visits', 'People who came from an AI answer', (f) => showCount(f.aiVisits)],
  ['AI leads', 'Leads who came from an AI answer', (f) => showCount(f.aiLeads)],
];

/**
 * The home overview of a team: each property's figures over the chosen days beside the previous
 * period of the same length, the team's total, what changed since last week, and the setup of
 * the properties not finished.
 */
export function TeamOverview({ teamId }: { teamId: string }) {
  const range = useDayRange();
  const { data, error } = useConsoleData(`${teamId}/overview/${range.key}`, async () => {
    const team = await consoleApi.getTeam(teamId);
    const { from, to } = range.resolve(team.team.settings.defaultDayRange ?? 30);
    return consoleApi.getOverview(teamId, { from, to });
  });
  return (
    <section aria-labelledby="overview-title" className="overview">
      <h2 id="overview-title">Overview</h2>
      <ErrorLine error={error} />
      {!data ? (
        <Loading failed={error !== null} />
      ) : (
        <OverviewBody overview={data} teamId={teamId} onRange={range.set} />
      )}
    </section>
  );
}

function OverviewBody(props: {
  overview: Overview;
  teamId: string;
  onRange: (r: { from: string; to: string }) => void;
}) {
  const { overview, teamId } = props;
  const days = daysOf(overview.from, overview.to).length;
  const several = overview.properties.length > 1;
  const unfinished = overview.properties.filter((p) => !p.setup.complete);
  return (
    <>
      <RangePicker from={overview.from} to={overview.to} onChange={props.onRange} />
      <p className="hint">
        {overview.from} to {overview.to} ({days} days), each figure against the {days} days before (
        {overview.previousFrom} to {overview.previousTo}). Percentages change in points, counts in percent.
      </p>
      <div className="table-scroll">
        <table data-testid="overview" className="overview-table">
          <thead>
            <tr>
              <th scope="col">Property</th>
              {COLUMNS.map(([heading, help]) => (
                <th key={heading} scope="col" title={help}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {overview.properties.map((p) => (
              <tr key={p.id} data-property={p.name}>
                {/* Plain text: the list below links each property, and one link per name keeps it findable. */}
                <th scope="row">{p.name}</th>
                {COLUMNS.map(([heading, , pick]) => (
                  <FigureCell key={heading} shown={pick(p.figures)} />
                ))}
              </tr>
            ))}
          </tbody>
          {several && (
            <tfoot>
              <tr data-property="All properties">
                <th scope="row">All properties</th>
                {COLUMNS.map(([heading, , pick]) => (
                  <FigureCell key={heading} shown={pick(overview.total)} />
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      {several && (
        <p className="hint">
          Share of voice and rank are read against each property’s own competitors, so they have no team total.
        </p>
      )}

      <h2>What changed since last week</h2>
      <p className="hint">
        {overview.whatChanged.from} to {overview.whatChanged.to} against the 7 days before.
      </p>
      {overview.whatChanged.changes.length ? (
        <ul className="changes" data-testid="what-changed">
          {overview.whatChanged.changes.map((c) => (
            <li key={`${c.propertyId} ${c.text}`} className={`change ${c.direction}`}>
              {several && <strong>{c.propertyName}: </strong>}
              {c.text}
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty" data-testid="what-changed-none">
          Nothing moved enough to mention this week.
        </p>
      )}

      {unfinished.length > 0 && (
        <>
          <h2>Finish setting up</h2>
          {unfinished.map((p) => (
            <div key={p.id} className="setup">
              <h3>{p.name}</h3>
              <SetupSteps teamId={teamId} propertyId={p.id} checklist={p.setup} />
            </div>
          ))}
        </>
      )}
    </>
  );
}

function FigureCell({ shown }: { shown: Shown | null }) {
  if (!shown) return <td className="num hint">n/a</td>;
  return (
    <td className="num">
      <span className="figure">{shown.value}</span>
      {shown.trend && (
        <span className={`trend ${shown.tone}`} title={shown.label}>
          {shown.trend}
        </span>
      )}
      <span className="visually-hidden">{shown.label}</span>
    </td>
  );
}
