import { rotateWebhookSecretBody } from '@vt/contracts/console';
import { rotateWebhookSecret as rotate, webhookCredentials, webhookSecretState } from '@vt/properties';
import { z } from 'zod';
import type { OpsContext } from '../context.ts';
import { findProperty, parseOptions } from '../inputs.ts';
import { OpsError } from '../ops-error.ts';
import { connectionSettings } from './properties.ts';

// `ops webhook rotate-secret`: one property's lead webhook secret rolled as the console's owners
// do it (issue 31), allowed only where the deployment opted in (WEBHOOK_SECRET_ROTATION=property).

/** `--property <id> [--overlap-hours N]`: N whole hours, held to the console's own bounds. */
const rotateOptions = z.object({
  property: z.string(),
  overlapHours: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of hours')
    .transform(Number)
    .pipe(rotateWebhookSecretBody.shape.overlapHours.unwrap())
    .optional(),
});

/**
 * Rolls the property's secret: the new one is printed (the sender's to use now) with until when the
 * one it replaces keeps verifying. Refused before anything is read or written when the deployment
 * keeps the spec's deployment-wide rotation, or when an option is wrong.
 */
export async function rotateWebhookSecret(ctx: OpsContext, options: unknown) {
  if (ctx.config.WEBHOOK_SECRET_ROTATION !== 'property') {
    throw new OpsError(
      'invalid_argument',
      "per-property webhook secret rotation is off: WEBHOOK_SECRET_ROTATION is 'deployment' (the spec's rule, LEAD-17: every property's secret rotates at once, with WEBHOOK_SIGNING_KEY). Set WEBHOOK_SECRET_ROTATION=property on the console and ops to roll one property's secret.",
    );
  }
  const input = parseOptions(rotateOptions, options);
  const property = await findProperty(ctx, input.property);
  const settings = connectionSettings(ctx);
  const now = new Date();
  const rotated = await rotate(ctx.db, settings, property, { overlapHours: input.overlapHours, now });
  const { secretRotatedAt, previousSecret } = webhookSecretState(rotated, now);
  return {
    propertyId: rotated.id,
    signingSecret: webhookCredentials(settings, rotated).signingSecret,
    secretRotatedAt,
    previousSecret,
    note: previousSecret
      ? `Give senders this secret now: the previous one keeps verifying until ${previousSecret.verifiesUntil}, then is refused (401 invalid_signature).`
      : 'Give senders this secret now: the previous one is refused at once (401 invalid_signature).',
  };
}
