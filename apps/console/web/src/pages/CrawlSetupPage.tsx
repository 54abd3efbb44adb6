import { useParams, useSearchParams } from 'react-router';
import { useConfirm } from '../components/ConfirmDialog.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { attemptAnswer, reasonAndFix } from '../components/FailedAttempts.tsx';
import { PlanWarning } from '../components/PlanWarning.tsx';
import { Tabs } from '../components/Tabs.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type { CrawlSetup } from '../console-types.ts';
import { formatWhen, teamTimeZone } from '../team-time.ts';
import { Loading, RefusalWarning, SecretValue, StatusLine, ViewPage } from './ViewPage.tsx';

const STATUS_MEANING: Record<string, string> = {
  not_verified: 'Not verified: nothing has arrived yet.',
  connected: 'Connected: batches arrive and the most recent was accepted.',
  rejecting:
    'Rejecting: batches arrive and every one is turned away (none accepted in the last 24 hours); see the log for the fix.',
  nothing_arriving: 'Nothing arriving: no batch for 24 hours.',
  disconnected: 'Disconnected: ingestion is switched off; batches are refused.',
};

/** Connected while the newest attempt was refused: a batch of the last 24 hours was accepted. */
const CONNECTED_WITH_REFUSAL = 'Connected: a batch was accepted within the last 24 hours.';

const statusMeaning = (setup: CrawlSetup) =>
  setup.latestRefusal ? CONNECTED_WITH_REFUSAL : (STATUS_MEANING[setup.status] ?? '');

const CRAWL_ACTIONS = {
  rotate: consoleApi.rotateCrawlToken,
  disconnect: consoleApi.disconnectCrawl,
  reconnect: consoleApi.reconnectCrawl,
};

/** The tab of the senders that post the spec's own lines (the snippets); the others are providers. */
const OWN_SERVER = 'server';

/**
 * The crawl setup dialog: endpoint, token (owners and admins), status, how to send (your own
 * server's snippets, or a CDN's or hosting platform's own log delivery, one tab each), delivery log.
 */
