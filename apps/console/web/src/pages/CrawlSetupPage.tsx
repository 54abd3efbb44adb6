import { useParams } from 'react-router';
import { useConfirm } from '../components/ConfirmDialog.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import { Loading, SecretValue, StatusLine, ViewPage } from './ViewPage.tsx';

const STATUS_MEANING: Record<string, string> = {
  not_verified: 'Not verified: nothing has arrived yet.',
  connected: 'Connected: the most recent batch was accepted.',
  rejecting: 'Rejecting: every batch is turned away; see the log for the fix.',
  nothing_arriving: 'Nothing arriving: no batch for 24 hours.',
  disconnected: 'Disconnected: ingestion is switched off; batches are refused.',
};

const CRAWL_ACTIONS = {
  rotate: consoleApi.rotateCrawlToken,
  disconnect: consoleApi.disconnectCrawl,
  reconnect: consoleApi.reconnectCrawl,
};

/** The crawl setup dialog: endpoint, token (owners and admins), status, senders, delivery log. */
export function CrawlSetupPage() {
  const { teamId = '', propertyId = '' } = useParams();
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
          <StatusLine status={setup.status} meaning={STATUS_MEANING[setup.status] ?? ''} testId="crawl-status" />
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
          <h2>Senders</h2>
          {setup.snippets.map((s) => (
            <details key={s.id}>
              <summary>{s.label}</summary>
              <pre>{s.code}</pre>
              <CopyButton value={s.code} label={s.label} />
            </details>
          ))}
          <h2>Delivery log</h2>
          {!log?.entries.length ? (
            <p className="empty">No attempt yet: send a batch with one of the senders above.</p>
          ) : (
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
                  <tr key={e.at + e.statusCode}>
                    <td>{new Date(e.at).toLocaleString()}</td>
                    <td>
                      {e.statusCode} {e.outcome}
                    </td>
                    <td>{e.linesReceived ?? ''}</td>
                    <td>{e.linesMatched ?? ''}</td>
                    <td>{e.reason ? `${e.reason}: ${e.fix ?? ''}` : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </ViewPage>
  );
}
