import { randomUUID } from 'node:crypto';
import type { OutgoingEmailInput } from './email-schema.ts';

/**
 * The email "Send a test email" queues: to the person who asked, about their team, so an
 * operator sees the whole path work (outbox, notifier, SMTP server, their inbox).
 */
export function testEmail(options: { teamId: string; teamName: string; to: string; at: Date }): OutgoingEmailInput {
  const when = options.at.toISOString();
  const text = [
    `This is a test email from AI Visibility, for the team ${options.teamName}.`,
    '',
    `It was queued at ${when}. If you read it, the notifier reaches your SMTP server and it delivers here.`,
  ].join('\n');
  const html = `<p>This is a test email from AI Visibility, for the team <strong>${escapeHtml(options.teamName)}</strong>.</p>
<p>It was queued at ${when}. If you read it, the notifier reaches your SMTP server and it delivers here.</p>`;
  return {
    teamId: options.teamId,
    kind: 'test',
    to: options.to,
    subject: 'AI Visibility: test email',
    text,
    html,
    // Every click is an email of its own.
    dedupeKey: `test:${randomUUID()}`,
  };
}

/** Text as HTML that shows it as written: a team name is the team's own input. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
