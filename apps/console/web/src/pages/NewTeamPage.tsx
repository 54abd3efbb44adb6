import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api, type SlugCheck } from '../api.ts';
import { ErrorLine, errorText } from '../console-data.tsx';

/** A new team, with the slug checked as it is typed; its creator becomes its owner. */
export function NewTeamPage() {
  const navigate = useNavigate();
  const [slug, setSlug] = useState('');
  const [check, setCheck] = useState<SlugCheck | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!slug) return setCheck(null);
    const timer = setTimeout(() => {
      api<SlugCheck>(`/api/teams/check-slug?slug=${encodeURIComponent(slug)}`).then(setCheck, () => setCheck(null));
    }, 250);
    return () => clearTimeout(timer);
  }, [slug]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      const created = await api<{ team: { id: string } }>('/api/teams', {
        method: 'POST',
        body: { name: form.get('name'), slug },
      });
      navigate(`/t/${created.team.id}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return navigate('/sign-in');
      setError(errorText(err));
    }
  }

  return (
    <main className="narrow">
      <h1>Create a team</h1>
      <form onSubmit={submit} aria-label="Create a team">
        <label>
          Name <input name="name" required maxLength={200} />
        </label>
        <label>
          URL name (slug) <input name="slug" required value={slug} onChange={(e) => setSlug(e.target.value)} />
        </label>
        {check && (
          <p className={check.available ? 'ok' : 'error'} aria-live="polite">
            {check.available ? `${check.slug} is available` : check.message}
          </p>
        )}
        <ErrorLine error={error} />
        <button type="submit" disabled={check !== null && !check.available}>
          Create team
        </button>
      </form>
    </main>
  );
}
