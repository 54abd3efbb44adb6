import { useParams } from 'react-router';
import { CopyButton } from '../components/CopyButton.tsx';
import { attemptAnswer, reasonAndFix } from '../components/FailedAttempts.tsx';
import { LeadBody } from '../components/LeadBody.tsx';
import { PlanWarning } from '../components/PlanWarning.tsx';
import { PreviousSecretNote, RollWebhookSecret } from '../components/RollWebhookSecret.tsx';
import { consoleApi } from '../console-client.ts';
import { canManage, useConsoleData } from '../console-data.tsx';
import type { WebhookSetup } from '../console-types.ts';
import { formatWhen, teamTimeZone } from '../team-time.ts';
import { Loading, RefusalWarning, SecretValue, StatusLine, ViewPage } from './ViewPage.tsx';

const STATUS_MEANING: Record<WebhookSetup['status'], string> = {
  not_verified: 'Not verified: nothing has arrived yet.',
  rejecting:
    'Rejecting events: attempts arrive and every one is rejected (no lead stored in the last 24 hours); see the reason and fix below.',
  verified: 'Verified: the most recent lead was accepted and stored.',
};

/**
 * How to sign a lead, in Node and in a shell: HMAC-SHA256 of `{id}.{timestamp}.{body}`; and with a
 * Standard Webhooks library, which the secret (`whsec_` and base64) is made for.
 */
function signingExamples(url: string, secret: string) {
  return [
    {
      label: 'Node.js 20+',
      code: [
        `import { createHmac, randomUUID } from 'node:crypto';`,
        `const body = JSON.stringify({ contact: 'ada@example.com', referrer: 'https://chatgpt.com/' });`,
        `const id = randomUUID(), timestamp = String(Math.floor(Date.now() / 1000));`,
        `const signature = createHmac('sha256', '${secret}').update(\`\${id}.\${timestamp}.\${body}\`).digest('hex');`,
        `await fetch('${url}', { method: 'POST', body, headers: { 'content-type': 'application/json',`,
        `  'x-webhook-id': id, 'x-webhook-timestamp': timestamp, 'x-webhook-signature': signature } });`,
      ].join('\n'),
    },
    {
      label: 'Shell (openssl and curl)',
      code: [
        `BODY='{"contact":"ada@example.com","referrer":"https://chatgpt.com/"}'; TS=$(date +%s); ID=lead-$TS`,
        `SIG=$(printf '%s' "$ID.$TS.$BODY" | openssl dgst -sha256 -hmac '${secret}' | sed 's/^.* //')`,
        `curl -s -X POST -H 'Content-Type: application/json' -H "x-webhook-id: $ID" \\`,
        `  -H "x-webhook-timestamp: $TS" -H "x-webhook-signature: $SIG" --data-binary "$BODY" '${url}'`,
      ].join('\n'),
    },
    {
      label: 'Standard Webhooks (npm install standardwebhooks)',
      code: [
        `import { Webhook } from "standardwebhooks";`,
        `const body = JSON.stringify({ contact: 'ada@example.com', referrer: 'https://chatgpt.com/' });`,
        `const id = \`msg_\${crypto.randomUUID()}\`, now = new Date();`,
        `await fetch('${url}', { method: 'POST', body, headers: { 'content-type': 'application/json',`,
        `  'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),`,
        `  'webhook-signature': new Webhook('${secret}').sign(id, now, body) } });`,
      ].join('\n'),
    },
  ];
}

/**
 * The lead webhook setup dialog: URL, signing secret (owners and admins), rolling it where the
 * deployment allows, status, the 20 newest attempts.
 */
export function WebhookSetupPage() {
  const { teamId = '', propertyId = '' } = useParams();
  const { data, setData, error, run } = useConsoleData(`${teamId}/${propertyId}`, async () => {
    const [me, detail, setup, log] = await Promise.all([
      consoleApi.getMe(),
      consoleApi.getProperty(teamId, propertyId),
      consoleApi.getWebhookSetup(teamId, propertyId),
      consoleApi.getWebhookLog(teamId, propertyId),
    ]);
    return { me, property: detail.property, setup, log };
  });
  const me = data?.me ?? null;
  const setup = data?.setup ?? null;
  const log = data?.log ?? null;
  const timeZone = teamTimeZone(me, teamId);

  return (
    <ViewPage me={me} teamId={teamId} title="Lead webhook" error={error} property={data?.property}>
      {!setup ? (
        <Loading failed={error !== null} />
      ) : (
        <>
          <StatusLine
            status={setup.status}
            meaning={
              setup.latestRefusal
                ? 'Verified: a lead was accepted and stored within the last 24 hours.'
                : STATUS_MEANING[setup.status]
            }
            testId="webhook-status"
          />
          <RefusalWarning refusal={setup.latestRefusal} what="lead" timeZone={timeZone} testId="webhook-warning" />
          {data?.property && (
            <PlanWarning property={data.property} channel="webhook" manages={canManage(me, teamId)} teamId={teamId} />
          )}
          <dl>
            <dt>URL</dt>
            <dd>
              <code data-testid="webhook-url">{setup.url}</code> <CopyButton value={setup.url} label="webhook URL" />
            </dd>
            <dt>Signing secret</dt>
            <dd>
              <SecretValue value={setup.signingSecret} testId="signing-secret" />
            </dd>
          </dl>
          <PreviousSecretNote setup={setup} timeZone={timeZone} />
          {setup.notes.map((note) => (
            <p key={note} className="note">
              {note}
            </p>
          ))}
          {setup.secretRotation === 'property' && setup.signingSecret && canManage(me, teamId) && (
            <RollWebhookSecret
              teamId={teamId}
              propertyId={propertyId}
              timeZone={timeZone}
              run={run}
              onRolled={(updated) => setData((current) => (current ? { ...current, setup: updated } : current))}
            />
          )}
          {setup.signingSecret && (
            <>
              <h2>Signing a lead</h2>
              {signingExamples(setup.url, setup.signingSecret).map((example) => (
                <details key={example.label}>
                  <summary>{example.label}</summary>
                  <pre>{example.code}</pre>
                </details>
              ))}
            </>
          )}
          <h2>The 20 newest attempts</h2>
          {!log?.entries.length ? (
            <p className="empty">No lead yet: send one with the example above.</p>
          ) : (
            <table data-testid="webhook-log">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Answer</th>
                  <th>Reason and fix</th>
                  <th>Body</th>
                </tr>
              </thead>
              <tbody>
                {log.entries.map((e) => (
                  <tr
                    key={`${e.at}-${e.eventId ?? ''}-${e.statusCode}-${e.authenticated ? '' : e.reason}`}
                    className={e.authenticated ? undefined : 'summary'}
                    data-testid={e.authenticated ? undefined : 'failed-attempts'}
                  >
                    <td>{formatWhen(e.at, timeZone)}</td>
                    <td>{attemptAnswer(e, timeZone)}</td>
                    <td>{reasonAndFix(e)}</td>
                    <td>{e.requestBody ? <LeadBody body={e.requestBody} /> : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </ViewPage>
  );
}
