import { NAME_MAX } from '@vt/contracts/console-limits';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api-error.ts';
import { PlainPage } from '../components/PageFrame.tsx';
import { SlugField } from '../components/SlugField.tsx';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, type ErrorShown, shownError } from '../console-data.tsx';
import type { SlugCheck } from '../console-types.ts';
import { fieldText } from '../form-fields.ts';
import { slugCheckText } from '../plain-errors.ts';

/** A new team, with the slug checked as it is typed; its creator becomes its owner. */
export function NewTeamPage() {
  const navigate = useNavigate();
  const [slug, setSlug] = useState('');
  const [check, setCheck] = useState<SlugCheck | null>(null);
  const [error, setError] = useState<ErrorShown>(null);

  useEffect(() => {
    if (!slug) return setCheck(null);
    const timer = setTimeout(() => {
      consoleApi.checkSlug({ slug }).then(setCheck, () => setCheck(null));
    }, 250);
    return () => clearTimeout(timer);
  }, [slug]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      const created = await consoleApi.createTeam({ name: fieldText(form, 'name'), slug });
      navigate(`/t/${created.team.id}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return navigate('/sign-in');
      setError(shownError(err));
    }
  }

  return (
    <PlainPage title="Create a team">
      <h1>Create a team</h1>
      <form onSubmit={submit} aria-label="Create a team">
        <label>
          Name <input name="name" required maxLength={NAME_MAX} />
        </label>
        <SlugField value={slug} onChange={(e) => setSlug(e.target.value)} />
        {check && (
          <p className={check.available ? 'ok' : 'error'} aria-live="polite">
            {slugCheckText(check)}
          </p>
        )}
        <ErrorLine error={error} />
        <button type="submit" disabled={check !== null && !check.available}>
          Create team
        </button>
      </form>
    </PlainPage>
  );
}
