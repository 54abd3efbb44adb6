import { describe, expect, it } from 'vitest';
import { renderWeeklyReport } from './report-content.ts';
import { reportWeekAt } from './report-week.ts';

const count = (current: number, previous: number) => ({
  current,
  previous,
  changePercent: previous > 0 ? ((current - previous) / previous) * 100 : null,
  trend: current === previous ? ('flat' as const) : ('up' as const),
});
const percent = { current: null, previous: null, changePoints: null, trend: 'none' as const };

describe('the weekly report’s content', () => {
  it('shows names people typed as text in both parts, never as markup', () => {
    const hostile = '<img src=x onerror=alert(1)>"Shop"&\u202e';
    const report = renderWeeklyReport({
      teamName: '<script>alert(1)</script>',
      timeZone: 'UTC',
      property: { name: hostile, domain: 'shop.example' },
      week: reportWeekAt(new Date('2026-11-25T10:00:00Z'), 'UTC'),
      overview: {
        from: '2026-11-16',
        to: '2026-11-22',
        previousFrom: '2026-11-09',
        previousTo: '2026-11-15',
        figures: {
          answers: 0,
          visibility: percent,
          shareOfVoice: null,
          averageRank: null,
          averageSentiment: { current: null, previous: null, change: null, trend: 'none' },
          crawlerHits: count(5, 5),
          aiVisits: count(2, 1),
          aiLeads: count(0, 0),
        },
        whatChanged: [
          {
            propertyId: 'p',
            propertyName: hostile,
            kind: 'new_competitor',
            text: '<b>Globex</b> named',
            direction: 'new',
          },
        ],
      },
      propertyUrl: 'https://console.example/t/a/p/b/activity',
      unsubscribeUrl: 'https://console.example/unsubscribe?token=a.b"><script>',
    });
    expect(report.html).not.toMatch(/<img|<script|<b>/);
    expect(report.html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;Shop&quot;&amp;');
    expect(report.html).toContain('&lt;b&gt;Globex&lt;/b&gt; named');
    expect(report.text).toContain('- <b>Globex</b> named');
    // The subject is one line, whatever the name holds.
    expect(report.subject).not.toMatch(/[\r\n]/);
  });
});
