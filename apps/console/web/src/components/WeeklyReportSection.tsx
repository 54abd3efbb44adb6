import { useState } from 'react';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, useConsoleData } from '../console-data.tsx';

type Preview = Awaited<ReturnType<typeof consoleApi.previewWeeklyReport>>;

/**
 * The caller's own weekly report of the property: subscribe or stop (any member, for themself),
 * and the preview of this week's report, its HTML in a frame that runs nothing.
 */
export function WeeklyReportSection(props: { teamId: string; propertyId: string }) {
  const { teamId, propertyId } = props;
  const [preview, setPreview] = useState<Preview | null>(null);
  const { data, setData, error, run } = useConsoleData(`${teamId}/${propertyId}/weekly-report`, () =>
    consoleApi.getWeeklyReportSubscription(teamId, propertyId),
  );
  const toggle = () =>
    run(async () => {
      const next = data?.subscribed
        ? await consoleApi.unsubscribeWeeklyReport(teamId, propertyId)
        : await consoleApi.subscribeWeeklyReport(teamId, propertyId);
      setData(next);
      if (preview) setPreview(await consoleApi.previewWeeklyReport(teamId, propertyId));
    });
  const showPreview = () => run(async () => setPreview(await consoleApi.previewWeeklyReport(teamId, propertyId)));

  return (
    <section aria-labelledby="weekly-report-title" data-testid="weekly-report">
      <h2 id="weekly-report-title">Weekly report</h2>
      <p className="hint">
        An email every Monday from 08:00 in the team’s time zone: last week’s AI crawler hits, AI referrals, leads,
        visibility and share of voice beside the week before, and what changed. For you only: each member chooses.
      </p>
      <ErrorLine error={error} />
      {data && (
        <p data-testid="weekly-report-state">
          {data.subscribed
            ? `You receive it (since ${new Date(data.since ?? Date.now()).toLocaleDateString()}).`
            : 'You do not receive it.'}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void toggle()} disabled={!data}>
          {data?.subscribed ? 'Stop my weekly report' : 'Send me the weekly report'}
        </button>
        <button type="button" onClick={() => void showPreview()}>
          Preview this week’s report
        </button>
      </div>
      {preview && (
        <div data-testid="weekly-report-preview">
          <h3>{preview.subject}</h3>
          <p className="hint">
            Week {preview.week} ({preview.from} to {preview.to}), sent {new Date(preview.dueAt).toLocaleString()} (
            {preview.timeZone}).
          </p>
          {/* sandbox with no permission: the HTML runs no script, submits no form, opens nothing. */}
          <iframe className="caught-html" title={`Preview of ${preview.subject}`} sandbox="" srcDoc={preview.html} />
          <h3>Text</h3>
          <pre className="caught-text">{preview.text}</pre>
        </div>
      )}
    </section>
  );
}
