import { NAME_MAX, URL_MAX } from '@vt/contracts/console-limits';
import { canManageTeam } from '@vt/contracts/role-rules';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useConfirm } from '../components/ConfirmDialog.tsx';
import { InvitationsSection } from '../components/InvitationsSection.tsx';
import { SlugField } from '../components/SlugField.tsx';
import { consoleApi } from '../console-client.ts';
import { useConsoleData } from '../console-data.tsx';
import type { Me, Member, Role, TeamDetail, TeamSettings } from '../console-types.ts';
import { removalReason, roleChangeReason } from '../roles.ts';
import { teamSavedMessage } from '../team-saved.ts';
import { Loading, ViewPage } from './ViewPage.tsx';

const ROLES: Role[] = ['owner', 'admin', 'member'];

/** The zones this browser knows, offered as the time zone is typed. */
const TIME_ZONES: string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC', 'Europe/Paris'];

/**
 * The team's name, slug, settings and branding, its members with their roles, and (for owners and
 * admins) invitations by email: the way in that asks the person first.
 */
export function TeamSettingsPage() {
  const { teamId = '' } = useParams();
  const navigate = useNavigate();
  const { ask, dialog } = useConfirm();
  const { data, setData, error, run } = useConsoleData(teamId, async () => {
    const [me, team] = await Promise.all([consoleApi.getMe(), consoleApi.getTeam(teamId)]);
    return { me, team };
  });
  const detail = data?.team ?? null;
  const refresh = async () => {
    const team = await consoleApi.getTeam(teamId);
    setData((current) => (current ? { ...current, team } : current));
  };
  const manages = detail ? canManageTeam(detail.role) : false;
  // The last save, confirmed in words; cleared when the form is edited again.
  const [saved, setSaved] = useState<string | null>(null);

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const text = (name: string) => String(f.get(name) ?? '').trim();
    const optional = (name: string) => (text(name) ? { [name]: text(name) } : {});
    const before = detail?.team;
    setSaved(null);
    void run(async () => {
      const updated = await consoleApi.updateTeam(teamId, {
        name: text('name'),
        slug: text('slug'),
        settings: {
          ...optional('timeZone'),
          weekStartsOn: text('weekStartsOn') as TeamSettings['weekStartsOn'],
          defaultDayRange: Number(text('defaultDayRange')) as TeamSettings['defaultDayRange'],
        },
        branding: { ...optional('displayName'), ...optional('logoUrl'), accentColor: text('accentColor') },
      });
      // The header's logo and every page's times come with /api/me: read it again.
      const me = await consoleApi.getMe();
      setData((current) => (current ? { me, team: updated } : current));
      if (before) setSaved(teamSavedMessage(before, updated.team));
    });
  }

  return (
    <ViewPage me={data?.me ?? null} teamId={teamId} title="Team" error={error} back>
      {dialog}
      {!detail ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          <section aria-labelledby="team-title">
            <h2 id="team-title">Settings and branding</h2>
            {!manages && <p className="note">Owners and admins change these.</p>}
            <form
              aria-label="Team settings"
              className="inline"
              onSubmit={save}
              onInput={() => setSaved(null)}
              key={detail.team.slug + detail.team.name}
            >
              <fieldset disabled={!manages} className="contents">
                <label>
                  Name <input name="name" required maxLength={NAME_MAX} defaultValue={detail.team.name} />
                </label>
                <SlugField defaultValue={detail.team.slug} />
                <label>
                  Time zone{' '}
                  <input
                    name="timeZone"
                    placeholder="Europe/Paris"
                    list="time-zones"
                    aria-describedby="time-zone-hint"
                    defaultValue={detail.team.settings.timeZone ?? ''}
                  />
                  <datalist id="time-zones">
                    {TIME_ZONES.map((zone) => (
                      <option key={zone} value={zone} />
                    ))}
                  </datalist>
                  <small className="hint" id="time-zone-hint">
                    Times on the activity and setup pages show in it; empty: each viewer’s own. Day totals stay UTC
                    days.
                  </small>
                </label>
                <label>
                  Week starts on{' '}
                  <select name="weekStartsOn" defaultValue={detail.team.settings.weekStartsOn ?? 'monday'}>
                    <option value="monday">Monday</option>
                    <option value="sunday">Sunday</option>
                  </select>
                </label>
                <label>
                  Views open with{' '}
                  <select name="defaultDayRange" defaultValue={String(detail.team.settings.defaultDayRange ?? 30)}>
                    <option value="7">7 days</option>
                    <option value="30">30 days</option>
                    <option value="90">90 days</option>
                  </select>
                </label>
                <label>
                  Display name{' '}
                  <input
                    name="displayName"
                    maxLength={NAME_MAX}
                    defaultValue={detail.team.branding.displayName ?? ''}
                  />
                </label>
                <label>
                  Logo URL (https){' '}
                  <input
                    name="logoUrl"
                    type="url"
                    pattern="https://.*"
                    maxLength={URL_MAX}
                    defaultValue={detail.team.branding.logoUrl ?? ''}
                  />
                </label>
                <label>
                  Accent colour{' '}
                  <input name="accentColor" type="color" defaultValue={detail.team.branding.accentColor ?? '#2450d6'} />
                </label>
                {manages && <button type="submit">Save team</button>}
              </fieldset>
            </form>
            <p role="status" className="ok" data-testid="team-saved">
              {saved}
            </p>
          </section>

          <section aria-labelledby="members-title">
            <h2 id="members-title">Members</h2>
            <Members
              detail={detail}
              me={data?.me ?? null}
              onRole={(m, role) =>
                run(async () => {
                  await consoleApi.changeRole(teamId, { userId: m.userId, role });
                  await refresh();
                })
              }
              onRemove={async (m, isSelf) => {
                const yes = await ask(
                  isSelf
                    ? { title: 'Leave the team?', body: 'You lose access to its data at once.', confirm: 'Leave team' }
                    : {
                        title: `Remove ${m.name}?`,
                        body: `${m.email} loses access to ${detail.team.name} at once.`,
                        confirm: 'Remove member',
                      },
                );
                if (!yes) return;
                void run(async () => {
                  if (isSelf) {
                    await consoleApi.leaveTeam(teamId);
                    navigate('/');
                  } else {
                    await consoleApi.removeMember(teamId, m.userId);
                    await refresh();
                  }
                });
              }}
            />
            {manages && (
              <InvitationsSection
                teamId={teamId}
                myRole={detail.role}
                timeZone={detail.team.settings.timeZone}
                run={run}
              />
            )}
          </section>
        </>
      )}
    </ViewPage>
  );
}

