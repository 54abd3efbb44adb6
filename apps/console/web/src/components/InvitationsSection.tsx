import { roleChangeRefusal } from '@vt/contracts/role-rules';
import { type FormEvent, useEffect, useState } from 'react';
import { consoleApi } from '../console-client.ts';
import type { Invitation, Role } from '../console-types.ts';
import { fieldChoice, fieldText } from '../form-fields.ts';
import { formatWhen } from '../team-time.ts';
import { useConfirm } from './ConfirmDialog.tsx';

const ROLES: Role[] = ['owner', 'admin', 'member'];

/**
 * Owners' and admins' way to bring people in: invite by email with a role (the person signs up
 * or in from the link and says yes), and the open invitations with resend and revoke.
 */
export function InvitationsSection(props: {
  teamId: string;
  myRole: Role;
  timeZone?: string;
  /** Runs a change, showing its error in the page's error line. */
  run: (change: () => Promise<unknown>) => Promise<void>;
}) {
  const { teamId, myRole, run } = props;
  const { ask, dialog } = useConfirm();
  const [invitations, setInvitations] = useState<Invitation[] | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const refresh = async () => setInvitations((await consoleApi.listInvitations(teamId)).invitations);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded again when the team changes.
  useEffect(() => {
    void run(refresh);
  }, [teamId]);

  function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const f = new FormData(form);
    setSent(null);
    void run(async () => {
      const { invitation } = await consoleApi.inviteMember(teamId, {
        email: fieldText(f, 'email'),
        role: fieldChoice<Role>(f, 'role'),
      });
      form.reset();
      setSent(`Invitation sent to ${invitation.email}.`);
      await refresh();
    });
  }

  return (
    <>
      {dialog}
      <form aria-label="Invite by email" className="inline" onSubmit={invite}>
        <label>
          Email <input name="email" type="email" required />
        </label>
        <label>
          Role{' '}
          <select name="role" defaultValue="member">
            {ROLES.map((r) => (
              <option key={r} value={r} disabled={roleChangeRefusal(myRole, null, r) !== null}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Send invitation</button>
      </form>
      <p role="status" className="ok" data-testid="invitation-sent">
        {sent}
      </p>
      <h3 id="invitations-title">Pending invitations</h3>
      {invitations && invitations.length === 0 && <p className="empty">No invitation is waiting for an answer.</p>}
      {invitations && invitations.length > 0 && (
        <div className="table-scroll">
          <table data-testid="invitations" aria-labelledby="invitations-title">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Last sent</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((inv) => {
                const refusal = roleChangeRefusal(myRole, null, inv.role);
                return (
                  <tr key={inv.id} data-testid={`invitation-${inv.email}`}>
                    <td>{inv.email}</td>
                    <td>{inv.role}</td>
                    <td>
                      {inv.state === 'expired'
                        ? 'expired: resend it'
                        : `pending until ${formatWhen(inv.expiresAt, props.timeZone)}`}
                    </td>
                    <td>
                      {formatWhen(inv.lastSentAt, props.timeZone)}
                      {inv.sendCount > 1 && <span className="hint"> ({inv.sendCount} sends)</span>}
                    </td>
                    <td>
                      <button
                        type="button"
                        className="secondary small"
                        disabled={refusal !== null}
                        title={refusal ?? undefined}
                        onClick={() =>
                          void run(async () => {
                            await consoleApi.resendInvitation(teamId, inv.id);
                            setSent(`Invitation sent again to ${inv.email}; the earlier link no longer works.`);
                            await refresh();
                          })
                        }
                      >
                        Resend
                      </button>{' '}
                      <button
                        type="button"
                        className="secondary small"
                        disabled={refusal !== null}
                        title={refusal ?? undefined}
                        onClick={async () => {
                          const yes = await ask({
                            title: `Revoke the invitation to ${inv.email}?`,
                            body: 'Its link stops working at once.',
                            confirm: 'Revoke invitation',
                          });
                          if (!yes) return;
                          void run(async () => {
                            await consoleApi.revokeInvitation(teamId, inv.id);
                            setSent(null);
                            await refresh();
                          });
                        }}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
