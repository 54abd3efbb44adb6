import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PlainPage } from '../components/PageFrame.tsx';
import { consoleApi } from '../console-client.ts';
import { BAD_UNSUBSCRIBE_LINK, unsubscribeErrorText } from '../plain-errors.ts';

/**
 * Where a weekly report's unsubscribe link opens, signed in or not: one click stops the report.
 * Not on load, since link scanners open links; the mail client's own Unsubscribe needs no page.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const unsubscribe = async () => {
    try {
      const done = await consoleApi.unsubscribeWeeklyReportByLink(token);
      setOutcome(
        done.unsubscribed
          ? `You will receive no more weekly reports of ${done.propertyName}.`
          : 'This weekly report had stopped already: there is nothing more to do.',
      );
    } catch (err) {
      setFailed(unsubscribeErrorText(err));
    }
  };
  // A link without its token (cut before it) is as broken as a changed one, and is said so at once.
  const problem = failed ?? (token ? null : BAD_UNSUBSCRIBE_LINK);
  return (
    <PlainPage title="Unsubscribe">
      <h1>Unsubscribe from the weekly report</h1>
      {outcome ? (
        <p role="status">{outcome}</p>
      ) : (
        <>
          {problem && (
            <p role="alert" className="error">
              {problem}
            </p>
          )}
          <button type="button" onClick={() => void unsubscribe()} disabled={!token}>
            Unsubscribe
          </button>
        </>
      )}
    </PlainPage>
  );
}
