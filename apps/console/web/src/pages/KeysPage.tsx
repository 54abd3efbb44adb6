import { NAME_MAX } from '@vt/contracts/console-limits';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { useConfirm } from '../components/ConfirmDialog.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type { ApiKey, ApiKeyAccess } from '../console-types.ts';
import { fieldChoice, fieldText } from '../form-fields.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

/** Read API keys: the list (never a key), and for owners and admins, create (shown once) and revoke. */
export function KeysPage() {
  const { teamId = '' } = useParams();
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const { data, error, reload, run } = useConsoleData(teamId, async () => {
    const [me, list, props] = await Promise.all([
      consoleApi.getMe(),
      consoleApi.listApiKeys(teamId),
      consoleApi.listProperties(teamId),
    ]);
    return { me, keys: list.keys, properties: props.properties };
  });
  const me = data?.me ?? null;
  const keys = data?.keys ?? null;
  const properties = data?.properties ?? [];
  const manages = canManage(me, teamId);
  const nameOf = (id: string) => properties.find((p) => p.id === id)?.name ?? id;

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const chosen = fields.getAll('propertyIds').map(String);
    void run(async () => {
      const answer = await consoleApi.createApiKey(teamId, {
        name: fieldText(fields, 'name'),
        access: fieldChoice<ApiKeyAccess>(fields, 'access'),
        ...(chosen.length ? { propertyIds: chosen } : {}),
      });
      setCreated({ name: answer.key.name, secret: answer.secret });
      form.reset();
      await reload();
    });
  }

  const { ask, dialog } = useConfirm();

  async function revoke(key: ApiKey) {
    const yes = await ask({
      title: `Revoke ${key.name}?`,
      body: `Requests with ${key.prefix}… are refused from now on. This cannot be undone.`,
      confirm: 'Revoke key',
    });
    if (!yes) return;
    void run(async () => {
      await consoleApi.revokeApiKey(teamId, key.id);
      await reload();
    });
  }

  return (
    <ViewPage me={me} teamId={teamId} title="Read API keys" error={error} back>
      {dialog}
      {created && (
        <section className="once" aria-label="New key" data-testid="new-key">
          <p>
            <strong>{created.name}</strong>: copy it now. <strong>You will not see this key again</strong>: only its
            hash is kept.
          </p>
          <code data-testid="new-key-secret">{created.secret}</code>{' '}
          <CopyButton value={created.secret} label="the new key" />{' '}
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </section>
      )}
      {keys === null ? (
        <Loading failed={error !== null} />
      ) : keys.length === 0 ? (
        <p className="empty">
          No key yet. {manages ? 'Create one below to read /v1.' : 'An owner or admin creates them.'}
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
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
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
                  ) : manages ? (
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
      {manages && (
        <form onSubmit={create} aria-label="Create a key" className="inline">
          <h2>Create a key</h2>
          <label>
            Key name <input name="name" required maxLength={NAME_MAX} defaultValue="API key" />
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
    </ViewPage>
  );
}
