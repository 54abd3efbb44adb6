import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, api, type Me, type Property } from '../api.ts';
import { Header } from './Header.tsx';

/** A team's properties; owners and admins create them. */
export function TeamPage() {
  const { teamId = '' } = useParams();
  const navigate = useNavigate();
  const [me, setMe] = useState<Me | null>(null);
  const [properties, setProperties] = useState<Property[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [who, list] = await Promise.all([
        api<Me>('/api/me'),
        api<{ properties: Property[] }>('/api/properties', { teamId }),
      ]);
      setMe(who);
      setProperties(list.properties);
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

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    try {
      await api('/api/properties', {
        method: 'POST',
        teamId,
        body: { name: data.get('name'), domain: data.get('domain'), plan: data.get('plan') },
      });
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

  return (
    <>
      <Header me={me} teamId={teamId} />
      <main>
        <h1>Properties</h1>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        {properties === null ? (
          <p className="loading">Loading…</p>
        ) : properties.length === 0 ? (
          <p className="empty">
            No property yet. {canManage ? 'Add your site below to connect it.' : 'An owner or admin adds them.'}
          </p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Domain</th>
                <th>Plan</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {properties.map((p) => (
                <tr key={p.id}>
                  <td>{p.name}</td>
                  <td>{p.domain}</td>
                  <td>{p.plan}</td>
                  <td>
                    <Link to={`/t/${teamId}/p/${p.id}/crawl`}>Crawl setup</Link>{' '}
                    <Link to={`/t/${teamId}/p/${p.id}/webhook`}>Lead webhook</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {canManage && (
          <form onSubmit={create} aria-label="Add a property" className="inline">
            <h2>Add a property</h2>
            <label>
              Name <input name="name" required maxLength={200} />
            </label>
            <label>
              Domain <input name="domain" required placeholder="example.com" />
            </label>
            <label>
              Plan{' '}
              <select name="plan" defaultValue="growth">
                <option value="free">Free</option>
                <option value="starter">Starter</option>
                <option value="growth">Growth</option>
                <option value="scale">Scale</option>
              </select>
            </label>
            <button type="submit">Add property</button>
          </form>
        )}
      </main>
    </>
  );
}
