import { Link, useNavigate } from 'react-router';
import { TeamLogo, teamAccent } from '../components/TeamLogo.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage } from '../console-data.tsx';
import type { Me } from '../console-types.ts';

/** The team switcher and sign-out, on every signed-in page. */
export function Header({ me, teamId }: { me: Me | null; teamId: string }) {
  const navigate = useNavigate();
  async function signOut() {
    await consoleApi.signOut().catch(() => undefined);
    navigate('/sign-in');
  }
  const accent = teamAccent(me, teamId);
  return (
    <header style={accent ? { borderBottom: `3px solid ${accent}` } : undefined}>
      <strong>AI Visibility</strong>
      <TeamLogo me={me} teamId={teamId} />
      {me && (
        <label>
          Team{' '}
          <select
            value={teamId}
            onChange={async (e) => {
              // Read before the await: React sets a controlled select back to `value` once the
              // handler returns, so afterwards the element names the old team again.
              const next = e.target.value;
              await consoleApi.selectTeam({ teamId: next });
              navigate(`/t/${next}`);
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
      {me && (
        <nav aria-label="Team" className="team-nav">
          <Link to={`/t/${teamId}`}>Properties</Link>
          <Link to={`/t/${teamId}/keys`}>API keys</Link>
          <Link to={`/t/${teamId}/settings`}>Team</Link>
          {canManage(me, teamId) && <Link to={`/t/${teamId}/mail`}>Outgoing mail</Link>}
          <Link to="/teams/new">New team</Link>
        </nav>
      )}
      <span className="spacer" />
      {me && <span className="who">{me.user.email}</span>}
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </header>
  );
}
