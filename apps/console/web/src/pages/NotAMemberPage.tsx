import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PlainPage } from '../components/PageFrame.tsx';
import { consoleApi } from '../console-client.ts';
import type { Me } from '../console-types.ts';
import { NOT_A_MEMBER } from '../plain-errors.ts';
import { Header } from './Header.tsx';

/**
 * A URL for a team the person is not in. The API answers it exactly as a team that does not
 * exist, and so does this page (saying which would tell outsiders which team ids are real);
 * it lists the person's own teams instead of leaving them at a dead end.
 */
export function NotAMemberPage() {
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    consoleApi.getMe().then(setMe, () => setMe(null));
  }, []);
  const home = me?.currentTeamId ?? me?.teams[0]?.id;
  return (
    // The person's own header (their current team in the switcher, sign-out) once they are known.
    <PlainPage title="Team not available" header={home ? <Header me={me} teamId={home} /> : undefined}>
      <h1>Team not available</h1>
      <p data-testid="not-a-member">{NOT_A_MEMBER}</p>
      {me && me.teams.length > 0 && (
        <nav aria-label="Your teams">
          <h2>Your teams</h2>
          <ul>
            {me.teams.map((team) => (
              <li key={team.id}>
                <Link to={`/t/${team.id}`}>{team.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <p>
        <Link to="/teams/new">Create a team</Link>
      </p>
    </PlainPage>
  );
}
