import { useState } from 'react';
import { consoleApi } from '../console-client.ts';
import type { WebhookSetup } from '../console-types.ts';
import { formatWhen } from '../team-time.ts';
import { useConfirm } from './ConfirmDialog.tsx';
import { CopyButton } from './CopyButton.tsx';

// Rolling one property's lead webhook secret (issue 31), offered only where the deployment allows
// it (WEBHOOK_SECRET_ROTATION=property): by default the spec rotates secrets deployment-wide
// (LEAD-17) and this section is not there at all.

/** How long the previous secret may keep verifying; the API takes 0 to 168 hours, 24 by default. */
const OVERLAPS = [
  { hours: 24, label: '24 hours' },
  { hours: 1, label: '1 hour' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
  { hours: 0, label: 'no time: refuse it at once' },
] as const;

/** Until when the secret before the last roll still verifies, for everyone who sees the dialog. */
export function PreviousSecretNote({ setup, timeZone }: { setup: WebhookSetup; timeZone?: string }) {
  if (!setup.previousSecret) return null;
  return (
    <p className="note" data-testid="previous-secret">
      The secret was rolled on {formatWhen(setup.secretRotatedAt, timeZone)}: the previous secret keeps verifying until{' '}
      {formatWhen(setup.previousSecret.verifiesUntil, timeZone)}, then leads signed with it are refused.
    </p>
  );
}

/**
 * The "Roll secret" control of an owner or admin: the overlap chosen, a confirmation, then the new
 * secret shown with until when the one it replaced verifies. `onRolled` takes the dialog's new state.
 */
export function RollWebhookSecret(props: {
  teamId: string;
  propertyId: string;
  timeZone?: string;
  run: (change: () => Promise<unknown>) => Promise<void>;
  onRolled: (setup: WebhookSetup) => void;
}) {
  const [overlapHours, setOverlapHours] = useState<number>(OVERLAPS[0].hours);
  const [rolled, setRolled] = useState<WebhookSetup | null>(null);
  const { ask, dialog } = useConfirm();
  const chosen = OVERLAPS.find((o) => o.hours === overlapHours) ?? OVERLAPS[0];

  async function roll() {
    const yes = await ask({
      title: 'Roll the signing secret?',
      body:
        overlapHours > 0
          ? `A new secret replaces this one. The previous secret keeps verifying for ${chosen.label}, then leads signed with it are refused (401): move every sender to the new one before then.`
          : 'A new secret replaces this one and the previous secret is refused at once (401): every sender must switch now.',
      confirm: 'Roll secret',
    });
    if (!yes) return;
    await props.run(async () => {
      const updated = await consoleApi.rotateWebhookSecret(props.teamId, props.propertyId, { overlapHours });
      setRolled(updated);
      props.onRolled(updated);
    });
  }

  return (
    <section aria-labelledby="roll-secret-title" data-testid="roll-secret">
      {dialog}
      <h2 id="roll-secret-title">Roll the signing secret</h2>
      {rolled?.signingSecret && (
        <p role="status" className="ok" data-testid="rolled-secret">
          New signing secret: <code data-testid="new-signing-secret">{rolled.signingSecret}</code>{' '}
          <CopyButton value={rolled.signingSecret} label="new signing secret" /> Give it to your senders now.{' '}
          {rolled.previousSecret
            ? `The previous secret keeps verifying until ${formatWhen(rolled.previousSecret.verifiesUntil, props.timeZone)}.`
            : 'The previous secret no longer verifies.'}
        </p>
      )}
      <p>
        A new secret for this property alone, for when the current one may have leaked. Senders move to it while the
        previous one keeps verifying for the time you choose.
      </p>
      <p className="actions">
        <label>
          The previous secret keeps verifying for{' '}
          <select value={overlapHours} onChange={(e) => setOverlapHours(Number(e.target.value))}>
            {OVERLAPS.map((o) => (
              <option key={o.hours} value={o.hours}>
                {o.label}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="button" className="secondary" onClick={() => void roll()}>
          Roll secret
        </button>
      </p>
    </section>
  );
}
