import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type { CaughtEmail, TeamEmail } from '../console-types.ts';
import { formatWhen } from '../team-time.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

/** How often the list refreshes itself while an email is still on its way. */
const REFRESH_MS = 5000;

const KIND_WORDS: Record<string, string> = {
  invitation: 'Invitation',
  alert: 'Alert',
  'weekly-report': 'Weekly report',
  test: 'Test email',
};

/**
 * The team's outgoing email, for owners and admins: each email's delivery (pending ones with
 * their attempts and last error, so an SMTP outage shows), a test email to oneself, and in
 * development (`pnpm start`) the copy the mail catcher received, its HTML sandboxed.
 */
export function OutgoingMailPage() {
  const { teamId = '' } = useParams();
  const [queuedTo, setQueuedTo] = useState<string | null>(null);
  const [shown, setShown] = useState<{ email: TeamEmail; caught: CaughtEmail } | null>(null);
  const { data, error, reload, run } = useConsoleData(teamId, async () => {
    const me = await consoleApi.getMe();
    return { me, mail: canManage(me, teamId) ? await consoleApi.listTeamEmails(teamId) : null };
  });
  const me = data?.me ?? null;
  const mail = data?.mail ?? null;
  const onTheirWay = mail?.emails.some((e) => e.status === 'pending' || e.status === 'sending') ?? false;

  useEffect(() => {
    if (!onTheirWay) return;
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [onTheirWay, reload]);

  function sendTest() {
    void run(async () => {
      const { email } = await consoleApi.sendTestEmail(teamId);
      setQueuedTo(email.recipient);
      await reload();
    });
  }

  function view(email: TeamEmail) {
    void run(async () => setShown({ email, caught: await consoleApi.getCaughtEmail(teamId, email.id) }));
  }

  return (
    <ViewPage me={me} teamId={teamId} title="Outgoing mail" error={error} back>
      {me && !canManage(me, teamId) ? (
        <p className="empty">Only owners and admins see the team’s outgoing mail.</p>
      ) : mail === null ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          <p>
            Invitations, alerts, weekly reports and test emails, newest first. An email the SMTP server cannot take yet
            stays pending and is tried again; nothing is lost.
            {mail.caughtMail && ' In this development setup every email is caught, not delivered: open one to read it.'}
          </p>
          <p className="actions">
            <button type="button" onClick={sendTest}>
              Send a test email
            </button>
            <button type="button" onClick={() => void reload()}>
              Refresh
            </button>
          </p>
          {queuedTo && (
            <p role="status" data-testid="test-email-queued">
              A test email to {queuedTo} is queued.
            </p>
          )}
          {mail.emails.length === 0 ? (
            <p className="empty">No email yet.</p>
          ) : (
            <div className="table-scroll">
              <table data-testid="outgoing-mail">
                <thead>
                  <tr>
                    <th>Queued</th>
                    <th>Kind</th>
                    <th>To</th>
                    <th>Subject</th>
                    <th>Status</th>
                    <th>
                      <span className="visually-hidden">Caught copy</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {mail.emails.map((email) => (
                    <tr key={email.id}>
                      <td>{formatWhen(email.createdAt)}</td>
                      <td>{KIND_WORDS[email.kind] ?? email.kind}</td>
                      <td>{email.recipient}</td>
                      <td>{email.subject}</td>
                      <td>
                        <Delivery email={email} />
                      </td>
                      <td>
                        {mail.caughtMail && email.status === 'sent' && (
                          <button type="button" onClick={() => view(email)}>
                            Open
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {shown && <CaughtCopy email={shown.email} caught={shown.caught} onClose={() => setShown(null)} />}
        </>
      )}
    </ViewPage>
  );
}

/** An email's status in words, with what a pending or failed one went through. */
function Delivery({ email }: { email: TeamEmail }) {
  const tries = `${email.attempts} attempt${email.attempts === 1 ? '' : 's'}`;
  return (
    <>
      <span className={`badge ${email.status}`}>{email.status}</span>
      {email.status === 'sent' && email.sentAt && <span className="hint"> {formatWhen(email.sentAt)}</span>}
      {email.status === 'pending' && email.attempts > 0 && (
        <span className="hint">
          {' '}
          {tries}; next {formatWhen(email.nextAttemptAt)}
        </span>
      )}
      {email.status === 'failed' && <span className="hint"> after {tries}</span>}
      {email.lastError && email.status !== 'sent' && (
        <>
          <br />
          <span className="hint" data-testid="last-error">
            {email.lastError}
          </span>
        </>
      )}
    </>
  );
}

/** The caught copy: the headers as text, the text part as text, the HTML part in a sandbox (no scripts). */
function CaughtCopy({ email, caught, onClose }: { email: TeamEmail; caught: CaughtEmail; onClose: () => void }) {
  return (
    <section aria-label="Caught email" data-testid="caught-email">
      <h2>{caught.subject}</h2>
      <dl>
        <dt>From</dt>
        <dd>{caught.from}</dd>
        <dt>To</dt>
        <dd>{caught.to}</dd>
        <dt>Received</dt>
        <dd>{formatWhen(caught.receivedAt)}</dd>
      </dl>
      {caught.html !== null && (
        <>
          <h3>HTML</h3>
          {/* sandbox with no permission: the HTML runs no script, submits no form, opens nothing. */}
          <iframe className="caught-html" title={`HTML of ${email.subject}`} sandbox="" srcDoc={caught.html} />
        </>
      )}
      <h3>Text</h3>
      <pre className="caught-text">{caught.text}</pre>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
