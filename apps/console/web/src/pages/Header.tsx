import { Link, useNavigate } from 'react-router';
import { consoleApi } from '../console-client.ts';
import type { Me } from '../console-types.ts';

/** The team switcher and sign-out, on every signed-in page. */
export function Header({ me, teamId }: { me: Me | null; teamId: string }) {
  const navigate = useNavigate();
  async function signOut() {
    await consoleApi.signOut().catch(() => undefined);
    navigate('/sign-in');
  }
  return (
    <header>
      <strong>AI Visibility</strong>
      {me && (
        <label>
          Team{' '}
          <select
            value={teamId}
            onChange={async (e) => {
              await consoleApi.selectTeam({ teamId: e.target.value });
              navigate(`/t/${e.target.value}`);
            }}
          >
            {me.teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.role})
              </option>
            ))}
          </select>
        </label>
      )}
      {me && <Link to={`/t/${teamId}`}>Properties</Link>}
      {me && <Link to={`/t/${teamId}/keys`}>API keys</Link>}
      {me && <Link to={`/t/${teamId}/settings`}>Team</Link>}
      <span className="spacer" />
      {me && <span className="who">{me.user.email}</span>}
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </header>
  );
}
