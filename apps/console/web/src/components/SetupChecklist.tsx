import { ONBOARDING_CATEGORY_MAX } from '@vt/contracts/console-limits';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, useConsoleData } from '../console-data.tsx';
import type { OnboardingChecklist } from '../console-types.ts';

type Step = OnboardingChecklist['steps'][number]['step'];

/**
 * Each step in words, and the property tab where it is done. No label contains a tab's name
 * (Lead webhook, AI answers…), so a link found by its name stays one link.
 */
const STEPS: Record<Step, { label: string; tab: string; howTo: string }> = {
  prompts: { label: 'Add the prompts to track', tab: 'settings', howTo: 'the questions your buyers ask AI assistants' },
  competitors: { label: 'Add competitors', tab: 'settings', howTo: 'the brands you want to be compared with' },
  crawl: { label: 'Connect a crawl source', tab: 'crawl', howTo: 'done when the first batch of log lines is accepted' },
  webhook: { label: 'Verify the webhook for leads', tab: 'webhook', howTo: 'done when the first lead is stored' },
  answers: {
    label: 'Answers from AI platforms arriving',
    tab: 'answers',
    howTo: 'answers arrive once your operator has set at least one AI platform key on the answer collector',
  },
};

/** The steps as a list that ticks: each links to where it is done. */
export function SetupSteps(props: { teamId: string; propertyId: string; checklist: OnboardingChecklist }) {
  const done = props.checklist.steps.filter((s) => s.done).length;
  return (
    <>
      <p className="hint">
        {done} of {props.checklist.steps.length} steps done
      </p>
      <ol className="checklist" data-testid={`setup-${props.propertyId}`}>
        {props.checklist.steps.map((s) => (
          <li
            key={s.step}
            className={s.done ? 'checklist-step done' : 'checklist-step todo'}
            data-step={s.step}
            data-done={s.done}
          >
            <span className="tick" aria-hidden="true">
              {s.done ? '✓' : '○'}
            </span>{' '}
            <Link to={`/t/${props.teamId}/p/${props.propertyId}/${STEPS[s.step].tab}`}>{STEPS[s.step].label}</Link>{' '}
            <span className="visually-hidden">{s.done ? '(done)' : '(to do)'}</span>
            <span className="hint">
              {s.detail}
              {s.done ? '' : `: ${STEPS[s.step].howTo}`}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * A property's setup checklist on its pages, until every step is done, with prompts and
 * competitors to start from (one click adds one). It reloads when `watch` changes (the page's
 * data after a change of its own) and tells the page through `onChange` when it added something.
 */
export function PropertySetup(props: {
  teamId: string;
  propertyId: string;
  manages: boolean;
  watch?: unknown;
  onChange?: () => unknown;
}) {
  const { teamId, propertyId } = props;
  const [category, setCategory] = useState('');
  const { data, error, reload, run } = useConsoleData(`${teamId}/${propertyId}/setup/${category}`, () =>
    consoleApi.getOnboarding(teamId, propertyId, category ? { category } : {}),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `watch` is the page's data; its change is the signal.
  useEffect(() => {
    if (data) void reload();
  }, [props.watch]);
  const id = useId();
  if (!data || data.checklist.complete) return null;
  const add = (change: () => Promise<unknown>) =>
    run(async () => {
      await change();
      await reload();
      await props.onChange?.();
    });
  const suggest = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCategory(String(new FormData(event.currentTarget).get('category') ?? '').trim());
  };
  const stepDone = (step: Step) => data.checklist.steps.find((s) => s.step === step)?.done ?? false;

  return (
    <section className="setup" aria-labelledby={`${id}-title`} data-testid="property-setup">
      <h2 id={`${id}-title`}>Finish setting up</h2>
      <ErrorLine error={error} />
      <SetupSteps teamId={teamId} propertyId={propertyId} checklist={data.checklist} />
      {props.manages && (!stepDone('prompts') || !stepDone('competitors')) && (
        <details open={!stepDone('prompts')}>
          <summary>Suggestions to start from</summary>
          <form className="inline" onSubmit={suggest} aria-label="Suggest prompts for a category">
            <label>
              What you sell, in a few words{' '}
              <input name="category" maxLength={ONBOARDING_CATEGORY_MAX} placeholder="web analytics" />
            </label>
            <button type="submit" className="secondary">
              Suggest prompts
            </button>
          </form>
          <ul className="suggestions" data-testid="suggested-prompts" aria-label="Suggested prompts">
            {data.suggestedPrompts.map((p) => (
              <li key={p.text} className="suggestion">
                <button
                  type="button"
                  className="secondary small"
                  onClick={() => add(() => consoleApi.addPrompt(teamId, propertyId, { text: p.text }))}
                >
                  Add prompt
                </button>{' '}
                {p.text} <span className="hint">{p.why}</span>
              </li>
            ))}
          </ul>
          {data.suggestedCompetitors.length ? (
            <ul className="suggestions" data-testid="suggested-competitors" aria-label="Suggested competitors">
              {data.suggestedCompetitors.map((c) => (
                <li key={c.domain} className="suggestion">
                  <button
                    type="button"
                    className="secondary small"
                    onClick={() =>
                      add(() => consoleApi.addCompetitor(teamId, propertyId, { name: c.name, domain: c.domain }))
                    }
                  >
                    Add competitor
                  </button>{' '}
                  {c.name}{' '}
                  <span className="hint">
                    ({c.domain}, cited {c.citations} times in your AI answers)
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="hint">Competitor suggestions appear once AI answers cite other sites for your prompts.</p>
          )}
        </details>
      )}
    </section>
  );
}
