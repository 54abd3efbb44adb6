import { NAME_MAX } from '@vt/contracts/console-limits';
import type { FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type { Plan } from '../console-types.ts';
import { fieldChoice, fieldText } from '../form-fields.ts';
import { TeamOverview } from './TeamOverview.tsx';
import { Loading, ViewPage } from './ViewPage.tsx';

/** A team's properties; owners and admins create them. */
export function TeamPage() {
  const { teamId = '' } = useParams();
  const { data, error, reload, run } = useConsoleData(teamId, async () => {
    const [me, list] = await Promise.all([consoleApi.getMe(), consoleApi.listProperties(teamId)]);
    return { me, properties: list.properties };
  });
  const me = data?.me ?? null;
  const manages = canManage(me, teamId);

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    void run(async () => {
      await consoleApi.createProperty(teamId, {
        name: fieldText(fields, 'name'),
        domain: fieldText(fields, 'domain'),
        plan: fieldChoice<Plan>(fields, 'plan'),
      });
      form.reset();
      await reload();
    });
  }

  return (
    <ViewPage me={me} teamId={teamId} title="Properties" error={error}>
      {!data ? (
        <Loading failed={error !== null} />
      ) : data.properties.length === 0 ? (
        <p className="empty">
          No property yet. {manages ? 'Add your site below to connect it.' : 'An owner or admin adds them.'}
        </p>
      ) : (
        <>
          <TeamOverview teamId={teamId} />
          <h2>Properties</h2>
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Domain</th>
                <th>Plan</th>
                <th>
                  <span className="visually-hidden">Links</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.properties.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link to={`/t/${teamId}/p/${p.id}/activity`}>{p.name}</Link>
                  </td>
                  <td>{p.domain}</td>
                  <td>{p.plan}</td>
                  <td>
                    <Link to={`/t/${teamId}/p/${p.id}/answers`}>AI answers</Link>{' '}
                    <Link to={`/t/${teamId}/p/${p.id}/crawl`}>Crawl setup</Link>{' '}
                    <Link to={`/t/${teamId}/p/${p.id}/webhook`}>Lead webhook</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {manages && (
        <form onSubmit={create} aria-label="Add a property" className="inline">
          <h2>Add a property</h2>
          <label>
            Name <input name="name" required maxLength={NAME_MAX} />
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
    </ViewPage>
  );
}
