import type { AlertRule, AlertRuleKind, AlertRules, Member } from './console-types.ts';
import { formatWhen } from './team-time.ts';

// What the Alerts: rules section says, in the words a marketer reads: each rule's state, what
// its last check measured, who hears it and what each recent message was. The API gives ids
// (firing, nothing_arriving, alert.reminder); the page never shows them.

/** What each rule watches. */
export const RULE_NAMES: Record<AlertRuleKind, string> = {
  crawl_nothing_arriving: 'Crawl data stops arriving (nothing for 24 hours)',
  crawl_rejecting: 'Crawl ingest rejects every batch',
  webhook_rejecting: 'The lead webhook rejects events',
  crawler_hits_drop: 'AI crawler hits drop, week over week',
  visibility_drop: 'Visibility drops, week over week',
  share_of_voice_drop: 'Share of voice drops, week over week',
  new_competitor: 'A new competitor is named in AI answers',
};

/** The unit a threshold is typed in, after the number. */
export const thresholdUnit = (rule: AlertRule) => (rule.thresholdRange?.unit === 'percent' ? '%' : 'points');

/** The rule's state in one line: off, OK, or firing since when, and a change waiting to be confirmed. */
export function ruleStateText(rule: AlertRule, timeZone?: string): string {
  if (!rule.enabled) return 'Off';
  const { status, since, pending, evaluatedAt } = rule.state;
  if (!evaluatedAt) return 'On, not checked yet';
  if (rule.kind === 'new_competitor') return 'On, watching';
  if (status === 'firing') {
    const line = `Alerting since ${formatWhen(since, timeZone)}`;
    return pending ? `${line} (looks resolved: confirming at the next check)` : line;
  }
  const line = since ? `OK since ${formatWhen(since, timeZone)}` : 'OK';
  return pending ? `${line} (problem seen once: confirming at the next check)` : line;
}

/** When the rule last sent a message and a reminder, and when it last looked. */
export function ruleTimesText(rule: AlertRule, timeZone?: string): string {
  const { lastNotifiedAt, lastReminderAt, evaluatedAt } = rule.state;
  const parts = [
    evaluatedAt && `Last checked ${formatWhen(evaluatedAt, timeZone)}`,
    lastNotifiedAt && `last message ${formatWhen(lastNotifiedAt, timeZone)}`,
    lastReminderAt && `last reminder ${formatWhen(lastReminderAt, timeZone)}`,
  ].filter(Boolean);
  return parts.length ? `${parts.join(', ')}.` : '';
}

/** The setup dialogs' names of the statuses a connection rule watches. */
const CONNECTION_STATUS: Record<string, string> = {
  not_verified: 'Not verified',
  connected: 'Connected',
  verified: 'Verified',
  rejecting: 'Rejecting',
  nothing_arriving: 'Nothing arriving',
  disconnected: 'Disconnected',
};

const num = (v: unknown) => (typeof v === 'number' ? (Math.round(v * 10) / 10).toLocaleString('en-GB') : null);
const signed = (v: unknown, unit: string) =>
  typeof v === 'number' ? `${v > 0 ? '+' : v < 0 ? '−' : '±'}${num(Math.abs(v))}${unit}` : null;

/** What the last check measured, in a sentence; empty before the first check. */
export function observedText(rule: AlertRule): string {
  const o = rule.state.observed;
  if (!o) return '';
  switch (rule.kind) {
    case 'crawl_nothing_arriving':
    case 'crawl_rejecting':
      return `The crawl connection was ${CONNECTION_STATUS[String(o.status)] ?? String(o.status)}.`;
    case 'webhook_rejecting':
      return `The lead webhook was ${CONNECTION_STATUS[String(o.status)] ?? String(o.status)}.`;
    case 'crawler_hits_drop': {
      const change = signed(o.changePercent, ' %');
      return `AI crawler hits: ${num(o.current) ?? 0} from ${o.from} to ${o.to}, ${num(o.previous) ?? 0} the 7 days before${change ? ` (${change})` : ''}.`;
    }
    case 'visibility_drop':
    case 'share_of_voice_drop': {
      const what = rule.kind === 'visibility_drop' ? 'Visibility' : 'Share of voice';
      if (o.current === null || o.previous === null)
        return `${what}: not enough answers from ${o.from} to ${o.to} or the 7 days before to compare.`;
      const change = signed(o.changePoints, ' points');
      return `${what}: ${num(o.current)}% from ${o.from} to ${o.to}, ${num(o.previous)}% the 7 days before${change ? ` (${change})` : ''}.`;
    }
    case 'new_competitor': {
      const names = Array.isArray(o.newCompetitors) ? o.newCompetitors : [];
      return names.length ? `Newly named: ${names.join(', ')}.` : 'No new competitor named lately.';
    }
  }
}

/** A member as a recipient list shows them: their name, or their email when they have none. */
export const memberLabel = (m: Pick<Member, 'name' | 'email'>) => (m.name ? `${m.name} (${m.email})` : m.email);

/** Who the rule emails, as a sentence. */
export function recipientsText(rule: AlertRule, members: readonly Member[]): string {
  if (rule.emailTo === 'owners_and_admins') return 'Emails go to the team’s owners and admins.';
  const chosen = members.filter((m) => rule.emailUserIds.includes(m.userId));
  if (chosen.length === 0) return 'No one is emailed: no member is chosen.';
  return `Emails go to ${chosen.map(memberLabel).join(', ')}.`;
}

type Notification = AlertRules['notifications'][number];

const NOTIFICATION_TYPE: Record<Notification['type'], string> = {
  'alert.firing': 'Alert',
  'alert.reminder': 'Reminder',
  'alert.resolved': 'Resolved',
  'alert.test': 'Test',
};

export const notificationTypeText = (n: Pick<Notification, 'type'>) => NOTIFICATION_TYPE[n.type];

const count = (n: number, one: string) => `${n.toLocaleString('en-GB')} ${one}${n === 1 ? '' : 's'}`;

/** Where a message went: "2 emails and 1 webhook", or that it reached no one. */
export function sentToText(n: Pick<Notification, 'emails' | 'webhooks'>): string {
  const parts = [n.emails > 0 && count(n.emails, 'email'), n.webhooks > 0 && count(n.webhooks, 'webhook')].filter(
    Boolean,
  );
  return parts.length ? parts.join(' and ') : 'No one (no recipient, no webhook)';
}

/** What a rule's messages also go to, besides email: the property's enabled alert webhooks, counted in words. */
export function webhooksNoteText(enabledWebhooks: number): string {
  if (enabledWebhooks === 0) return '; no alert webhook is switched on below, so messages go by email only';
  const which = enabledWebhooks === 1 ? 'the alert webhook' : `the ${enabledWebhooks} alert webhooks`;
  return `; it also posts to ${which} switched on below, unless a rule says not to`;
}
