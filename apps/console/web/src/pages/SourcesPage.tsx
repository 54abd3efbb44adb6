import { platformName } from '@vt/contracts/platform-names';
import { useParams, useSearchParams } from 'react-router';
import { RangePicker } from '../components/RangePicker.tsx';
import { Table } from '../components/Table.tsx';
import { consoleApi } from '../console-client.ts';
import { useConsoleData } from '../console-data.tsx';
import type { AnswerSources, SourceGaps } from '../console-types.ts';
import { useDayRange, withParams } from '../range.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

const percent = (share: number) => `${Math.round(share * 100)}%`;
const answersCount = (n: number) => `${n} ${n === 1 ? 'answer' : 'answers'}`;

/** What the AI answers cite: the most cited domains and pages, the property's own, and the gaps. */
export function SourcesPage() {
  const { teamId = '', propertyId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const range = useDayRange();
  const model = params.get('model') ?? '';

  const { data, error } = useConsoleData(`${teamId}/${propertyId}/${range.key}/${model}`, async () => {
    const [me, team, detail] = await Promise.all([
      consoleApi.getMe(),
      consoleApi.getTeam(teamId),
      consoleApi.getProperty(teamId, propertyId),
    ]);
    const query = { ...range.resolve(team.team.settings.defaultDayRange ?? 30), ...(model ? { model } : {}) };
    const [sources, gaps] = await Promise.all([
      consoleApi.getAnswerSources(teamId, propertyId, query),
      consoleApi.getSourceGaps(teamId, propertyId, query),
    ]);
    return { me, property: detail.property, sources, gaps };
  });

  return (
    <ViewPage me={data?.me ?? null} teamId={teamId} title="Sources" error={error} property={data?.property}>
      {!data ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          <RangePicker from={data.sources.from} to={data.sources.to} onChange={range.set} />
          <form className="filters" aria-label="Filter sources" onSubmit={(e) => e.preventDefault()}>
            <label>
              Platform{' '}
              <select value={model} onChange={(e) => setParams(withParams({ model: e.target.value }))}>
                <option value="">All platforms</option>
                {[...new Set([...data.sources.platforms, ...(model ? [model] : [])])].map((p) => (
                  <option key={p} value={p}>
                    {platformName(p)}
                  </option>
                ))}
              </select>
            </label>
          </form>
          <Cited sources={data.sources} />
          <Gaps gaps={data.gaps} brand={data.property.name} />
        </>
      )}
    </ViewPage>
  );
}

function Cited({ sources }: { sources: AnswerSources }) {
  if (sources.answers === 0 || sources.answersCiting === 0) {
    return (
      <div className="empty" data-testid="sources-empty">
        <p>
          {sources.answers === 0
            ? 'No answer collected in this range.'
            : `None of the ${sources.answers} answers in this range cites a source.`}
        </p>
        <p>Sources appear here once the AI platforms cite web pages in their answers to your prompts.</p>
      </div>
    );
  }
  const shown = (n: number, total: number, what: string) =>
    total > n ? `The ${n} ${what} cited in the most answers, of ${total}` : `Every ${what.replace(/s$/, '')} cited`;
  return (
    <>
      <section aria-labelledby="sources-title">
        <h2 id="sources-title">Most cited</h2>
        <p data-testid="sources-summary">
          <strong>{sources.answersCiting}</strong> of {sources.answers} answers cite at least one source:{' '}
          {sources.domainCount} websites, {sources.urlCount} pages.
        </p>
        <Table
          testId="source-domains"
          caption={shown(sources.domains.length, sources.domainCount, 'websites')}
          head={['Website', 'Answers citing it', 'Share of answers', 'Citations']}
          rows={sources.domains.map((d) => [
            d.own ? `${d.domain} (yours)` : d.domain,
            d.answers,
            percent(d.shareOfAnswers),
            d.citations,
          ])}
        />
        <div className="table-scroll">
          <table data-testid="source-urls">
            <caption>{shown(sources.urls.length, sources.urlCount, 'pages')}</caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Answers citing it</th>
                <th scope="col">Share of answers</th>
              </tr>
            </thead>
            <tbody>
              {sources.urls.map((u) => (
                <tr key={u.url}>
                  <td className="url">
                    <a href={u.url} target="_blank" rel="noopener noreferrer nofollow">
                      {u.url}
                    </a>
                    {u.own && ' (yours)'}
                  </td>
                  <td className="num">{u.answers}</td>
                  <td className="num">{percent(u.shareOfAnswers)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="own-pages-title">
        <h2 id="own-pages-title">Your pages cited</h2>
        {sources.ownPages.length === 0 ? (
          <p className="empty" data-testid="own-pages-empty">
            No answer in this range cites a page on {sources.ownDomain}.
          </p>
        ) : (
          <Table
            testId="own-pages"
            caption={`Pages on ${sources.ownDomain} that AI answers cite`}
            head={['Page', 'Answers citing it', 'Share of answers']}
            rows={sources.ownPages.map((p) => [p.url, p.answers, percent(p.shareOfAnswers)])}
          />
        )}
      </section>
    </>
  );
}

function Gaps({ gaps, brand }: { gaps: SourceGaps; brand: string }) {
  const platforms = gaps.platforms.filter((p) => p.answersNamingCompetitors > 0);
  return (
    <section aria-labelledby="gaps-title">
      <h2 id="gaps-title">Gaps: sources that cite competitors, never you</h2>
      <p className="hint">
        Websites cited in answers naming a competitor, and in no answer naming {brand} on the same platform in this
        range: the places to be mentioned next.
      </p>
      {platforms.length === 0 ? (
        <p className="empty" data-testid="gaps-empty">
          No answer in this range names a tracked competitor.
        </p>
      ) : (
        platforms.map((p) => (
          <div key={p.model} data-testid={`gaps-${p.model}`}>
            <h3>{platformName(p.model)}</h3>
            {p.gapCount === 0 ? (
              <p className="hint">
                No gap: every source cited beside a competitor is also cited beside {brand} (
                {answersCount(p.answersNamingCompetitors)} naming a competitor).
              </p>
            ) : (
              <Table
                testId={`gap-table-${p.model}`}
                caption={`${p.gapCount} ${p.gapCount === 1 ? 'website' : 'websites'} in ${answersCount(p.answersNamingCompetitors)} naming a competitor; ${answersCount(p.answersNamingBrand)} naming ${brand}`}
                head={['Website', 'Answers citing it', 'Competitors named there']}
                rows={p.gaps.map((g) => [g.domain, g.answers, g.competitors.join(', ')])}
              />
            )}
          </div>
        ))
      )}
    </section>
  );
}
