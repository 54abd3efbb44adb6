import { describe, expect, it } from 'vitest';
import {
  notificationTypeText,
  observedText,
  recipientsText,
  ruleStateText,
  ruleTimesText,
  sentToText,
  webhooksNoteText,
} from '../../web/src/alert-rule-words.ts';
import type { AlertRule, TeamDetail } from '../../web/src/console-types.ts';
import { teamSavedMessage } from '../../web/src/team-saved.ts';
import { formatWhen } from '../../web/src/team-time.ts';
import { verifiedShare } from '../../web/src/verified-share.ts';

// What the pages say, from the plain functions they say it with.

describe('the Verified figure of the activity page', () => {
  it('says "not checked yet" on a new site instead of 0%', () => {
    expect(verifiedShare({ hits: 0, verified: 0, unverified: 0, rangesLoaded: true })).toEqual({
      value: 'Not checked yet',
      detail: 'No AI crawler visits so far.',
    });
    const noRanges = verifiedShare({ hits: 40, verified: 0, unverified: 0, rangesLoaded: false });
    expect(noRanges.value).toBe('Not checked yet');
    expect(noRanges.detail).toContain('IP ranges are not loaded yet');
    expect(verifiedShare({ hits: 40, verified: 0, unverified: 0, rangesLoaded: true }).value).toBe('Not checkable');
  });

  it('gives a percentage only of the hits that could be checked', () => {
    // 10 unverifiable hits are left out: 6 of the 8 checked ones were verified.
    const share = verifiedShare({ hits: 18, verified: 6, unverified: 2, rangesLoaded: true });
    expect(share.value).toBe('75%');
    expect(share.detail).toContain('of the 8 hits that could be checked');
    expect(verifiedShare({ hits: 5, verified: 0, unverified: 5, rangesLoaded: true }).value).toBe('0%');
  });
});

describe('times in the team’s time zone', () => {
  it('shows an instant in the zone given, naming it', () => {
    const at = '2026-11-20T23:30:00.000Z';
    expect(formatWhen(at, 'Asia/Tokyo')).toMatch(/21 Nov 2026, 08:30 GMT\+9/);
    expect(formatWhen(at, 'UTC')).toMatch(/20 Nov 2026, 23:30 UTC/);
    expect(formatWhen(null, 'UTC')).toBe('');
  });

  it('falls back to the viewer’s zone for a zone the browser does not know', () => {
    expect(formatWhen('2026-11-20T23:30:00.000Z', 'Mars/Olympus')).toMatch(/2026/);
  });
});

