import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, api, type Me, type Property } from '../api.ts';
import { Header } from './Header.tsx';

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  access: 'read' | 'write';
  allProperties: boolean;
  propertyIds: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Read API keys: the list (never a key), and for owners and admins, create (shown once) and revoke. */
export function KeysPage() {
  const { teamId = '' } = useParams();
  const navigate = useNavigate();
  const [me, setMe] = useState<Me | null>(null);
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [properties, setProperties] = useState<Property[]>([]);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [who, list, props] = await Promise.all([
        api<Me>('/api/me'),
        api<{ keys: ApiKey[] }>('/api/keys', { teamId }),
        api<{ properties: Property[] }>('/api/properties', { teamId }),
      ]);
      setMe(who);
      setKeys(list.keys);
      setProperties(props.properties);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) navigate('/sign-in');
      else setError(err instanceof ApiError ? err.message : String(err));
    }
  }, [teamId, navigate]);

  useEffect(() => {
    void load();
  }, [load]);

  const role = me?.teams.find((t) => t.id === teamId)?.role;
  const canManage = role === 'owner' || role === 'admin';
  const nameOf = (id: string) => properties.find((p) => p.id === id)?.name ?? id;

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const chosen = data.getAll('propertyIds').map(String);
    try {
      const answer = await api<{ key: ApiKey; secret: string }>('/api/keys', {
        method: 'POST',
        teamId,
        body: { name: data.get('name'), access: data.get('access'), ...(chosen.length ? { propertyIds: chosen } : {}) },
      });
      setCreated({ name: answer.key.name, secret: answer.secret });
      setCopied(false);
      form.reset();
      await load();
    } catch (err) {
      setError(
        err instanceof ApiError
          ? [err.message, ...err.details.map((d) => `${d.path}: ${d.message}`)].join(' ')
          : String(err),
      );
    }
  }

  async function revoke(key: ApiKey) {
    if (!window.confirm(`Revoke ${key.name} (${key.prefix}…)? Requests with it are refused from now on.`)) return;
    try {
      await api(`/api/keys/${key.id}`, { method: 'DELETE', teamId });
      await load();
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
        <h1>Read API keys</h1>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {created && (
          <section className="once" aria-label="New key" data-testid="new-key">
            <p>
              <strong>{created.name}</strong>: copy it now. <strong>You will not see this key again</strong>: only its
              hash is kept.
            </p>
            <code data-testid="new-key-secret">{created.secret}</code>{' '}
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard?.writeText(created.secret).catch(() => undefined);
                setCopied(true);
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>{' '}
            <button type="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </section>
        )}
        {keys === null ? (
          <p className="loading">Loading…</p>
        ) : keys.length === 0 ? (
          <p className="empty">
            No key yet. {canManage ? 'Create one below to read /v1.' : 'An owner or admin creates them.'}
          </p>
        ) : (
          <table data-testid="keys">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Access</th>
                <th>Scope</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} className={k.revokedAt ? 'revoked' : undefined}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.access === 'write' ? 'Write' : 'Read'}</td>
                  <td>{k.allProperties ? 'All properties' : k.propertyIds.map(nameOf).join(', ')}</td>
                  <td>{k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : 'Never'}</td>
                  <td>
                    {k.revokedAt ? (
                      'Revoked'
                    ) : canManage ? (
                      <button type="button" onClick={() => revoke(k)}>
                        Revoke
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {canManage && (
          <form onSubmit={create} aria-label="Create a key" className="inline">
            <h2>Create a key</h2>
            <label>
              Key name <input name="name" required maxLength={200} defaultValue="API key" />
            </label>
            <label>
              Access{' '}
              <select name="access" defaultValue="read">
                <option value="read">Read</option>
                <option value="write">Write (reserved; reads today)</option>
              </select>
            </label>
            {properties.length > 0 && (
              <fieldset>
                <legend>Properties (none chosen: all)</legend>
                {properties.map((p) => (
                  <label key={p.id} className="check">
                    <input type="checkbox" name="propertyIds" value={p.id} /> {p.name}
                  </label>
                ))}
              </fieldset>
            )}
            <button type="submit">Create key</button>
          </form>
        )}
      </main>
    </>
  );
}
