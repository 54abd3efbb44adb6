import { ALERT_RECIPIENTS_MAX } from '@vt/contracts/console-limits';
import { type FormEvent, useState } from 'react';
import {
  memberLabel,
  notificationTypeText,
  observedText,
  RULE_NAMES,
  recipientsText,
  ruleStateText,
  ruleTimesText,
  sentToText,
  thresholdUnit,
  webhooksNoteText,
} from '../alert-rule-words.ts';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, useConsoleData } from '../console-data.tsx';
import type { AlertRule, Member } from '../console-types.ts';
import { formatWhen } from '../team-time.ts';
import { Table } from './Table.tsx';

type RuleChange = Parameters<typeof consoleApi.updateAlertRules>[2]['rules'][number];

/** What a rule's form starts from: a saved change (or a reload) gives the form fresh defaults. */
const savedConfig = (rule: AlertRule) =>
  JSON.stringify([rule.enabled, rule.threshold, rule.emailTo, rule.emailUserIds, rule.webhooks]);

/**
 * The property's alert rules: each one's state, what it last measured and who hears it, for
 * everyone; for owners and admins a form per rule (on, threshold, the owners and admins or chosen
 * members by email, webhooks), saved whole so a rule is never left half-changed.
 */
export function AlertRulesSection(props: { teamId: string; propertyId: string; manages: boolean }) {
  const { teamId, propertyId, manages } = props;
  const [saved, setSaved] = useState<string | null>(null);
  const { data, setData, error, run } = useConsoleData(`${teamId}/${propertyId}/alert-rules`, async () => {
    const [rules, team] = await Promise.all([
      consoleApi.listAlertRules(teamId, propertyId),
      consoleApi.getTeam(teamId),
    ]);
    return { rules, members: team.members, timeZone: team.team.settings.timeZone };
  });
  const save = (change: RuleChange) =>
    run(async () => {
      setSaved(null);
      const rules = await consoleApi.updateAlertRules(teamId, propertyId, { rules: [change] });
      setData((current) => (current ? { ...current, rules } : current));
      setSaved(change.kind);
    });
  const timeZone = data?.timeZone;

  return (
    <section aria-labelledby="alert-rules-title" data-testid="alert-rules" id="alert-rules">
      <h2 id="alert-rules-title">Alerts: rules</h2>
      <p className="hint">
        A rule sends one message when its problem starts, a reminder at most once a day while it lasts, and one when it
        is resolved
        {data ? webhooksNoteText(data.rules.webhookCount) : ''}.
      </p>
      <ErrorLine error={error} />
      <ul className="rows alert-rules">
        {(data?.rules.rules ?? []).map((rule) => (
          <li key={rule.kind} data-testid="alert-rule">
            <h3 id={`alert-rule-${rule.kind}`}>{RULE_NAMES[rule.kind]}</h3>
            <p
              data-testid="alert-rule-state"
              className={rule.enabled && rule.state.status === 'firing' ? 'error' : undefined}
            >
              {ruleStateText(rule, timeZone)}
            </p>
            {rule.enabled && (observedText(rule) || ruleTimesText(rule, timeZone)) && (
              <p className="hint" data-testid="alert-rule-observed">
                {observedText(rule)} {ruleTimesText(rule, timeZone)}
              </p>
            )}
            {manages && data ? (
              <RuleForm
                key={savedConfig(rule)}
                rule={rule}
                members={data.members}
                saved={saved === rule.kind}
                onSave={save}
              />
            ) : (
              <p className="hint" data-testid="alert-rule-recipients">
                {rule.thresholdRange && `Alerts at a drop of ${rule.threshold} ${thresholdUnit(rule)}. `}
                {recipientsText(rule, data?.members ?? [])}{' '}
                {rule.webhooks ? 'Posted to the alert webhooks.' : 'Not posted to webhooks.'}
              </p>
            )}
          </li>
        ))}
      </ul>
      {data && data.rules.notifications.length > 0 && (
        <Table
          testId="alert-notifications"
          caption="Recent alert messages, newest first"
          head={['When', 'What', 'Rule', 'Message', 'Sent to']}
          rows={data.rules.notifications.map((n) => [
            formatWhen(n.occurredAt, timeZone),
            notificationTypeText(n),
            RULE_NAMES[n.kind],
            n.subject,
            sentToText(n),
          ])}
        />
      )}
      {data && data.rules.notifications.length === 0 && <p className="hint">No alert message sent yet.</p>}
      {!manages && <p className="note">Owners and admins change the rules.</p>}
    </section>
  );
}

/** One rule's settings as a form: read whole on Save, sent as one change. */
function RuleForm(props: {
  rule: AlertRule;
  members: readonly Member[];
  saved: boolean;
  onSave: (change: RuleChange) => void;
}) {
  const { rule, members, saved, onSave } = props;
  // The member list shows only while "chosen members" is picked; the rest of the form is uncontrolled.
  const [emailTo, setEmailTo] = useState(rule.emailTo);
  const id = `alert-rule-${rule.kind}`;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    onSave({
      kind: rule.kind,
      enabled: fields.get('enabled') === 'on',
      ...(rule.thresholdRange ? { threshold: Number(fields.get('threshold')) } : {}),
      emailTo,
      ...(emailTo === 'chosen' ? { emailUserIds: fields.getAll('emailUserIds').map(String) } : {}),
      webhooks: fields.get('webhooks') === 'on',
    });
  };
  return (
    <form aria-labelledby={id} className="alert-rule-form" onSubmit={submit}>
      <label className="check">
        <input type="checkbox" name="enabled" defaultChecked={rule.enabled} /> On
      </label>
      {rule.thresholdRange && (
        <label>
          Alert at a drop of ({thresholdUnit(rule)}, {rule.thresholdRange.min} to {rule.thresholdRange.max})
          <input
            type="number"
            name="threshold"
            required
            min={rule.thresholdRange.min}
            max={rule.thresholdRange.max}
            step={1}
            defaultValue={rule.threshold ?? rule.thresholdRange.default}
          />
        </label>
      )}
      <fieldset>
        <legend>Email</legend>
        <label className="check">
          <input
            type="radio"
            name="emailTo"
            value="owners_and_admins"
            checked={emailTo === 'owners_and_admins'}
            onChange={() => setEmailTo('owners_and_admins')}
          />{' '}
          The team’s owners and admins
        </label>
        <label className="check">
          <input
            type="radio"
            name="emailTo"
            value="chosen"
            checked={emailTo === 'chosen'}
            onChange={() => setEmailTo('chosen')}
          />{' '}
          Members I choose
        </label>
        {emailTo === 'chosen' && (
          <fieldset data-testid="alert-rule-members">
            <legend>Members to email (none chosen: no email; at most {ALERT_RECIPIENTS_MAX})</legend>
            {members.map((m) => (
              <label key={m.userId} className="check">
                <input
                  type="checkbox"
                  name="emailUserIds"
                  value={m.userId}
                  defaultChecked={rule.emailUserIds.includes(m.userId)}
                />{' '}
                <span className="member-label">{memberLabel(m)}</span>
              </label>
            ))}
          </fieldset>
        )}
      </fieldset>
      <label className="check">
        <input type="checkbox" name="webhooks" defaultChecked={rule.webhooks} /> Post to the alert webhooks
      </label>
      <p className="actions">
        <button type="submit">Save rule</button>
        {saved && (
          <span role="status" className="ok">
            Saved.
          </span>
        )}
      </p>
    </form>
  );
}
