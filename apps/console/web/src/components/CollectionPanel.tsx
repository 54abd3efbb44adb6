import { useState } from 'react';
import type { CollectionStatus } from '../console-types.ts';
import { COPILOT_NOTE } from '../platform-filter.ts';

// What the answers page and the prompts section say of answer collection: the platforms asked
// (by product name), when, and what the last run did for this property — from what the answer
// collector reported, so the page never promises a platform that is not asked.

type Platform = CollectionStatus['platforms'][number];
type Run = NonNullable<Platform['lastRun']>;

/** Where operators read how to set a platform key (the repository's operators' guide). */
export const OPERATORS_GUIDE = 'the operators’ guide (docs/operators.md), “Collecting AI answers”';

/** An instant in the team's time zone (UTC when it has none), named. */
export function when(iso: string, timeZone?: string): string {
  const zone = timeZone ?? 'UTC';
  const text = new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
  return `${text} ${zone === 'UTC' ? 'UTC' : `(${zone})`}`;
}

/** "ChatGPT, Claude and Gemini". */
const listOf = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

export const collectedPlatforms = (status: CollectionStatus) => status.platforms.filter((p) => p.configured);

/** One sentence: which platforms ask each active prompt, how often, and when next. */
export function collectionSentence(status: CollectionStatus, timeZone?: string): string {
  if (!status.reported) return 'The answer collector has not reported yet, so prompts are not being asked.';
  const asked = collectedPlatforms(status);
  if (asked.length === 0) {
    return 'No AI platform key is set on this deployment, so prompts are not asked yet: answers start once the operator sets one.';
  }
  const next = status.nextRunAt ? ` The next run is ${when(status.nextRunAt, timeZone)}.` : '';
  return `Each active prompt is asked once a day on ${listOf(asked.map((p) => p.name))}, at ${status.collectAtUtc} UTC.${next}`;
}

/** What a run did, in words: "Finished May 10, 6:01 AM UTC: 2 of 3 answers stored, 1 failed (HTTP 401)." */
export function runOutcome(run: Run, timeZone?: string): string {
  const parts = [`${run.stored} of ${run.questions} answers stored`];
  if (run.skipped) parts.push(`${run.skipped} skipped (already answered, paused or over budget)`);
  if (run.failed) parts.push(`${run.failed} failed${run.lastError ? ` (${run.lastError})` : ''}`);
  if (!run.finishedAt && run.retries) parts.push(`${run.retries} retried${run.lastError ? ` (${run.lastError})` : ''}`);
  const how = run.trigger === 'manual' ? 'started from the console' : 'daily run';
  const state = run.finishedAt
    ? `Finished ${when(run.finishedAt, timeZone)}`
    : `Running since ${when(run.startedAt, timeZone)}`;
  return `${state} (${how}): ${parts.join(', ')}.`;
}

/**
 * Spend against budget today, for the whole deployment: "40 of 40 requests today (budget spent: 3
 * questions not sent)", or "12 requests today (no daily budget)".
 */
export function spendToday(today: Platform['today']): string {
  const sent = `${today.requests} ${today.requests === 1 ? 'request' : 'requests'}`;
  if (today.budget === null) return `${sent} today (no daily budget)`;
  const spent = today.requests >= today.budget;
  const skipped = today.skippedBudget ? `: ${today.skippedBudget} questions not sent today` : '';
  return `${today.requests} of ${today.budget} requests today${spent ? ` (budget spent${skipped})` : ''}`;
}

/** The answers page's collection section; `onStart` given to owners and admins only. */
export function CollectionPanel(props: {
  status: CollectionStatus;
  timeZone?: string;
  onStart?: () => Promise<boolean>;
}) {
  const { status, timeZone, onStart } = props;
  const [started, setStarted] = useState(false);
  const asked = collectedPlatforms(status);
  const skipped = status.platforms.filter((p) => !p.configured);
  return (
    <section aria-labelledby="collection-title" data-testid="collection">
      <h2 id="collection-title">Answer collection</h2>
      {!status.reported ? (
        <p className="empty">
          The answer collector has not reported yet: it may not be running on this deployment. Until it runs, no answer
          is collected; your operator can start it as {OPERATORS_GUIDE} describes.
        </p>
      ) : asked.length === 0 ? (
        <div className="empty" data-testid="collection-none">
          <p>
            <strong>No answers are being collected:</strong> no AI platform key is set on this deployment.
          </p>
          <p>
            Answers start once your operator sets a key for at least one platform (
            {skipped
              .filter((p) => p.reason?.endsWith('is not set'))
              .map((p) => `${p.reason?.replace(' is not set', '')} for ${p.name}`)
              .join(', ')}
            ), as {OPERATORS_GUIDE} explains.
          </p>
        </div>
      ) : (
        <>
          <p data-testid="collection-summary">{collectionSentence(status, timeZone)}</p>
          <ul className="rows" data-testid="collection-runs">
            {asked.map((p) => (
              <li key={p.platform}>
                <span>
                  <strong>{p.name}:</strong>{' '}
                  {p.lastRun ? runOutcome(p.lastRun, timeZone) : 'no run yet for this property.'}
                </span>{' '}
                <span className="hint" data-testid="spend-today">
                  {spendToday(p.today)}
                </span>
              </li>
            ))}
          </ul>
          <p className="hint">Requests and budgets are the deployment’s, shared by every property; the day is UTC.</p>
          {skipped.length > 0 && (
            <p className="hint">Not asked: {skipped.map((p) => `${p.name} (${notAskedBecause(p)})`).join('; ')}.</p>
          )}
        </>
      )}
      {status.reported && (
        <p className="hint" data-testid="copilot-note">
          {COPILOT_NOTE}
        </p>
      )}
      {onStart && asked.length > 0 && (
        <p>
          <button
            type="button"
            disabled={!status.collectNow.allowed || started}
            onClick={async () => setStarted(await onStart())}
          >
            Collect answers now
          </button>{' '}
          <span className="hint" data-testid="collect-now-note">
            {started
              ? 'Collection started: answers arrive within a few minutes; reload the page to see them.'
              : status.collectNow.availableAt
                ? `A collection was started within the hour; the next can start ${when(status.collectNow.availableAt, timeZone)}.`
                : (status.collectNow.reason ??
                  'Asks every active prompt on each platform above now, once per hour at most.')}
          </span>
        </p>
      )}
    </section>
  );
}

function notAskedBecause(p: Platform): string {
  if (p.reason?.endsWith('is not set')) return `no key: ${p.reason.replace(' is not set', '')} is not set`;
  if (p.platform === 'copilot') return 'Microsoft offers no public API for it';
  return p.reason ?? 'not configured';
}
