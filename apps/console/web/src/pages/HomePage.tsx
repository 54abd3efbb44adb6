import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api-error.ts';
import { PlainPage } from '../components/PageFrame.tsx';
import { consoleApi } from '../console-client.ts';
import { Loading } from './ViewPage.tsx';

/** `/`: the person's current team, else creating one; signing in first when there is no session. */
export function HomePage() {
  const navigate = useNavigate();
  useEffect(() => {
    consoleApi.getMe().then(
      (me) => {
        const teamId = me.currentTeamId ?? me.teams[0]?.id;
        navigate(teamId ? `/t/${teamId}` : '/teams/new', { replace: true });
      },
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 401) navigate('/sign-in', { replace: true });
      },
    );
  }, [navigate]);
  return (
    <PlainPage title="Loading">
      <Loading />
    </PlainPage>
  );
}
