import { ALERT_WEBHOOK_DESCRIPTION_MAX, URL_MAX } from '@vt/contracts/console-limits';
import { type FormEvent, useState } from 'react';
import { consoleApi } from '../console-client.ts';
import { ErrorLine, useConsoleData } from '../console-data.tsx';
import type { AlertWebhook, AlertWebhookFormat, AlertWebhookLog } from '../console-types.ts';
import { fieldChoice, fieldText } from '../form-fields.ts';
import { useConfirm } from './ConfirmDialog.tsx';
import { CopyButton } from './CopyButton.tsx';
import { Table } from './Table.tsx';

const FORMAT_NAMES: Record<AlertWebhookFormat, string> = {
  slack: 'Slack-compatible',
  standard: 'Signed JSON (Standard Webhooks)',
};

/** The newest attempt of a webhook, in words. */
function lastAttemptText(webhook: AlertWebhook): string {
  const last = webhook.lastAttempt;
  if (!last) return webhook.pendingDeliveries ? `${webhook.pendingDeliveries} waiting` : 'Nothing sent yet';
  const answer = last.statusCode === null ? (last.errorClass ?? 'no answer') : `HTTP ${last.statusCode}`;
  const when = new Date(last.attemptedAt).toLocaleString();
  return `${last.outcome === 'delivered' ? 'Delivered' : last.outcome === 'retrying' ? 'Retrying' : 'Failed'} (${answer}), ${when}`;
}

/** One webhook's delivery log: its newest attempts, and what is still to be sent. */
function DeliveryLog({ log }: { log: AlertWebhookLog }) {
  return (
    <>
      <Table
        testId="alert-webhook-log"
        caption="Latest attempts, newest first"
        head={['When', 'Event', 'Attempt', 'Answer', 'Outcome', 'Took', 'Receiver said']}
        rows={log.attempts.map((a) => [
          new Date(a.attemptedAt).toLocaleString(),
          a.eventType,
          a.attempt,
          a.statusCode === null ? (a.errorClass ?? '') : `HTTP ${a.statusCode}`,
          a.outcome === 'retrying' && a.retryAt ? `retrying at ${new Date(a.retryAt).toLocaleTimeString()}` : a.outcome,
          `${a.durationMs} ms`,
          a.responseSnippet ?? '',
        ])}
      />
      {log.pending.length > 0 && (
        <p className="hint" data-testid="alert-webhook-pending">
          {log.pending.length} waiting to be sent; next attempt{' '}
          {new Date(log.pending[0]?.nextAttemptAt ?? Date.now()).toLocaleString()}.
        </p>
      )}
    </>
  );
}

/**
 * Where the property's alerts are posted: the list with each one's last attempt and log, and for
 * owners and admins, adding, testing, switching off, rotating a secret and removing.
 */
