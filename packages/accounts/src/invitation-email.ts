import type { TeamRole } from '@vt/contracts/console';
import { escapeHtml, type OutgoingEmailInput } from '@vt/mail';

const ROLE_WORDS: Record<TeamRole, string> = {
  owner: 'an owner (everything, roles included)',
  admin: 'an admin (everything but granting or removing owners)',
  member: 'a member (reads the team’s properties)',
};

/** A name as a subject or first line can hold it: one line, so a team name cannot add a header. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The page an invitation's link opens: `<console>/invite#<token>`. The token rides in the fragment,
 * which browsers never send to a server, so no access log, proxy or Referer header keeps it.
 */
export function invitationLink(consolePublicUrl: string, token: string): string {
  const base = consolePublicUrl.endsWith('/') ? consolePublicUrl : `${consolePublicUrl}/`;
  return `${new URL('invite', base).href}#${token}`;
}

/** The email of one send of an invitation (the first or a resend), HTML and plain text. */
export function invitationEmail(options: {
  teamId: string;
  invitationId: string;
  sendNumber: number;
  to: string;
  teamName: string;
  inviterName: string | null;
  role: TeamRole;
  link: string;
  expiresAt: Date;
}): OutgoingEmailInput {
  const team = oneLine(options.teamName);
  const inviter = options.inviterName ? oneLine(options.inviterName) : null;
  const who = inviter ? `${inviter} invited you` : 'You are invited';
  const until = `${options.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const text = [
    `${who} to join the team ${team} on AI Visibility, as ${ROLE_WORDS[options.role]}.`,
    '',
    'Open this link to sign up (or sign in, if you have an account with this address) and join:',
    options.link,
    '',
    `The link works until ${until}. If you did not expect this invitation, ignore this email: nothing happens unless you open the link and accept.`,
  ].join('\n');
  const html = `<p>${escapeHtml(who)} to join the team <strong>${escapeHtml(team)}</strong> on AI Visibility, as ${escapeHtml(ROLE_WORDS[options.role])}.</p>
<p><a href="${escapeHtml(options.link)}">Join ${escapeHtml(team)}</a></p>
<p>Or paste this link into your browser: ${escapeHtml(options.link)}</p>
<p>The link works until ${until}. If you did not expect this invitation, ignore this email: nothing happens unless you open the link and accept.</p>`;
  return {
    teamId: options.teamId,
    kind: 'invitation',
    to: options.to,
    subject: `${inviter ?? 'Someone'} invited you to ${team} on AI Visibility`.slice(0, 300),
    text,
    html,
    // One email per send: a producer replayed within the same send stores nothing more.
    dedupeKey: `invitation:${options.invitationId}:${options.sendNumber}`,
  };
}
