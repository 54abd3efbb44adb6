import { NAME_MAX, PROMPT_TEXT_MAX } from '@vt/contracts/console-limits';
import type { FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AlertRulesSection } from '../components/AlertRulesSection.tsx';
import { AlertWebhooksSection } from '../components/AlertWebhooksSection.tsx';
import { AudienceLocationFields, locationOfForm } from '../components/AudienceLocationFields.tsx';
import { collectionSentence } from '../components/CollectionPanel.tsx';
import { useConfirm } from '../components/ConfirmDialog.tsx';
import { PromptLocationEditor } from '../components/PromptLocationEditor.tsx';
import { WeeklyReportSection } from '../components/WeeklyReportSection.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type { Plan } from '../console-types.ts';
import { fieldChoice, fieldText } from '../form-fields.ts';
import { locationWords } from '../location-words.ts';
import { COPILOT_NOTE } from '../platform-filter.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

/** "Acme, ACME Corp" or one per line → the API's term list. */
const termsOf = (text: FormDataEntryValue | null) =>
  String(text ?? '')
    .split(/[\n,]/)
    .map((t) => t.trim())
    .filter(Boolean);

/** A property's name, plan and brand terms, the competitors it is compared with, and the prompts asked daily. */
export function PropertySettingsPage() {
  const { teamId = '', propertyId = '' } = useParams();
  const navigate = useNavigate();
  const { ask, dialog } = useConfirm();
  const { data, setData, error, run } = useConsoleData(`${teamId}/${propertyId}`, async () => {
    const [me, detail, collection] = await Promise.all([
      consoleApi.getMe(),
      consoleApi.getProperty(teamId, propertyId),
      consoleApi.getCollection(teamId, propertyId),
    ]);
    return { me, property: detail.property, collection };
  });
  const me = data?.me ?? null;
  const property = data?.property ?? null;
  const manages = canManage(me, teamId);
  const refresh = async () => {
    const detail = await consoleApi.getProperty(teamId, propertyId);
    setData((current) => (current ? { ...current, property: detail.property } : current));
  };
  /** Asks first; changes only on yes. */
  const confirmThen = async (question: Parameters<typeof ask>[0], change: () => Promise<unknown>) => {
    if (await ask(question)) await run(change);
  };
  const submit =
    (change: (fields: FormData) => Promise<unknown>, reset = true) =>
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      const fields = new FormData(form);
      void run(async () => {
        await change(fields);
        if (reset) form.reset();
        await refresh();
      });
    };

  return (
    <ViewPage
      me={me}
      teamId={teamId}
      title="Brand and prompts"
      error={error}
      property={property}
      onSetupChange={refresh}
    >
      {dialog}
      {!property ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          {!manages && <p className="note">Owners and admins change these; you see them as they are.</p>}
          <section aria-labelledby="brand-title">
            <h2 id="brand-title">Brand</h2>
            {manages ? (
              <form
                aria-label="Brand"
                className="inline"
                key={property.brandTerms.join('\n') + property.name + property.plan + property.countDualUseAsAi}
                onSubmit={submit(
                  (f) =>
                    consoleApi.updateProperty(teamId, propertyId, {
                      name: fieldText(f, 'name'),
                      plan: fieldChoice<Plan>(f, 'plan'),
                      brandTerms: termsOf(f.get('brandTerms')),
                      countDualUseAsAi: f.get('countDualUseAsAi') === 'on',
                    }),
                  false,
                )}
              >
                <label>
                  Name <input name="name" required maxLength={NAME_MAX} defaultValue={property.name} />
                </label>
                <label>
                  Plan{' '}
                  <select name="plan" defaultValue={property.plan}>
                    <option value="free">Free (no ingest, not on /v1)</option>
                    <option value="starter">Starter</option>
                    <option value="growth">Growth</option>
                    <option value="scale">Scale</option>
                  </select>
                </label>
                <label className="wide">
                  Brand terms (one per line: the names an answer may use for you)
                  <textarea name="brandTerms" rows={3} required defaultValue={property.brandTerms.join('\n')} />
                </label>
                <p className="hint wide">Changing the terms judges every stored answer again, in the background.</p>
                <label className="check wide">
                  <input type="checkbox" name="countDualUseAsAi" defaultChecked={property.countDualUseAsAi} /> Count
                  dual-use crawlers (search crawlers whose fetches also feed AI answers, such as Applebot, and agents
                  the public crawler lists disagree on, such as Amazonbot) in the AI totals
                </label>
                <button type="submit">Save brand</button>
              </form>
            ) : (
              <dl>
                <dt>Plan</dt>
                <dd>{property.plan}</dd>
                <dt>Brand terms</dt>
                <dd data-testid="brand-terms">{property.brandTerms.join(', ')}</dd>
                <dt>Dual-use crawlers</dt>
                <dd>{property.countDualUseAsAi ? 'Counted as AI' : 'Listed, not counted as AI'}</dd>
              </dl>
            )}
          </section>

          <section aria-labelledby="where-title">
            <h2 id="where-title">Where your buyers are</h2>
            <p className="hint">
              Each prompt is asked as from this country and in this language, on the platforms that take them (see the
              operators’ guide for which do); a prompt may set its own.
            </p>
            {manages ? (
              <form
                aria-label="Where your buyers are"
                className="inline"
                key={`${property.country}/${property.language}`}
                onSubmit={submit((f) => consoleApi.updateProperty(teamId, propertyId, locationOfForm(f)), false)}
              >
                <AudienceLocationFields
                  country={property.country}
                  language={property.language}
                  unset="Not set (each platform’s default)"
                />
                <button type="submit">Save location</button>
              </form>
            ) : (
              <p data-testid="property-location">{locationWords(property)}</p>
            )}
          </section>

          <section aria-labelledby="competitors-title">
            <h2 id="competitors-title">Competitors</h2>
            {property.competitors.length === 0 ? (
              <p className="empty">No competitor tracked: add the brands you want your share of voice compared with.</p>
            ) : (
              <ul className="rows" data-testid="competitors">
                {property.competitors.map((c) => (
                  <li key={c.id}>
                    <strong>{c.name}</strong> {c.domain && <span className="hint">{c.domain}</span>}{' '}
                    <span className="hint">matches {c.terms.join(', ')}</span>
                    {manages && (
                      <button
                        type="button"
                        className="secondary small"
                        onClick={() =>
                          confirmThen(
                            {
                              title: `Stop tracking ${c.name}?`,
                              body: 'Its mentions in stored answers go with it.',
                              confirm: 'Stop tracking',
                            },
                            async () => {
                              await consoleApi.removeCompetitor(teamId, propertyId, c.id);
                              await refresh();
                            },
                          )
                        }
                      >
                        Remove
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {manages && (
              <form
                aria-label="Add a competitor"
                className="inline"
                onSubmit={submit((f) =>
                  consoleApi.addCompetitor(teamId, propertyId, {
                    name: fieldText(f, 'name'),
                    ...(fieldText(f, 'domain') ? { domain: fieldText(f, 'domain') } : {}),
                    ...(termsOf(f.get('terms')).length ? { terms: termsOf(f.get('terms')) } : {}),
                  }),
                )}
              >
                <label>
                  Competitor <input name="name" required maxLength={NAME_MAX} />
                </label>
                <label>
                  Domain (optional) <input name="domain" placeholder="rival.com" />
                </label>
                <label>
                  Other names (optional, comma-separated) <input name="terms" />
                </label>
                <button type="submit">Add competitor</button>
              </form>
            )}
          </section>

          <section aria-labelledby="prompts-title">
            <h2 id="prompts-title">Prompts</h2>
            {/* What the collector reported: the platforms that ask, daily, and when next. */}
            <p className="hint" data-testid="prompts-schedule">
              {data ? collectionSentence(data.collection) : ''}
            </p>
            <p className="hint" data-testid="copilot-note">
              {COPILOT_NOTE}
            </p>
            {property.prompts.length === 0 ? (
              <p className="empty">No prompt yet: add the questions your customers ask an AI assistant.</p>
            ) : (
              <ul className="rows" data-testid="prompts">
                {property.prompts.map((p) => (
                  <li key={p.id} className={p.active ? undefined : 'paused'}>
                    <span>{p.text}</span> {p.tags.length > 0 && <span className="hint">{p.tags.join(', ')}</span>}{' '}
                    {!p.active && <span className="badge">paused</span>}{' '}
                    <span className="hint" data-testid="prompt-location">
                      {p.country || p.language
                        ? `asked as ${locationWords({
                            country: p.country ?? property.country,
                            language: p.language ?? property.language,
                          })} (its own)`
                        : ''}
                    </span>
                    {manages && (
                      <span className="actions">
                        <button
                          type="button"
                          className="secondary small"
                          onClick={() =>
                            run(async () => {
                              await consoleApi.updatePrompt(teamId, propertyId, p.id, { active: !p.active });
                              await refresh();
                            })
                          }
                        >
                          {p.active ? 'Pause' : 'Resume'}
                        </button>
                        <button
                          type="button"
                          className="secondary small"
                          onClick={() =>
                            confirmThen(
                              {
                                title: 'Delete this prompt?',
                                body: `“${p.text}” and every answer collected for it are deleted. Pause it to keep them.`,
                                confirm: 'Delete prompt',
                              },
                              async () => {
                                await consoleApi.removePrompt(teamId, propertyId, p.id);
                                await refresh();
                              },
                            )
                          }
                        >
                          Delete
                        </button>
                        <PromptLocationEditor
                          prompt={p}
                          onSave={(patch) =>
                            run(async () => {
                              await consoleApi.updatePrompt(teamId, propertyId, p.id, patch);
                              await refresh();
                            })
                          }
                        />
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {manages && (
              <form
                aria-label="Add a prompt"
                className="inline"
                onSubmit={submit((f) =>
                  consoleApi.addPrompt(teamId, propertyId, {
                    text: fieldText(f, 'text'),
                    ...(termsOf(f.get('tags')).length ? { tags: termsOf(f.get('tags')) } : {}),
                    ...locationOfForm(f),
                  }),
                )}
              >
                <label className="wide">
                  Prompt{' '}
                  <input
                    name="text"
                    required
                    maxLength={PROMPT_TEXT_MAX}
                    placeholder="What is the best CRM for startups?"
                  />
                </label>
                <label>
                  Tags (optional, comma-separated) <input name="tags" />
                </label>
                <AudienceLocationFields country={null} language={null} unset="The property’s" />
                <button type="submit">Add prompt</button>
              </form>
            )}
          </section>

          <AlertRulesSection teamId={teamId} propertyId={propertyId} manages={manages} />
          <AlertWebhooksSection teamId={teamId} propertyId={propertyId} manages={manages} />
          <WeeklyReportSection teamId={teamId} propertyId={propertyId} />

          {manages && (
            <section aria-labelledby="danger-title" className="danger-zone">
              <h2 id="danger-title">Delete the property</h2>
              <p>Everything collected for {property.domain} is deleted: counts, answers, leads and logs.</p>
              <button
                type="button"
                className="danger"
                onClick={() =>
                  confirmThen(
                    {
                      title: `Delete ${property.name}?`,
                      body: `Everything collected for ${property.domain} is deleted at once; this cannot be undone.`,
                      confirm: 'Delete property',
                    },
                    async () => {
                      await consoleApi.deleteProperty(teamId, propertyId);
                      navigate(`/t/${teamId}`);
                    },
                  )
                }
              >
                Delete property
              </button>
            </section>
          )}
        </>
      )}
    </ViewPage>
  );
}
