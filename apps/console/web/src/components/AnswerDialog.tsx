import { platformName } from '@vt/contracts/platform-names';
import { useEffect, useRef } from 'react';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, useConsoleData } from '../console-data.tsx';
import { locationWords } from '../location-words.ts';
import { othersNamed, rankText } from '../verdict-words.ts';
import { HighlightedText } from './HighlightedText.tsx';

/**
 * One whole answer in a modal dialog: the verdict, the text with the brand and the competitors
 * marked, the competitors it names and its citations. Open while `responseId` is set (the view
 * keeps it in the URL, so an answer can be linked to); Escape or Close calls `onClose`.
 */
export function AnswerDialog(props: {
  teamId: string;
  propertyId: string;
  responseId: string | null;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const { teamId, propertyId, responseId } = props;
  const { data, error } = useConsoleData(`${teamId}/${propertyId}/${responseId ?? ''}`, async () =>
    responseId ? (await consoleApi.getAnswer(teamId, propertyId, responseId)).answer : null,
  );
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (responseId && !dialog.open) dialog.showModal();
    if (!responseId && dialog.open) dialog.close();
  }, [responseId]);
  const answer = data && data.id === responseId ? data : null;

  return (
    <dialog ref={ref} className="answer" aria-labelledby="answer-title" onClose={props.onClose}>
      <div className="answer-head">
        <h2 id="answer-title">{answer ? `${platformName(answer.model)} · ${answer.date}` : 'Answer'}</h2>
        <button type="button" className="secondary small" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      <ErrorLine error={error} />
      {!answer ? (
        // Only while an answer is asked for: the closed dialog stays in the page, and a hidden
        // "Loading…" there would read as a view that never finished loading.
        !error && responseId && <p className="loading">Loading…</p>
      ) : (
        <div data-testid="answer-detail">
          <p className="prompt-asked">
            Asked: <q>{answer.prompt}</q>{' '}
            <span className="hint" data-testid="answer-asked-from">
              as {locationWords(answer, 'the platform’s default location and language')}
            </span>
          </p>
          <p className="meta" data-testid="answer-verdict">
            <span className={`badge words ${answer.mentioned ? 'verified' : 'missed'}`}>
              {answer.mentioned ? 'Mentioned' : 'Not mentioned'}
            </span>{' '}
            {answer.mentioned ? (
              <>
                {rankText(answer.rank, answer.brandsNamed)} · sentiment {answer.sentimentWord} · first named at
                character {answer.position}
              </>
            ) : (
              othersNamed(answer.brandsNamed)
            )}
          </p>
          <p className="legend hint">
            <mark className="brand">Your brand</mark> <mark className="competitor">Competitors</mark>
          </p>
          {answer.truncated && (
            <p className="note" data-testid="answer-truncated">
              Partial answer: the platform stopped before the end ({answer.truncated}). The text and the verdict are
              what it answered; asking again would stop at the same limit.
            </p>
          )}
          <div className="answer-text" data-testid="answer-text">
            <HighlightedText text={answer.text} highlights={answer.highlights} />
          </div>
          {answer.competitors.length > 0 && (
            <p data-testid="answer-competitors">
              Competitors named, in order: {answer.competitors.map((c) => c.name).join(', ')}
            </p>
          )}
          <h3>Sources cited</h3>
          {answer.citations.length === 0 ? (
            <p className="hint">This answer cites no source.</p>
          ) : (
            <ol className="citations" data-testid="answer-citations">
              {answer.citations.map((c) => (
                <li key={c.url}>
                  <a href={c.url} target="_blank" rel="noopener noreferrer nofollow">
                    {c.url}
                  </a>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </dialog>
  );
}