function Members(props: {
  detail: TeamDetail;
  me: Me | null;
  onRole: (m: Member, role: Role) => void;
  onRemove: (m: Member, isSelf: boolean) => void;
}) {
  const { detail } = props;
  const owners = detail.members.filter((m) => m.role === 'owner').length;
  const reasonId = useId();
  return (
    <div className="table-scroll">
      <table data-testid="members">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.members.map((m, i) => {
            const isSelf = m.userId === props.me?.user.id;
            // The role menu is disabled, with the reason, when every other role would be refused.
            const refusals = ROLES.filter((r) => r !== m.role).map((r) => roleChangeReason(detail.role, m, r, owners));
            const roleReason = refusals.every(Boolean) ? (refusals[0] ?? null) : null;
            const removeReason = removalReason(detail.role, m, owners, isSelf);
            const showControls = detail.role !== 'member' || isSelf;
            return (
              <tr key={m.userId} data-testid={`member-${m.email}`}>
                <td>
                  {m.name} {isSelf && <span className="hint">(you)</span>}
                </td>
                <td>{m.email}</td>
                <td>
                  {detail.role === 'member' ? (
                    m.role
                  ) : (
                    <>
                      <select
                        aria-label={`Role of ${m.name}`}
                        value={m.role}
                        disabled={roleReason !== null}
                        aria-describedby={roleReason ? `${reasonId}-role-${i}` : undefined}
                        onChange={(e) => props.onRole(m, e.target.value as Role)}
                      >
                        {ROLES.map((r) => (
                          <option
                            key={r}
                            value={r}
                            disabled={r !== m.role && !!roleChangeReason(detail.role, m, r, owners)}
                          >
                            {r}
                          </option>
                        ))}
                      </select>
                      {roleReason && (
                        <small className="reason" id={`${reasonId}-role-${i}`}>
                          {roleReason}
                        </small>
                      )}
                    </>
                  )}
                </td>
                <td>
                  {showControls && (
                    <>
                      <button
                        type="button"
                        className="secondary small"
                        disabled={removeReason !== null}
                        aria-describedby={removeReason ? `${reasonId}-remove-${i}` : undefined}
                        onClick={() => props.onRemove(m, isSelf)}
                      >
                        {isSelf ? 'Leave team' : 'Remove'}
                      </button>
                      {removeReason && (
                        <small className="reason" id={`${reasonId}-remove-${i}`}>
                          {removeReason}
                        </small>
                      )}
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
