import { describe, expect, it } from 'vitest';
import type { TeamDetail } from '../../web/src/console-types.ts';
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
