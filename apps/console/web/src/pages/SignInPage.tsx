import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api.ts';
import { ErrorLine, errorText } from '../console-data.tsx';

/** Sign in, or create an account: the session comes back as an httpOnly cookie. */
export function SignInPage({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'sign-up';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await api(`/api/auth/${mode}`, {
        method: 'POST',
        body: signUp
          ? { name: form.get('name'), email: form.get('email'), password: form.get('password') }
          : { email: form.get('email'), password: form.get('password') },
      });
      navigate('/');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="narrow">
      <h1>{signUp ? 'Create your account' : 'Sign in'}</h1>
      <form onSubmit={submit} aria-label={signUp ? 'Sign up' : 'Sign in'}>
        {signUp && (
          <label>
            Name <input name="name" required maxLength={200} autoComplete="name" />
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
            minLength={signUp ? 10 : 1}
            autoComplete={signUp ? 'new-password' : 'current-password'}
          />
        </label>
        <ErrorLine error={error} />
        <button type="submit" disabled={busy}>
          {signUp ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p>{signUp ? <Link to="/sign-in">I have an account</Link> : <Link to="/sign-up">Create an account</Link>}</p>
    </main>
  );
}
