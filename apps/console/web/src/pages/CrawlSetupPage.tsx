import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, api, type CrawlLog, type CrawlSetup, type Me } from '../api.ts';
import { Header } from './Header.tsx';

const STATUS_MEANING: Record<string, string> = {
  not_verified: 'Not verified: nothing has arrived yet.',
  connected: 'Connected: the most recent batch was accepted.',
  rejecting: 'Rejecting: every batch is turned away; see the log for the fix.',
  nothing_arriving: 'Nothing arriving: no batch for 24 hours.',
  disconnected: 'Disconnected: ingestion is switched off; batches are refused.',
};

/** The crawl setup dialog: endpoint, token (owners and admins), status, senders, delivery log. */
export function CrawlSetupPage() {
  const { teamId = '', propertyId = '' } = useParams();
  const navigate = useNavigate();
  const [me, setMe] = useState<Me | null>(null);
  const [setup, setSetup] = useState<CrawlSetup | null>(null);
  const [log, setLog] = useState<CrawlLog | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/properties/${propertyId}/crawl`;

  const load = useCallback(async () => {
    try {
      const [who, dialog, attempts] = await Promise.all([
        api<Me>('/api/me'),
        api<CrawlSetup>(base, { teamId }),
        api<CrawlLog>(`${base}/log`, { teamId }),
      ]);
      setMe(who);
      setSetup(dialog);
      setLog(attempts);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) navigate('/sign-in');
      else setError(err instanceof ApiError ? err.message : String(err));
    }
  }, [base, teamId, navigate]);

  useEffect(() => {
    void load();
  }, [load]);

  const role = me?.teams.find((t) => t.id === teamId)?.role;
  const canManage = role === 'owner' || role === 'admin';

  async function act(action: 'rotate' | 'disconnect' | 'reconnect') {
    if (action === 'rotate' && !window.confirm('Rotate the token? The current token stops working at once.')) return;
    try {
      setSetup(await api<CrawlSetup>(`${base}/${action}`, { method: 'POST', teamId }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  }

  return (
    <>
      <Header me={me} teamId={teamId} />
      <main>
        <p>
          <Link to={`/t/${teamId}`}>← Properties</Link>
        </p>
        <h1>Crawl setup</h1>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {!setup ? (
          <p className="loading">Loading…</p>
        ) : (
          <>
            <p>
              <span className={`badge ${setup.status}`} data-testid="crawl-status">
                {setup.status.replace('_', ' ')}
              </span>{' '}
              {STATUS_MEANING[setup.status]}
            </p>
            <dl>
              <dt>Endpoint</dt>
              <dd>
                <code data-testid="endpoint-url">{setup.endpointUrl}</code>
              </dd>
              <dt>Token</dt>
              <dd>
                {setup.token ? (
                  <code data-testid="crawl-token">{setup.token}</code>
                ) : (
                  <span data-testid="crawl-token-hidden">Shown to owners and admins only.</span>
                )}
              </dd>
            </dl>
            {setup.notes.map((note) => (
              <p key={note} className="note">
                {note}
              </p>
            ))}
            {canManage && (
              <p className="actions">
                <button type="button" onClick={() => act('rotate')}>
                  Rotate token
                </button>
                {setup.ingestionEnabled ? (
                  <button type="button" onClick={() => act('disconnect')}>
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
      </main>
    </>
  );
}