export function CrawlSetupPage() {
  const { teamId = '', propertyId = '' } = useParams();
  // The chosen tab is in the query, so a reload or a shared link opens it.
  const [params, setParams] = useSearchParams();
  const tab = params.get('via') ?? OWN_SERVER;
  const selectTab = (id: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === OWN_SERVER) next.delete('via');
        else next.set('via', id);
        return next;
      },
      { replace: true },
    );
  const { data, setData, error, run } = useConsoleData(`${teamId}/${propertyId}`, async () => {
    const [me, detail, setup, log] = await Promise.all([
      consoleApi.getMe(),
      consoleApi.getProperty(teamId, propertyId),
      consoleApi.getCrawlSetup(teamId, propertyId),
      consoleApi.getCrawlLog(teamId, propertyId),
    ]);
    return { me, property: detail.property, setup, log };
  });
  const me = data?.me ?? null;
  const setup = data?.setup ?? null;
  const log = data?.log ?? null;
  const timeZone = teamTimeZone(me, teamId);

  const { ask, dialog } = useConfirm();

  async function act(action: keyof typeof CRAWL_ACTIONS) {
    const question =
      action === 'rotate'
        ? {
            title: 'Rotate the token?',
            body: 'The current token stops working at once: every sender must switch to the new one.',
            confirm: 'Rotate token',
          }
        : action === 'disconnect'
          ? {
              title: 'Disconnect crawl ingestion?',
              body: 'Every batch is refused with 403 and logged until you reconnect.',
              confirm: 'Disconnect',
            }
          : null;
    if (question && !(await ask(question))) return;
    void run(async () => {
      const updated = await CRAWL_ACTIONS[action](teamId, propertyId);
      setData((current) => (current ? { ...current, setup: updated } : current));
    });
  }

  return (
    <ViewPage me={me} teamId={teamId} title="Crawl setup" error={error} property={data?.property}>
      {dialog}
      {!setup ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          <StatusLine status={setup.status} meaning={statusMeaning(setup)} testId="crawl-status" />
          <RefusalWarning refusal={setup.latestRefusal} what="batch" timeZone={timeZone} testId="crawl-warning" />
          {data?.property && (
            <PlanWarning property={data.property} channel="crawl" manages={canManage(me, teamId)} teamId={teamId} />
          )}
          <dl>
            <dt>Endpoint</dt>
            <dd>
              <code data-testid="endpoint-url">{setup.endpointUrl}</code>{' '}
              <CopyButton value={setup.endpointUrl} label="endpoint URL" />
            </dd>
            <dt>Token</dt>
            <dd>
              <SecretValue value={setup.token} testId="crawl-token" />
            </dd>
          </dl>
          {setup.notes.map((note) => (
            <p key={note} className="note">
              {note}
            </p>
          ))}
          {canManage(me, teamId) && (
            <p className="actions">
              <button type="button" className="secondary" onClick={() => act('rotate')}>
                Rotate token
              </button>
              {setup.ingestionEnabled ? (
                <button type="button" className="danger" onClick={() => act('disconnect')}>
                  Disconnect
                </button>
              ) : (
                <button type="button" onClick={() => act('reconnect')}>
                  Reconnect
                </button>
              )}
            </p>
          )}
          <h2>Send the logs</h2>
          <Tabs
            label="Where the logs come from"
            idPrefix="crawl-via"
            selected={tab}
            onSelect={selectTab}
            items={[
              {
                id: OWN_SERVER,
                label: 'Your server',
                panel: () =>
                  setup.snippets.map((s) => (
                    <details key={s.id}>
                      <summary>{s.label}</summary>
                      <pre>{s.code}</pre>
                      <CopyButton value={s.code} label={s.label} />
                    </details>
                  )),
              },
              ...setup.providers.map((provider) => ({
                id: provider.id,
                label: provider.name,
                panel: () => <ProviderSetup provider={provider} setup={setup} />,
              })),
            ]}
          />
          <h2>Delivery log</h2>
          {!log?.entries.length ? (
            <p className="empty">No attempt yet: send a batch with one of the senders above.</p>
          ) : (
            <div className="table-scroll">
              <table data-testid="delivery-log">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Answer</th>
                    <th>Lines</th>
                    <th>Matched</th>
                    <th>Reason and fix</th>
                  </tr>
                </thead>
                <tbody>
                  {log.entries.map((e) => (
                    <tr
                      key={`${e.at}-${e.statusCode}-${e.authenticated ? '' : e.reason}`}
                      className={e.authenticated ? undefined : 'summary'}
                      data-testid={e.authenticated ? undefined : 'failed-attempts'}
                    >
                      <td>{formatWhen(e.at, timeZone)}</td>
                      <td>{attemptAnswer(e, timeZone)}</td>
                      <td>{e.linesReceived ?? ''}</td>
                      <td>{e.linesMatched ?? ''}</td>
                      <td>{reasonAndFix(e)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </ViewPage>
  );
}

/** One provider's tab: its steps in order, each value to paste with a copy button, its notes, the status. */
function ProviderSetup({ provider, setup }: { provider: CrawlSetup['providers'][number]; setup: CrawlSetup }) {
  return (
    <>
      <h3>{provider.title}</h3>
      <ol className="steps">
        {provider.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <dl className="paste">
        {provider.fields.map((field) => (
          <div key={field.id}>
            <dt>{field.label}</dt>
            <dd>
              <pre data-testid={`${provider.id}-${field.id}`}>{field.value}</pre>
              <CopyButton value={field.value} label={`${provider.name} ${field.label}`} />
            </dd>
          </div>
        ))}
      </dl>
      {provider.notes.map((note) => (
        <p key={note} className="note">
          {note}
        </p>
      ))}
      <StatusLine status={setup.status} meaning={statusMeaning(setup)} testId={`${provider.id}-status`} />
    </>
  );
}
