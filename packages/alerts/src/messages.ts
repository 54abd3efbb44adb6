import type { AlertRuleKind } from '@vt/contracts/console';
import { escapeHtml } from '@vt/mail';
import type { NewCompetitor, ObservedFigures } from './conditions.ts';
import type { AlertTransition } from './rule-state.ts';

// What an alert says, pure: the email's subject, text and HTML, and the one line a webhook posts.
// In plain words: what changed, for which property, since when, the numbers, where to look in the
// console, and for a resolved alert how long it lasted.

export interface AlertMessageInput {
  kind: AlertRuleKind;
  transition: AlertTransition;
  property: { id: string; name: string; domain: string; teamId: string };
  /** When the condition was first seen (firing, reminder) or first seen gone (resolved). */
  since: Date;
  /** Resolved: when the condition started, for how long it lasted. */
  firingSince?: Date | null;
  threshold: number | null;
  observed: ObservedFigures;
  /** The console's public base URL, without a trailing slash. */
  consoleUrl: string;
  competitor?: NewCompetitor;
}

export interface AlertMessage {
  subject: string;
  text: string;
  html: string;
  /** One line, for Slack and the event's summary. */
  line: string;
  /** The console page to look at. */
  link: string;
}

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const num = (v: unknown) => (typeof v === 'number' ? String(Math.round(v * 10) / 10) : '–');
const pct = (v: unknown) => (typeof v === 'number' ? `${num(v)}%` : '–');

/** How long something lasted, in the two largest units (3 days 4 hours, 2 hours 5 minutes). */
export function duration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const parts: [number, string][] = [
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ];
  const shown = parts.filter(([n]) => n > 0).slice(0, 2);
  return shown.map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`).join(' ');
}

/** The console page each kind is looked at on. */
function pageOf(kind: AlertRuleKind): string {
  if (kind === 'crawl_nothing_arriving' || kind === 'crawl_rejecting') return 'crawl';
  if (kind === 'webhook_rejecting') return 'webhook';
  if (kind === 'crawler_hits_drop') return 'activity';
  return 'answers';
}

/** The headline (what is wrong) and the detail lines with the figures. */
function describe(input: AlertMessageInput): { headline: string; details: string[] } {
  const o = input.observed;
  const weeks = `the last 7 days (${o.from} to ${o.to}) against the 7 before (${o.previousFrom} to ${o.previousTo})`;
  switch (input.kind) {
    case 'crawl_nothing_arriving':
      return {
        headline: 'No crawl data has arrived for 24 hours',
        details: [
          `Crawl connection: Nothing arriving. The last batch came at ${o.lastAttemptAt ?? 'an unknown time'}.`,
          'Check that the log shipper or edge sender still runs and can reach the ingest endpoint.',
        ],
      };
    case 'crawl_rejecting':
      return {
        headline: 'Crawl ingest is turning every batch away',
        details: [
          'Crawl connection: Rejecting. Every batch of the last 24 hours was refused and nothing was recorded.',
          'The crawl setup page shows the refusal and its fix (often a rotated token).',
        ],
      };
    case 'webhook_rejecting':
      return {
        headline: 'The lead webhook is rejecting events',
        details: [
          `Lead webhook: Rejecting events. Every attempt of the last 24 hours was refused and no lead stored; the last came at ${o.lastAttemptAt ?? 'an unknown time'}.`,
          'The webhook setup page shows each refused attempt and its fix (often the signing secret).',
        ],
      };
    case 'crawler_hits_drop':
      return {
        headline: `AI crawler hits down ${pct(Math.abs(Number(o.changePercent)))} week over week`,
        details: [
          `AI crawler hits: ${o.current} in ${weeks}: ${o.previous}.`,
          `This alert fires at a drop of ${num(input.threshold)}% or more.`,
        ],
      };
    case 'visibility_drop':
      return {
        headline: `Visibility down ${num(Math.abs(Number(o.changePoints)))} points week over week`,
        details: [
          `Visibility (answers that mention the brand): ${pct(o.current)} of ${o.answers} answers in ${weeks}: ${pct(o.previous)} of ${o.previousAnswers}.`,
          `This alert fires at a drop of ${num(input.threshold)} points or more.`,
        ],
      };
    case 'share_of_voice_drop':
      return {
        headline: `Share of voice down ${num(Math.abs(Number(o.changePoints)))} points week over week`,
        details: [
          `Share of voice (the brand's mentions among the brand's and tracked competitors'): ${pct(o.current)} in ${weeks}: ${pct(o.previous)}.`,
          `This alert fires at a drop of ${num(input.threshold)} points or more.`,
        ],
      };
    case 'new_competitor': {
      const c = input.competitor;
      return {
        headline: `New competitor named in AI answers: ${c?.name ?? 'a tracked competitor'}`,
        details: [
          `${c?.name ?? 'A tracked competitor'} was named in ${c?.answers ?? 0} answer${c?.answers === 1 ? '' : 's'} since ${c?.firstDay ?? 'yesterday'}, and in none of the 30 days before.`,
        ],
      };
    }
  }
}

/** The message of one transition of one rule (or, for new_competitor, of one event). */
export function alertMessage(input: AlertMessageInput): AlertMessage {
  const { property, transition } = input;
  const { headline, details } = describe(input);
  const base = `${input.consoleUrl}/t/${property.teamId}/p/${property.id}`;
  const link = `${base}/${pageOf(input.kind)}`;
  // The rules and the webhooks live on the property's settings page.
  const settings = `${base}/settings#alert-rules`;
  const resolved = transition === 'resolved';
  const lasted =
    resolved && input.firingSince ? ` It lasted ${duration(input.since.getTime() - input.firingSince.getTime())}.` : '';
  const title = resolved
    ? `Resolved: ${lowerFirst(headline)}`
    : transition === 'reminder'
      ? `Still: ${lowerFirst(headline)}`
      : headline;
  const sinceLine = resolved
    ? `Back to normal since ${when(input.since)}.${lasted}`
    : input.kind === 'new_competitor'
      ? `Seen at ${when(input.since)}.`
      : `Since ${when(input.since)}.`;
  const subject = `${property.name}: ${title}`.replace(/\s+/g, ' ').slice(0, 300);
  const body = resolved ? [sinceLine] : [sinceLine, ...details];
  const text = [
    `${title} for ${property.name} (${property.domain}).`,
    '',
    ...body,
    '',
    `Look at it in the console: ${link}`,
    '',
    `You get this email from the alert rules of ${property.name}; owners and admins change them at ${settings}`,
  ].join('\n');
  const html = [
    `<p><strong>${escapeHtml(title)}</strong> for ${escapeHtml(property.name)} (${escapeHtml(property.domain)}).</p>`,
    ...body.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link)}">Look at it in the console</a></p>`,
    `<p style="color:#666">You get this email from the alert rules of ${escapeHtml(property.name)}; owners and admins <a href="${escapeHtml(settings)}">change them in the console</a>.</p>`,
  ].join('\n');
  const line = `${title}: ${property.name} (${property.domain}). ${sinceLine} ${link}`
    .replace(/\s+/g, ' ')
    .slice(0, 1000);
  return { subject, text, html, line, link };
}

const lowerFirst = (s: string) => (s.startsWith('AI') ? s : s.charAt(0).toLowerCase() + s.slice(1));
