import { escapeHtml } from '@vt/mail';
import type { PropertyWeekOverview } from '@vt/properties';
import type { ReportWeek } from './report-week.ts';

// The weekly report as an email: plain text and HTML of the same lines. The HTML is what mail
// clients keep: tables for layout, inline styles only, no image, script, font or stylesheet.

export interface WeeklyReportInput {
  teamName: string;
  timeZone: string;
  property: { name: string; domain: string };
  week: ReportWeek;
  overview: PropertyWeekOverview;
  /** The property's page in the console. */
  propertyUrl: string;
  /** The one-click unsubscribe page; absent in a preview for someone not subscribed. */
  unsubscribeUrl?: string;
}

export interface RenderedReport {
  subject: string;
  text: string;
  html: string;
}

type Figures = PropertyWeekOverview['figures'];
type CountFigure = Figures['crawlerHits'];
type PercentFigure = Figures['visibility'];

const number = (n: number) => n.toLocaleString('en-US');
const signed = (n: number, unit: string) => `${n > 0 ? '+' : ''}${n.toLocaleString('en-US')}${unit}`;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Mon 16 Nov – Sun 22 Nov 2026": the week's calendar days (spelled here, not by the runtime's locale data). */
function weekSpan(week: ReportWeek): string {
  const day = (d: Date) => `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  return `${day(week.from)} – ${day(week.to)} ${week.to.getUTCFullYear()}`;
}

function countTrend(f: CountFigure): string {
  if (f.trend === 'none') return 'none either week';
  if (f.trend === 'new') return 'none the week before';
  if (f.changePercent === null || f.trend === 'flat') return `unchanged (${number(f.previous)} the week before)`;
  return `${signed(f.changePercent, '%')} on ${number(f.previous)} the week before`;
}

function percentValue(f: PercentFigure | null): string {
  return f === null ? 'not tracked' : f.current === null ? 'no answers' : `${f.current}%`;
}

function percentTrend(f: PercentFigure | null, untracked: string): string {
  if (f === null) return untracked;
  if (f.trend === 'none') return 'no answers collected this week';
  if (f.trend === 'new' || f.previous === null || f.changePoints === null) return 'no answers the week before';
  if (f.changePoints === 0) return `unchanged (${f.previous}% the week before)`;
  return `${signed(f.changePoints, ' points')} on ${f.previous}% the week before`;
}

/** The report's rows: what it shows, in order, each with its value and its trend. */
export function reportRows(figures: Figures): { label: string; value: string; trend: string }[] {
  return [
    { label: 'AI crawler hits', value: number(figures.crawlerHits.current), trend: countTrend(figures.crawlerHits) },
    { label: 'AI referrals', value: number(figures.aiVisits.current), trend: countTrend(figures.aiVisits) },
    { label: 'AI-attributed leads', value: number(figures.aiLeads.current), trend: countTrend(figures.aiLeads) },
    {
      label: 'Visibility',
      value: percentValue(figures.visibility),
      trend: percentTrend(figures.visibility, ''),
    },
    {
      label: 'Share of voice',
      value: percentValue(figures.shareOfVoice),
      trend: percentTrend(figures.shareOfVoice, 'add competitors to the property to track it'),
    },
  ];
}

export function renderWeeklyReport(input: WeeklyReportInput): RenderedReport {
  const { property, week, overview } = input;
  const weekNumber = week.week.slice(week.week.indexOf('W') + 1).replace(/^0/, '');
  const span = weekSpan(week);
  // One line whatever the name holds: a subject with a line break is refused by the outbox.
  const subject = `${property.name.replace(/[\r\n]+/g, ' ')}: your AI visibility, week ${weekNumber} (${span})`;
  const rows = reportRows(overview.figures);
  const changes = overview.whatChanged.map((c) => c.text);
  const answers = `${number(overview.figures.answers)} AI answers collected this week.`;
  const note = `Week ${week.week} in the team's time zone (${input.timeZone}); counts are kept per UTC day.`;
  const why = `You receive this because you subscribed to ${property.name}'s weekly report in ${input.teamName}.`;
  const notSubscribed = 'A preview: you do not receive this report.';

  const text = [
    `${property.name} (${property.domain}): week ${weekNumber}, ${span}`,
    '',
    ...rows.map((r) => `${r.label}: ${r.value}${r.trend ? ` (${r.trend})` : ''}`),
    answers,
    '',
    'What changed this week:',
    ...(changes.length ? changes.map((c) => `- ${c}`) : ['- Nothing moved past its threshold.']),
    '',
    `Open ${property.name} in the console: ${input.propertyUrl}`,
    '',
    note,
    ...(input.unsubscribeUrl ? [why, `Unsubscribe: ${input.unsubscribeUrl}`] : [notSubscribed]),
  ].join('\n');

  const e = escapeHtml;
  const cell = 'padding:8px 12px;border-bottom:1px solid #e5e7eb;font-family:Arial,Helvetica,sans-serif;';
  const rowsHtml = rows
    .map(
      (r) =>
        `<tr><td style="${cell}font-size:14px;color:#374151;">${e(r.label)}</td>` +
        `<td style="${cell}font-size:18px;font-weight:bold;color:#111827;text-align:right;">${e(r.value)}</td>` +
        `<td style="${cell}font-size:13px;color:#6b7280;">${e(r.trend)}</td></tr>`,
    )
    .join('\n');
  const changesHtml = changes.length
    ? changes.map((c) => `<li style="margin:0 0 4px 0;">${e(c)}</li>`).join('\n')
    : '<li style="margin:0 0 4px 0;">Nothing moved past its threshold.</li>';
  const text13 = 'font-family:Arial,Helvetica,sans-serif;font-size:13px;color:#6b7280;';
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;width:100%;background:#ffffff;border:1px solid #e5e7eb;">
<tr><td style="padding:20px 24px;font-family:Arial,Helvetica,sans-serif;">
<h1 style="margin:0 0 4px 0;font-size:20px;color:#111827;">${e(property.name)}</h1>
<p style="margin:0;${text13}">${e(property.domain)} · week ${e(weekNumber)}, ${e(span)}</p>
</td></tr>
<tr><td style="padding:0 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${rowsHtml}
</table>
</td></tr>
<tr><td style="padding:8px 24px;${text13}">${e(answers)}</td></tr>
<tr><td style="padding:12px 24px;font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#111827;">
<h2 style="margin:0 0 8px 0;font-size:16px;">What changed this week</h2>
<ul style="margin:0;padding:0 0 0 20px;">
${changesHtml}
</ul>
</td></tr>
<tr><td style="padding:16px 24px;">
<a href="${e(input.propertyUrl)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;text-decoration:none;font-family:Arial,Helvetica,sans-serif;font-size:14px;">Open ${e(property.name)} in the console</a>
</td></tr>
<tr><td style="padding:12px 24px 20px 24px;${text13}">
<p style="margin:0 0 4px 0;">${e(note)}</p>
<p style="margin:0;">${input.unsubscribeUrl ? `${e(why)} <a href="${e(input.unsubscribeUrl)}" style="color:#6b7280;">Unsubscribe</a>` : e(notSubscribed)}</p>
</td></tr>
</table>
</td></tr>
</table>
</body></html>`;
  return { subject, text, html };
}
