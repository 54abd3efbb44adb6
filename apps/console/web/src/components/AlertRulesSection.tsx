import { consoleApi } from '../console-client.ts';
import { ErrorLine, useConsoleData } from '../console-data.tsx';
import type { AlertRule, AlertRuleKind } from '../console-types.ts';
import { Table } from './Table.tsx';

/** What each rule watches, in the words of the page. */
const RULE_NAMES: Record<AlertRuleKind, string> = {
  crawl_nothing_arriving: 'Crawl data stops arriving (nothing for 24 hours)',
  crawl_rejecting: 'Crawl ingest rejects every batch',
  webhook_rejecting: 'The lead webhook rejects events',
  crawler_hits_drop: 'AI crawler hits drop, week over week',
  visibility_drop: 'Visibility drops, week over week',
  share_of_voice_drop: 'Share of voice drops, week over week',
  new_competitor: 'A new competitor is named in AI answers',
};

function stateText(rule: AlertRule): string {
  if (!rule.enabled) return 'Off';
  const since = rule.state.since ? ` since ${new Date(rule.state.since).toLocaleString()}` : '';
  if (rule.state.status === 'firing')
    return `Firing${since}${rule.state.pending ? ' (looks resolved: confirming)' : ''}`;
  return `OK${rule.state.pending ? ' (condition seen: confirming)' : ''}`;
}

/**
 * The property's alert rules: each one's state for everyone, and for owners and admins the switch,
 * the threshold and whether its webhooks hear it. Recipients default to the owners and admins.
 */
export function AlertRulesSection(props: { teamId: string; propertyId: string; manages: boolean }) {
  const { teamId, propertyId, manages } = props;
  const { data, error, reload, run } = useConsoleData(`${teamId}/${propertyId}/alert-rules`, () =>
    consoleApi.listAlertRules(teamId, propertyId),
  );
  const change = (rule: Parameters<typeof consoleApi.updateAlertRules>[2]['rules'][number]) =>
    run(async () => {
      await consoleApi.updateAlertRules(teamId, propertyId, { rules: [rule] });
      await reload();
    });

  return (
    <section aria-labelledby="alert-rules-title" data-testid="alert-rules" id="alert-rules">
      <h2 id="alert-rules-title">Alerts: rules</h2>
      <p className="hint">
        Each rule emails the team’s owners and admins once when it fires, at most once a day while it holds, and once
        when it resolves{data ? `, and posts to the ${data.webhookCount} enabled webhook(s) below` : ''}.
      </p>
      <ErrorLine error={error} />
      <ul className="rows">
        {(data?.rules ?? []).map((rule) => (
          <li key={rule.kind} data-testid="alert-rule">
            <p>
              <strong>{RULE_NAMES[rule.kind]}</strong> · <span data-testid="alert-rule-state">{stateText(rule)}</span>
            </p>
            {manages ? (
              <p className="actions">
                <label>
                  <input
                    type="checkbox"
                    checked={rule.enabled}
                    onChange={(e) => void change({ kind: rule.kind, enabled: e.currentTarget.checked })}
                  />{' '}
                  On
                </label>{' '}
                {rule.thresholdRange && (
                  <label>
                    Alert at a drop of{' '}
                    <input
                      type="number"
                      min={rule.thresholdRange.min}
                      max={rule.thresholdRange.max}
                      defaultValue={rule.threshold ?? rule.thresholdRange.default}
                      onBlur={(e) => {
                        const value = Number(e.currentTarget.value);
                        if (value !== rule.threshold) void change({ kind: rule.kind, threshold: value });
                      }}
                    />{' '}
                    {rule.thresholdRange.unit === 'percent' ? '%' : 'points'}
                  </label>
                )}{' '}
                <label>
                  <input
                    type="checkbox"
                    checked={rule.webhooks}
                    onChange={(e) => void change({ kind: rule.kind, webhooks: e.currentTarget.checked })}
                  />{' '}
                  Post to webhooks
                </label>
              </p>
            ) : (
              rule.thresholdRange && (
                <p className="hint">
                  Threshold: {rule.threshold} {rule.thresholdRange.unit === 'percent' ? '%' : 'points'}
                </p>
              )
            )}
          </li>
        ))}
      </ul>
      {data && data.notifications.length > 0 && (
        <Table
          testId="alert-notifications"
          caption="Recent alerts, newest first"
          head={['When', 'Alert', 'Emails', 'Webhooks']}
          rows={data.notifications.map((n) => [
            new Date(n.occurredAt).toLocaleString(),
            n.subject,
            n.emails,
            n.webhooks,
          ])}
        />
      )}
      {!manages && <p className="note">Owners and admins change the rules.</p>}
    </section>
  );
}
