import { NAME_MAX, PASSWORD_MIN } from '@vt/contracts/console-limits';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api-error.ts';
import { PlainPage } from '../components/PageFrame.tsx';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, type ErrorShown, shownError } from '../console-data.tsx';
import type { InvitationPreview, Me } from '../console-types.ts';
import { fieldText } from '../form-fields.ts';
import { Loading } from './ViewPage.tsx';

type Loaded = { invitation: InvitationPreview | null; me: Me | null };

/** The token from `/invite#<token>`: a fragment never reaches a server, a log or a Referer. */
const tokenOfHash = (hash: string) => {
  try {
    return decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    return ''; // not valid percent-encoding: no token
  }
};

const ROLE_WORDS = { owner: 'an owner', admin: 'an admin', member: 'a member' } as const;

/**
 * Where an invitation's link opens: what it is for, then sign up (the address fixed) or sign in,
 * and accept. A link that was revoked, expired, used already or never valid is a page saying so.
 */
export function InvitePage() {
  const navigate = useNavigate();
  // Read from the router: a second link pasted into the same tab changes only the fragment.
  const token = tokenOfHash(useLocation().hash);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<ErrorShown>(null);
  const [busy, setBusy] = useState(false);
  const [mode, setMode] = useState<'sign-up' | 'sign-in'>('sign-up');

  useEffect(() => {
    setLoaded(null);
    setError(null);
    const invitation = token
      ? consoleApi.getInvitation(token).then(
          (r) => r.invitation,
          (err: unknown) => {
            if (err instanceof ApiError && err.status < 500) return null;
            throw err;
          },
        )
      : Promise.resolve(null);
    Promise.all([invitation, consoleApi.getMe().catch(() => null)]).then(
      ([inv, me]) => setLoaded({ invitation: inv, me }),
      (err: unknown) => setError(shownError(err)),
    );
  }, [token]);

  async function act(step: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await step();
      const accepted = await consoleApi.acceptInvitation(token);
      navigate(`/t/${accepted.teamId}`);
    } catch (err) {
      setError(shownError(err));
    } finally {
      setBusy(false);
    }
  }

  function signUpOrIn(event: FormEvent<HTMLFormElement>, email: string) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = fieldText(form, 'password');
    void act(() =>
      mode === 'sign-up'
        ? consoleApi.signUp({ name: fieldText(form, 'name'), email, password })
        : consoleApi.signIn({ email, password }),
    );
  }

  if (!loaded) {
    return (
      <PlainPage title="Invitation">
        <ErrorLine error={error} />
        <Loading failed={error !== null} />
      </PlainPage>
    );
  }
  const { invitation, me } = loaded;
  if (!invitation) {
    return (
      <Outcome title="This invitation link is not valid" testId="invite-invalid">
        It may be cut short or mistyped, or a newer invitation was sent since: open the link from the latest email, or
        ask the team for a new one.
      </Outcome>
    );
  }
  if (invitation.state === 'accepted') {
    return (
      <Outcome title="This invitation was accepted already" testId="invite-accepted">
        {invitation.email} joined {invitation.teamName} with it. <Link to="/">Open the console</Link>.
      </Outcome>
    );
  }
  if (invitation.state === 'revoked') {
    return (
      <Outcome title="This invitation was withdrawn" testId="invite-revoked">
        {invitation.teamName} withdrew it. If you expected to join, ask {invitation.invitedBy?.name ?? 'the team'} to
        invite you again.
      </Outcome>
    );
  }
  if (invitation.state === 'expired') {
    return (
      <Outcome title="This invitation expired" testId="invite-expired">
        Invitations work for 7 days. Ask {invitation.invitedBy?.name ?? 'the team'} to send it again: the new email has
        a new link.
      </Outcome>
    );
  }

  const heading = `Join ${invitation.teamName}`;
  return (
    <PlainPage title={heading}>
      <h1>{heading}</h1>
      <p data-testid="invite-summary">
        {invitation.invitedBy ? `${invitation.invitedBy.name} invited you` : 'You are invited'} to join{' '}
        <strong>{invitation.teamName}</strong> as {ROLE_WORDS[invitation.role]}. The invitation is for{' '}
        <strong>{invitation.email}</strong>.
      </p>
      {me && me.user.email === invitation.email ? (
        <>
          <ErrorLine error={error} />
          <button type="button" disabled={busy} onClick={() => void act(async () => undefined)}>
            Accept and join
          </button>
        </>
      ) : me ? (
        <>
          <p data-testid="invite-other-account">
            You are signed in as {me.user.email}. Sign out, then sign in or sign up as {invitation.email} to accept.
          </p>
          <ErrorLine error={error} />
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void consoleApi.signOut().then(
                () => setLoaded({ invitation, me: null }),
                (err: unknown) => setError(shownError(err)),
              )
            }
          >
            Sign out
          </button>
        </>
      ) : (
        <>
          <form
            onSubmit={(e) => signUpOrIn(e, invitation.email)}
            aria-label={mode === 'sign-up' ? 'Sign up and join' : 'Sign in and join'}
          >
            <label>
              Email <input name="email" type="email" value={invitation.email} readOnly autoComplete="email" />
            </label>
            {mode === 'sign-up' && (
              <label>
                Name <input name="name" required maxLength={NAME_MAX} autoComplete="name" />
              </label>
            )}
            <label>
              Password{' '}
              <input
                name="password"
                type="password"
                required
                minLength={mode === 'sign-up' ? PASSWORD_MIN : 1}
                autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
              />
            </label>
            <ErrorLine error={error} />
            <button type="submit" disabled={busy}>
              {mode === 'sign-up' ? 'Create account and join' : 'Sign in and join'}
            </button>
          </form>
          <p>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setError(null);
                setMode(mode === 'sign-up' ? 'sign-in' : 'sign-up');
              }}
            >
              {mode === 'sign-up' ? `I have an account with ${invitation.email}` : 'I need an account'}
            </button>
          </p>
        </>
      )}
    </PlainPage>
  );
}

function Outcome({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <PlainPage title={title}>
      <h1>{title}</h1>
      <p data-testid={testId}>{children}</p>
    </PlainPage>
  );
}
