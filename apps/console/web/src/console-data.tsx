import { canManageTeam } from '@vt/contracts/role-rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from './api-error.ts';
import type { Me } from './console-types.ts';
import { plainText, type ShownError, shownError } from './plain-errors.ts';

/** An error as a plain sentence; `shownError` adds the API's own words for the details toggle. */
export const errorText = (err: unknown): string => plainText(err);
export { shownError };

/** What an error line shows: a ShownError, or a sentence the page wrote itself. */
export type ErrorShown = ShownError | string | null;

/** Owners and admins change things; members read. */
export const canManage = (me: Me | null, teamId: string) => {
  const role = me?.teams.find((t) => t.id === teamId)?.role;
  return role !== undefined && canManageTeam(role);
};

/**
 * A view's data: loaded when `key` (the route's ids) changes and on `reload()`, with the error
 * in words. A lapsed session goes to sign-in. `run` performs a change and shows its error the same way.
 */
export function useConsoleData<T>(key: string, load: () => Promise<T>) {
  const navigate = useNavigate();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const latestLoad = useRef(load);
  latestLoad.current = load;

  const run = useCallback(
    async (change: () => Promise<unknown>) => {
      try {
        await change();
        setError(null);
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) navigate('/sign-in');
        else setError(shownError(err));
      }
    },
    [navigate],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what is loaded; the loader is read from its ref.
  const reload = useCallback(() => run(async () => setData(await latestLoad.current())), [key, run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, setData, error, reload, run };
}

/** The error line every view shows above its content. */
export function ErrorLine({ error }: { error: ErrorShown }) {
  if (!error) return null;
  const { text, technical } = typeof error === 'string' ? { text: error, technical: undefined } : error;
  // Only the sentence is the alert (what a screen reader announces, what tests read); the API's
  // words sit beside it.
  return (
    <div className="error-line">
      <p role="alert" className="error">
        {text}
      </p>
      {technical && (
        <details className="technical">
          <summary>Technical details</summary>
          <pre>{technical}</pre>
        </details>
      )}
    </div>
  );
}
