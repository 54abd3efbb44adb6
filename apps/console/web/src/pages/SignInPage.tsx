import { NAME_MAX, PASSWORD_MIN } from '@vt/contracts/console-limits';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PlainPage } from '../components/PageFrame.tsx';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, type ErrorShown, shownError } from '../console-data.tsx';
import { fieldText } from '../form-fields.ts';

/** Sign in, or create an account: the session comes back as an httpOnly cookie. */
export function SignInPage({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const navigate = useNavigate();
  const [error, setError] = useState<ErrorShown>(null);
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'sign-up';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const email = fieldText(form, 'email');
      const password = fieldText(form, 'password');
      await (signUp
        ? consoleApi.signUp({ name: fieldText(form, 'name'), email, password })
        : consoleApi.signIn({ email, password }));
      navigate('/');
    } catch (err) {
      setError(shownError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <PlainPage title={signUp ? 'Create your account' : 'Sign in'}>
      <h1>{signUp ? 'Create your account' : 'Sign in'}</h1>
      <form onSubmit={submit} aria-label={signUp ? 'Sign up' : 'Sign in'}>
        {signUp && (
          <label>
            Name <input name="name" required maxLength={NAME_MAX} autoComplete="name" />
          </label>
        )}
        <label>
          Email <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Password{' '}
          <input
            name="password"
            type="password"
            required
            minLength={signUp ? PASSWORD_MIN : 1}
            autoComplete={signUp ? 'new-password' : 'current-password'}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" disabled={busy}>
          {signUp ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p>{signUp ? <Link to="/sign-in">I have an account</Link> : <Link to="/sign-up">Create an account</Link>}</p>
    </PlainPage>
  );
}