describe('the team settings confirmation', () => {
  const team: TeamDetail['team'] = {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Acme',
    slug: 'acme',
    settings: {},
    branding: {},
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('says what changed on the pages in plain words', () => {
    const after = {
      ...team,
      settings: { timeZone: 'Europe/Paris', defaultDayRange: 90 as const },
      branding: { logoUrl: 'https://cdn.example/logo.png', displayName: 'Acme Corp' },
    };
    expect(teamSavedMessage(team, after)).toBe(
      'Team settings saved. Times on the activity and setup pages now show in Europe/Paris. Activity and AI answers now open on the last 90 days. The new logo shows in the header. The header now reads Acme Corp.',
    );
    expect(teamSavedMessage(after, team)).toContain('Times now show in each viewer’s own time zone.');
    expect(teamSavedMessage(after, team)).toContain('The logo is gone from the header.');
  });

  it('confirms a save that changed nothing visible too', () => {
    expect(teamSavedMessage(team, team)).toBe('Team settings saved.');
    // The form saves the 30 days an unset team already opens on: no change to speak of.
    expect(teamSavedMessage(team, { ...team, settings: { defaultDayRange: 30 } })).toBe('Team settings saved.');
  });
});

describe('the alert rules section', () => {
  it('says where messages go besides email, counting the webhooks in words', () => {
    expect(webhooksNoteText(0)).toBe('; no alert webhook is switched on below, so messages go by email only');
    expect(webhooksNoteText(1)).toBe(
      '; it also posts to the alert webhook switched on below, unless a rule says not to',
    );
    expect(webhooksNoteText(3)).toBe(
      '; it also posts to the 3 alert webhooks switched on below, unless a rule says not to',
    );
  });

  const rule = (over: Partial<AlertRule> = {}, state: Partial<AlertRule['state']> = {}): AlertRule => ({
    kind: 'visibility_drop',
    enabled: true,
    threshold: 10,
    thresholdRange: { unit: 'points', min: 1, max: 100, default: 10 },
    emailTo: 'owners_and_admins',
    emailUserIds: [],
    webhooks: true,
    ...over,
    state: {
      status: 'ok',
      since: null,
      pending: null,
      lastNotifiedAt: null,
      lastReminderAt: null,
      evaluatedAt: null,
      observed: null,
      ...state,
    },
  });
  const checked = '2026-11-20T09:00:00.000Z';

  it('says each state in words, in the team’s time zone, never the API’s ids', () => {
    expect(ruleStateText(rule({ enabled: false }), 'UTC')).toBe('Off');
    expect(ruleStateText(rule(), 'UTC')).toBe('On, not checked yet');
    expect(ruleStateText(rule({}, { evaluatedAt: checked }), 'UTC')).toBe('OK');
    const firing = rule({}, { status: 'firing', since: '2026-11-20T08:30:00.000Z', evaluatedAt: checked });
    expect(ruleStateText(firing, 'Asia/Tokyo')).toMatch(/^Alerting since 20 Nov 2026, 17:30 GMT\+9$/);
    expect(ruleStateText({ ...firing, state: { ...firing.state, pending: 'ok' } }, 'UTC')).toBe(
      'Alerting since 20 Nov 2026, 08:30 UTC (looks resolved: confirming at the next check)',
    );
    expect(ruleStateText(rule({}, { evaluatedAt: checked, pending: 'firing' }), 'UTC')).toBe(
      'OK (problem seen once: confirming at the next check)',
    );
    expect(
      ruleTimesText(
        rule({}, { evaluatedAt: checked, lastNotifiedAt: checked, lastReminderAt: '2026-11-21T09:00:00.000Z' }),
        'UTC',
      ),
    ).toBe(
      'Last checked 20 Nov 2026, 09:00 UTC, last message 20 Nov 2026, 09:00 UTC, last reminder 21 Nov 2026, 09:00 UTC.',
    );
  });

  it('says what the last check measured, with the setup pages’ names of a connection status', () => {
    const week = { from: '2026-11-13', to: '2026-11-19', previousFrom: '2026-11-06', previousTo: '2026-11-12' };
    expect(observedText(rule({}, { observed: { ...week, current: 42, previous: 55.04, changePoints: -13 } }))).toBe(
      'Visibility: 42% from 2026-11-13 to 2026-11-19, 55% the 7 days before (−13 points).',
    );
    expect(
      observedText(
        rule({ kind: 'crawler_hits_drop' }, { observed: { ...week, current: 60, previous: 1200, changePercent: -95 } }),
      ),
    ).toBe('AI crawler hits: 60 from 2026-11-13 to 2026-11-19, 1,200 the 7 days before (−95 %).');
    expect(
      observedText(rule({ kind: 'share_of_voice_drop' }, { observed: { ...week, current: null, previous: null } })),
    ).toBe('Share of voice: not enough answers from 2026-11-13 to 2026-11-19 or the 7 days before to compare.');
    expect(observedText(rule({ kind: 'crawl_nothing_arriving' }, { observed: { status: 'nothing_arriving' } }))).toBe(
      'The crawl connection was Nothing arriving.',
    );
    expect(
      observedText(rule({ kind: 'new_competitor' }, { observed: { newCompetitors: ['Globex', 'Initech'] } })),
    ).toBe('Newly named: Globex, Initech.');
  });

  it('names who is emailed, and what each recent message was and reached', () => {
    const members = [
      { userId: 'u1', email: 'ann@example.test', name: 'Ann', role: 'member' as const, joinedAt: checked },
      { userId: 'u2', email: 'bo@example.test', name: '', role: 'admin' as const, joinedAt: checked },
    ];
    expect(recipientsText(rule(), members)).toBe('Emails go to the team’s owners and admins.');
    expect(recipientsText(rule({ emailTo: 'chosen', emailUserIds: ['u1', 'u2'] }), members)).toBe(
      'Emails go to Ann (ann@example.test), bo@example.test.',
    );
    expect(recipientsText(rule({ emailTo: 'chosen', emailUserIds: [] }), members)).toBe(
      'No one is emailed: no member is chosen.',
    );
    expect(notificationTypeText({ type: 'alert.reminder' })).toBe('Reminder');
    expect(sentToText({ emails: 2, webhooks: 1 })).toBe('2 emails and 1 webhook');
    expect(sentToText({ emails: 0, webhooks: 0 })).toBe('No one (no recipient, no webhook)');
  });
});
