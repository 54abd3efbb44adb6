import { platformName } from '@vt/contracts/platform-names';
import { Fragment, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { AnswerDialog } from '../components/AnswerDialog.tsx';
import { CollectionPanel } from '../components/CollectionPanel.tsx';
import { DailyRateLines, ShareBars } from '../components/charts.tsx';
import { ExportCsvButton } from '../components/ExportCsvButton.tsx';
import { RangePicker } from '../components/RangePicker.tsx';
import { Table } from '../components/Table.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type {
  AnswerRow,
  PropertyDetail,
  PropertyResponses,
  ShareOfVoice,
  VisibilityOverTime,
} from '../console-types.ts';
import { locationWords } from '../location-words.ts';
import { filterPlatforms } from '../platform-filter.ts';
import { daysOf, useDayRange, withParams } from '../range.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

const PAGE = 20;
const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '–');

/** What the AI assistants answer about the brand: visibility over time, share of voice, each answer's verdict, tasks. */
export function AnswersPage() {
  const { teamId = '', propertyId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const range = useDayRange();
  const model = params.get('model') ?? '';
  const mentioned = params.get('mentioned') ?? '';
  const offset = Math.max(0, Number.parseInt(params.get('offset') ?? '0', 10) || 0);

  const { data, setData, error, run } = useConsoleData(
    `${teamId}/${propertyId}/${range.key}/${model}/${mentioned}/${offset}`,
    async () => {
      const [me, team, detail] = await Promise.all([
        consoleApi.getMe(),
        consoleApi.getTeam(teamId),
        consoleApi.getProperty(teamId, propertyId),
      ]);
      const { from, to } = range.resolve(team.team.settings.defaultDayRange ?? 30);
      const days = { from, to };
      // An empty filter is left out of the query, not sent empty.
      const filters = {
        ...(model ? { model } : {}),
        ...(mentioned === 'true' || mentioned === 'false' ? { mentioned: mentioned === 'true' } : {}),
      };
      const [visibility, share, responses, tasks, collection] = await Promise.all([
        consoleApi.getVisibilityOverTime(teamId, propertyId, days),
        consoleApi.getShareOfVoice(teamId, propertyId, days),
        consoleApi.listPropertyResponses(teamId, propertyId, { ...days, ...filters, limit: PAGE, offset }),
        consoleApi.listPropertyTasks(teamId, propertyId, { limit: 50 }),
        consoleApi.getCollection(teamId, propertyId),
      ]);
      const timeZone = team.team.settings.timeZone;
      return { me, property: detail.property, visibility, share, responses, tasks, collection, timeZone };
    },
  );

  // A new filter starts again from the first page.
  const setParam = (name: string, value: string) =>
    setParams(withParams(name === 'offset' ? { offset: value } : { [name]: value, offset: '' }));
  /** Starts a collection now; true once it is queued, with the panel's status refreshed. */
  const startCollection = async () => {
    let started = false;
    await run(async () => {
      const collection = await consoleApi.startCollection(teamId, propertyId);
      setData((current) => (current ? { ...current, collection } : current));
      started = true;
    });
    return started;
  };

  return (
    <ViewPage me={data?.me ?? null} teamId={teamId} title="AI answers" error={error} property={data?.property}>
      {!data ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          <RangePicker from={data.visibility.from} to={data.visibility.to} onChange={range.set} />
          <CollectionPanel
            status={data.collection}
            timeZone={data.timeZone}
            onStart={canManage(data.me, teamId) ? startCollection : undefined}
          />
          <Visibility visibility={data.visibility} settings={`/t/${teamId}/p/${propertyId}/settings`} />
          <Share share={data.share} property={data.property} settings={`/t/${teamId}/p/${propertyId}/settings`} />
          <section aria-labelledby="responses-title">
            <h2 id="responses-title">Answers and verdicts</h2>
            <form className="filters" aria-label="Filter answers" onSubmit={(e) => e.preventDefault()}>
              <label>
                Platform{' '}
                <select value={model} onChange={(e) => setParam('model', e.target.value)}>
                  <option value="">All platforms</option>
                  {filterPlatforms(data.collection, data.visibility, model).map((p) => (
                    <option key={p} value={p}>
                      {platformName(p)}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Mention{' '}
                <select value={mentioned} onChange={(e) => setParam('mentioned', e.target.value)}>
                  <option value="">Every answer</option>
                  <option value="true">Mentions the brand</option>
                  <option value="false">Does not mention it</option>
                </select>
              </label>
            </form>
            {data.responses.total > 0 && (
              <ExportCsvButton
                teamId={teamId}
                propertyId={propertyId}
                kind="answers"
                what="every answer of every platform with its verdict"
                from={data.visibility.from}
                to={data.visibility.to}
              />
            )}
            <Responses responses={data.responses} onOpen={(id) => setParams(withParams({ answer: id }))} />
            <Pager
              offset={offset}
              total={data.responses.total}
              onPage={(next) => setParam('offset', next ? String(next) : '')}
            />
          </section>
          <AnswerDialog
            teamId={teamId}
            propertyId={propertyId}
            responseId={params.get('answer')}
            onClose={() => setParams(withParams({ answer: '' }))}
          />
          <section aria-labelledby="tasks-title">
            <h2 id="tasks-title">Tasks</h2>
            {data.tasks.total === 0 ? (
              <p className="empty">No task yet. Accepted action-plan steps appear here and on /v1/tasks.</p>
            ) : (
              <Table
                testId="tasks"
                caption={`${data.tasks.total} tasks`}
                head={['Task', 'Status', 'Priority', 'Due', 'Assignee']}
                rows={data.tasks.data.map((t) => [
                  t.title,
                  t.status.replace('_', ' '),
                  t.priority ?? '',
                  t.dueDate ?? '',
                  t.assignee?.name ?? 'Unassigned',
                ])}
              />
            )}
          </section>
        </>
      )}
    </ViewPage>
  );
}

function Visibility({ visibility, settings }: { visibility: VisibilityOverTime; settings: string }) {
  const points = visibility.points;
  const responses = points.reduce((n, p) => n + p.responses, 0);
  const mentions = points.reduce((n, p) => n + p.mentions, 0);
  const keys = [...new Set(points.map((p) => p.model))].sort();
  // One row per day; a platform without answers that day has no point (a gap, not a zero).
  const byDay = new Map(
    daysOf(visibility.from, visibility.to).map((d) => [d, { date: d } as Record<string, number | string>]),
  );
  for (const p of points) {
    const row = byDay.get(p.date);
    if (row) row[p.model] = p.visibilityRate;
  }
  const byPlatform = keys.map((k) => {
    const mine = points.filter((p) => p.model === k);
    const r = mine.reduce((n, p) => n + p.responses, 0);
    const m = mine.reduce((n, p) => n + p.mentions, 0);
    return [platformName(k), r, m, percent(m, r)] as (string | number)[];
  });
  return (
    <section aria-labelledby="visibility-title">
      <h2 id="visibility-title">Visibility over time</h2>
      {responses === 0 ? (
        <div className="empty" data-testid="answers-empty">
          <p>No answer collected in this range.</p>
          <p>
            Each day, every active prompt is asked on each AI platform this deployment collects from (see Answer
            collection above) and the answer judged for your brand. Add the questions your customers ask under{' '}
            <Link to={settings}>Brand and prompts</Link>.
          </p>
        </div>
      ) : (
        <>
          <p>
            <strong data-testid="visibility-rate">{percent(mentions, responses)}</strong> of {responses} answers mention
            the brand ({mentions}).
          </p>
          <DailyRateLines
            data={[...byDay.values()]}
            keys={keys}
            names={platformName}
            summary={`Share of answers mentioning the brand per day and platform, ${visibility.from} to ${visibility.to}`}
            testId="visibility-chart"
          />
          <Table
            testId="visibility-by-platform"
            caption="By platform"
            head={['Platform', 'Answers', 'Mentions', 'Visibility']}
            rows={byPlatform}
          />
        </>
      )}
    </section>
  );
}

function Share({ share, property, settings }: { share: ShareOfVoice; property: PropertyDetail; settings: string }) {
  const brand = share.competitors[0]?.brand;
  return (
    <section aria-labelledby="share-title">
      <h2 id="share-title">Share of voice</h2>
      {share.competitors.length === 0 ? (
        <p className="empty">
          No competitor tracked. Add them under <Link to={settings}>Brand and prompts</Link> to see how often AI answers
          name them beside {property.name}.
        </p>
      ) : (
        <>
          <ShareBars
            rows={[
              { name: property.name, share: brand?.shareOfVoice ?? 0 },
              ...share.competitors.map((c) => ({ name: c.name, share: c.shareOfVoice })),
            ]}
            summary={`Share of voice of ${property.name} and ${share.competitors.length} competitors`}
            testId="share-chart"
          />
          <Table
            testId="share"
            caption="Mentions in the range"
            head={['Name', 'Mentions', 'Share of voice']}
            rows={[
              [`${property.name} (you)`, brand?.mentions ?? 0, `${Math.round((brand?.shareOfVoice ?? 0) * 100)}%`],
              ...share.competitors.map((c) => [c.name, c.mentions, `${Math.round(c.shareOfVoice * 100)}%`]),
            ]}
          />
        </>
      )}
    </section>
  );
}

function Responses({ responses, onOpen }: { responses: PropertyResponses; onOpen(id: string): void }) {
  if (responses.total === 0) return <p className="empty">No answer matches these filters in this range.</p>;
  return (
    <ol className="answers" data-testid="responses">
      {responses.data.map((r) => (
        <li key={r.id}>
          <p className="meta">
            <span className={`badge words ${r.mentioned ? 'verified' : 'missed'}`}>
              {r.mentioned ? 'Mentioned' : 'Not mentioned'}
            </span>{' '}
            <strong>{platformName(r.model)}</strong> · {r.date} · “{r.prompt}”
            {(r.country || r.language) && <span data-testid="asked-from"> · asked as {locationWords(r)}</span>}
            {r.truncated && (
              <span data-testid="truncated" title={`The platform stopped before the end (${r.truncated})`}>
                {' '}
                · partial answer
              </span>
            )}
            {r.mentioned && (
              <>
                {' '}
                · <span data-testid="rank">{rankWords(r)}</span> · sentiment {sentimentWord(r.sentiment)}
              </>
            )}
          </p>
          <blockquote>
            <Highlighted text={r.excerpt} term={r.matchedTerm} />
          </blockquote>
          <button type="button" className="secondary small" onClick={() => onOpen(r.id)}>
            Read the whole answer
          </button>
          {r.sourceUrls.length > 0 && (
            <p className="sources">
              Sources:{' '}
              {r.sourceUrls.map((url, i) => (
                <Fragment key={url}>
                  {i > 0 && ', '}
                  <a href={url} target="_blank" rel="noreferrer noopener">
                    {hostOf(url)}
                  </a>
                </Fragment>
              ))}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

const ORDINALS = ['th', 'st', 'nd', 'rd'];
const ordinal = (n: number) => {
  const tens = n % 100;
  return `${n}${ORDINALS[(tens - 20) % 10] ?? ORDINALS[tens] ?? ORDINALS[0]}`;
};

/** "named 2nd of 4 brands (first at character 282)": the rank, and the spec's character position. */
function rankWords(r: AnswerRow) {
  const where = r.position === null ? '' : ` (first at character ${r.position})`;
  if (r.rank === null) return `not named${where}`;
  if (r.brandsNamed <= 1) return `the only brand named${where}`;
  return `named ${ordinal(r.rank)} of ${r.brandsNamed} brands${where}`;
}

function sentimentWord(sentiment: AnswerRow['sentiment']) {
  if (sentiment === null) return '–';
  const word = sentiment > 0.05 ? 'positive' : sentiment < -0.05 ? 'negative' : 'neutral';
  return `${word} (${sentiment.toFixed(2)})`;
}

function hostOf(url: string) {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** The excerpt with every whole-word occurrence of the matched brand term marked, case-insensitive. */
export function Highlighted({ text, term }: { text: string; term: string | null }): ReactNode {
  if (!term) return text;
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = text.split(new RegExp(`(?<![\\p{L}\\p{N}])(${escaped})(?![\\p{L}\\p{N}])`, 'giu'));
  return parts.map((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the split of one fixed string.
    i % 2 === 1 ? <mark key={i}>{part}</mark> : <Fragment key={i}>{part}</Fragment>,
  );
}

function Pager({ offset, total, onPage }: { offset: number; total: number; onPage: (offset: number) => void }) {
  if (total <= PAGE) return null;
  return (
    <nav className="pager" aria-label="Answer pages">
      <button
        type="button"
        className="secondary"
        disabled={offset === 0}
        onClick={() => onPage(Math.max(0, offset - PAGE))}
      >
        Newer
      </button>
      <span>
        {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
      </span>
      <button
        type="button"
        className="secondary"
        disabled={offset + PAGE >= total}
        onClick={() => onPage(offset + PAGE)}
      >
        Older
      </button>
    </nav>
  );
}