export function AlertWebhooksSection(props: { teamId: string; propertyId: string; manages: boolean }) {
  const { teamId, propertyId, manages } = props;
  const { ask, dialog } = useConfirm();
  const [logs, setLogs] = useState<Record<string, AlertWebhookLog>>({});
  const { data, error, reload, run } = useConsoleData(`${teamId}/${propertyId}/alert-webhooks`, () =>
    consoleApi.listAlertWebhooks(teamId, propertyId),
  );
  const change = (action: () => Promise<unknown>) =>
    run(async () => {
      await action();
      await reload();
    });
  const showLog = (id: string) =>
    run(async () => {
      const log = await consoleApi.getAlertWebhookLog(teamId, propertyId, id);
      setLogs((current) => ({ ...current, [id]: log }));
    });

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    void change(async () => {
      await consoleApi.createAlertWebhook(teamId, propertyId, {
        format: fieldChoice<AlertWebhookFormat>(fields, 'format'),
        url: fieldText(fields, 'url'),
        description: fieldText(fields, 'description'),
      });
      form.reset();
    });
  }

  async function remove(webhook: AlertWebhook) {
    const yes = await ask({
      title: `Remove the webhook to ${webhook.host}?`,
      body: 'Its pending deliveries and its log are removed too; alerts stop going there at once.',
      confirm: 'Remove webhook',
    });
    if (yes) void change(() => consoleApi.deleteAlertWebhook(teamId, propertyId, webhook.id));
  }

  const webhooks = data?.webhooks ?? [];
  return (
    <section aria-labelledby="alert-webhooks-title" data-testid="alert-webhooks">
      {dialog}
      <h2 id="alert-webhooks-title">Alerts: webhooks</h2>
      <p className="hint">
        Alerts about this property are posted here: to Slack (or anything that takes Slack’s incoming webhooks), or as a
        signed JSON event for your own receiver.
      </p>
      <ErrorLine error={error} />
      {webhooks.length === 0 ? (
        <p className="empty">No webhook yet.{manages ? '' : ' An owner or admin adds them.'}</p>
      ) : (
        <ul className="rows">
          {webhooks.map((w) => {
            const log = logs[w.id];
            return (
              <li key={w.id} className="alert-webhook" data-testid="alert-webhook">
                <p>
                  <strong>{w.description || w.host}</strong> · {FORMAT_NAMES[w.format]} ·{' '}
                  {w.enabled ? lastAttemptText(w) : 'Switched off'}
                </p>
                {w.url && (
                  <p>
                    <code>{w.url}</code>
                  </p>
                )}
                {w.secret && (
                  <p>
                    Signing secret: <code data-testid="alert-webhook-secret">{w.secret}</code>{' '}
                    <CopyButton value={w.secret} label="the signing secret" />
                  </p>
                )}
                <p className="actions">
                  <button type="button" className="secondary small" onClick={() => void showLog(w.id)}>
                    {log ? 'Refresh log' : 'Show log'}
                  </button>{' '}
                  {manages && (
                    <>
                      <button
                        type="button"
                        className="secondary small"
                        disabled={!w.enabled}
                        onClick={() =>
                          void change(async () => {
                            await consoleApi.sendAlertWebhookTest(teamId, propertyId, w.id);
                            await showLog(w.id);
                          })
                        }
                      >
                        Send test
                      </button>{' '}
                      <button
                        type="button"
                        className="secondary small"
                        onClick={() =>
                          void change(() =>
                            consoleApi.updateAlertWebhook(teamId, propertyId, w.id, { enabled: !w.enabled }),
                          )
                        }
                      >
                        {w.enabled ? 'Switch off' : 'Switch on'}
                      </button>{' '}
                      {w.format === 'standard' && (
                        <>
                          <button
                            type="button"
                            className="secondary small"
                            onClick={() =>
                              void change(() => consoleApi.rotateAlertWebhookSecret(teamId, propertyId, w.id))
                            }
                          >
                            Rotate secret
                          </button>{' '}
                        </>
                      )}
                      <button type="button" className="danger small" onClick={() => void remove(w)}>
                        Remove
                      </button>
                    </>
                  )}
                </p>
                {log && <DeliveryLog log={log} />}
              </li>
            );
          })}
        </ul>
      )}
      {manages && data && webhooks.length < data.limit && (
        <form onSubmit={add} aria-label="Add a webhook" className="inline">
          <label>
            Format{' '}
            <select name="format" defaultValue="slack">
              <option value="slack">{FORMAT_NAMES.slack}</option>
              {data.signingConfigured && <option value="standard">{FORMAT_NAMES.standard}</option>}
            </select>
          </label>
          <label>
            Webhook URL <input name="url" type="url" required maxLength={URL_MAX} placeholder="https://" />
          </label>
          <label>
            Description (optional) <input name="description" maxLength={ALERT_WEBHOOK_DESCRIPTION_MAX} />
          </label>
          <button type="submit">Add webhook</button>
        </form>
      )}
    </section>
  );
}
