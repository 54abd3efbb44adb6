import { platformName } from '@vt/contracts/platform-names';
import { Link, useParams, useSearchParams } from 'react-router';
import { AnswerDialog } from '../components/AnswerDialog.tsx';
import { consoleApi } from '../console-client.ts';
import { useConsoleData } from '../console-data.tsx';
import type { PromptMatrix } from '../console-types.ts';
import { withParams } from '../range.ts';
import { othersNamed, rankText } from '../verdict-words.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

const TREND_DAYS = ['7', '14', '30'] as const;
type TrendDays = (typeof TREND_DAYS)[number];
type Cell = PromptMatrix['prompts'][number]['cells'][number];

/**
 * Each prompt against each AI platform: the newest answer's verdict (named or not, the brand's rank
 * among the brands named, the sentiment) and how many of the last days named the brand against the
 * days before. A verdict opens its whole answer.
 */
export function PromptMatrixPage() {
  const { teamId = '', propertyId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const asked = params.get('days');
  const trendDays: TrendDays = TREND_DAYS.find((d) => d === asked) ?? '7';
  const openAnswer = params.get('answer');

  const { data, error } = useConsoleData(`${teamId}/${propertyId}/${trendDays}`, async () => {
    const [me, detail, matrix] = await Promise.all([
      consoleApi.getMe(),
      consoleApi.getProperty(teamId, propertyId),
      consoleApi.getPromptMatrix(teamId, propertyId, { trendDays }),
    ]);
    return { me, property: detail.property, matrix };
  });

  return (
    <ViewPage me={data?.me ?? null} teamId={teamId} title="Prompts × platforms" error={error} property={data?.property}>
      {!data ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          <form className="filters" aria-label="Trend" onSubmit={(e) => e.preventDefault()}>
            <label>
              Trend over{' '}
              <select value={trendDays} onChange={(e) => setParams(withParams({ days: e.target.value }))}>
                {TREND_DAYS.map((d) => (
                  <option key={d} value={d}>
                    the last {d} days
                  </option>
                ))}
              </select>
            </label>
            <span className="hint">against the {trendDays} days before, up to today (UTC)</span>
          </form>
          <Matrix
            matrix={data.matrix}
            settings={`/t/${teamId}/p/${propertyId}/settings`}
            onOpen={(responseId) => setParams(withParams({ answer: responseId }))}
          />
          <AnswerDialog
            teamId={teamId}
            propertyId={propertyId}
            responseId={openAnswer}
            onClose={() => setParams(withParams({ answer: '' }))}
          />
        </>
      )}
    </ViewPage>
  );
}

function Matrix(props: { matrix: PromptMatrix; settings: string; onOpen(responseId: string): void }) {
  const { matrix } = props;
  if (matrix.prompts.length === 0) {
    return (
      <p className="empty" data-testid="matrix-empty">
        No prompt yet. Add the questions your customers ask under <Link to={props.settings}>Brand and prompts</Link>.
      </p>
    );
  }
  if (matrix.platforms.length === 0) {
    return (
      <p className="empty" data-testid="matrix-empty">
        No answer collected yet: the verdicts appear here once the prompts have been asked.
      </p>
    );
  }
  return (
    <>
      <p className="hint">
        Each cell is the newest answer to the prompt on the platform (select it to read the whole answer), then the days
        the brand was named, of the days with an answer, in the last {matrix.trendDays} days and the {matrix.trendDays}{' '}
        before.
      </p>
      <div className="table-scroll matrix-scroll">
        <table className="matrix" data-testid="prompt-matrix">
          <caption>Latest verdicts</caption>
          <thead>
            <tr>
              <th scope="col">Prompt</th>
              {matrix.platforms.map((p) => (
                <th key={p} scope="col">
                  {platformName(p)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.prompts.map((prompt) => (
              <tr key={prompt.id}>
                <th scope="row" className="prompt">
                  {prompt.text}
                  {!prompt.active && <span className="hint"> (paused)</span>}
                </th>
                {prompt.cells.map((cell) => (
                  <td key={cell.model} data-testid={`cell-${cell.model}`}>
                    <Verdict
                      cell={cell}
                      platform={platformName(cell.model)}
                      prompt={prompt.text}
                      onOpen={props.onOpen}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Verdict(props: { cell: Cell; platform: string; prompt: string; onOpen(responseId: string): void }) {
  const { latest, trend } = props.cell;
  if (!latest) return <span className="hint">No answer yet</span>;
  const detail = latest.mentioned
    ? [rankText(latest.rank, latest.brandsNamed), latest.sentimentWord].filter(Boolean).join(' · ')
    : othersNamed(latest.brandsNamed);
  const change = trend.mentionedDays - trend.previousMentionedDays;
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'same';
  return (
    <>
      <button type="button" className="verdict" onClick={() => props.onOpen(latest.responseId)}>
        {/* The name starts with what the button does and keeps the visible words (WCAG 2.5.3). */}
        <span className="visually-hidden">
          Read {props.platform}'s answer to “{props.prompt}”:{' '}
        </span>
        <span className={`badge words ${latest.mentioned ? 'verified' : 'missed'}`}>
          {latest.mentioned ? 'Mentioned' : 'Not mentioned'}
        </span>{' '}
        <span className="verdict-detail">{detail}</span> <span className="hint">{latest.date}</span>
      </button>{' '}
      <span className={`trend ${direction}`} data-testid="trend">
        <span aria-hidden="true">{direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■'} </span>
        Named {trend.mentionedDays} of {trend.answeredDays} days (before: {trend.previousMentionedDays} of{' '}
        {trend.previousAnsweredDays})
      </span>
    </>
  );
}
