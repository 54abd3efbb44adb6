import { currentWebhookSecret, deriveWebhookSecret } from '@vt/credentials';
import { testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { ops, opsWithEnv } from '../testing/run-ops.ts';

// `ops webhook rotate-secret --property <id> [--overlap-hours N]` run as the CLI is (in-process,
// --json): refused under the spec's default (LEAD-17, WEBHOOK_SECRET_ROTATION=deployment) and for
// bad input, with the property's row untouched; under `property`, the new secret printed with until
// when the previous one verifies. (That both verify through the gateway: ingest-gateway's
// webhook-secret-rotation.test.ts.)

const db = testDb();
const PER_PROPERTY = { WEBHOOK_SECRET_ROTATION: 'property' };
const KEY = testEnv.WEBHOOK_SIGNING_KEY;

async function newProperty() {
  const slug = uniqueSlug('rotate-ops');
  const team = await db.team.create({ data: { name: slug, slug } });
  return db.property.create({ data: { teamId: team.id, name: slug, domain: 'example.com', plan: 'growth' } });
}

/** The property's rotation state as stored. */
const stateOf = (id: string) =>
  db.property.findUniqueOrThrow({
    where: { id },
    select: {
      webhookSecretNonce: true,
      webhookPreviousSecretNonce: true,
      webhookPreviousSecretUntil: true,
      webhookSecretRotatedAt: true,
    },
  });

describe('ops webhook rotate-secret', () => {
  it('[LEAD-17] refuses under the default deployment-wide rotation, naming the setting, and changes nothing', async () => {
    const property = await newProperty();
    const before = await stateOf(property.id);
    const refused = await ops('webhook', 'rotate-secret', '--property', property.id);
    expect(refused.code).toBe(2);
    expect(refused.json.error.code).toBe('invalid_argument');
    expect(refused.json.error.message).toContain('WEBHOOK_SECRET_ROTATION');
    expect(refused.json.error.message).toContain('WEBHOOK_SECRET_ROTATION=property');
    expect(await stateOf(property.id)).toEqual(before);
    // The dialog's secret is still the one derived from the property id.
    const shown = await ops('property', 'show', '--property', property.id);
    expect(shown.json.webhook.signingSecret).toBe(deriveWebhookSecret(KEY, property.id));
  });

  it('under WEBHOOK_SECRET_ROTATION=property prints the new secret once and until when the previous one verifies', async () => {
    const property = await newProperty();
    const started = Date.now();
    const rotated = await opsWithEnv(
      PER_PROPERTY,
      'webhook',
      'rotate-secret',
      '--property',
      property.id,
      '--overlap-hours',
      '6',
    );
    expect(rotated.code).toBe(0);
    const stored = await stateOf(property.id);
    expect(stored.webhookSecretNonce).not.toBeNull();
    expect(stored.webhookPreviousSecretNonce).toBeNull(); // the secret derived from the id
    expect(rotated.json).toEqual({
      propertyId: property.id,
      signingSecret: currentWebhookSecret(KEY, property.id, stored.webhookSecretNonce),
      secretRotatedAt: stored.webhookSecretRotatedAt?.toISOString(),
      previousSecret: { verifiesUntil: stored.webhookPreviousSecretUntil?.toISOString() },
      note: expect.stringContaining(`keeps verifying until ${stored.webhookPreviousSecretUntil?.toISOString()}`),
    });
    expect(rotated.json.signingSecret).not.toBe(deriveWebhookSecret(KEY, property.id));
    const rotatedAt = Date.parse(rotated.json.secretRotatedAt);
    expect(rotatedAt).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(rotated.json.previousSecret.verifiesUntil) - rotatedAt).toBe(6 * 3_600_000);
    // What the setup dialog (and `ops property show`) shows from now on.
    const shown = await opsWithEnv(PER_PROPERTY, 'property', 'show', '--property', property.id);
    expect(shown.json.webhook.signingSecret).toBe(rotated.json.signingSecret);

    // The default overlap is 24 hours; 0 ends the previous secret at once.
    const again = await opsWithEnv(PER_PROPERTY, 'webhook', 'rotate-secret', '--property', property.id);
    expect(Date.parse(again.json.previousSecret.verifiesUntil) - Date.parse(again.json.secretRotatedAt)).toBe(
      24 * 3_600_000,
    );
    const atOnce = await opsWithEnv(
      PER_PROPERTY,
      'webhook',
      'rotate-secret',
      '--property',
      property.id,
      '--overlap-hours',
      '0',
    );
    expect(atOnce.json.previousSecret).toBeNull();
    expect(atOnce.json.note).toContain('refused at once');
    expect((await stateOf(property.id)).webhookPreviousSecretUntil).toBeNull();
  });

  it('refused input changes nothing: a bad overlap, an unknown property, no signing key', async () => {
    const property = await newProperty();
    const before = await stateOf(property.id);
    for (const hours of ['169', '-1', '1.5', 'a day', '']) {
      const bad = await opsWithEnv(
        PER_PROPERTY,
        'webhook',
        'rotate-secret',
        '--property',
        property.id,
        '--overlap-hours',
        hours,
      );
      expect(bad.code, hours).toBe(2);
      expect(bad.json.error.code, hours).toBe('invalid_argument');
      expect(bad.json.error.message, hours).toContain('--overlap-hours');
    }
    const unknown = await opsWithEnv(PER_PROPERTY, 'webhook', 'rotate-secret', '--property', 'not-a-property');
    expect(unknown.json.error.code).toBe('property_not_found');
    const noKey = await opsWithEnv(
      { ...PER_PROPERTY, WEBHOOK_SIGNING_KEY: '' },
      'webhook',
      'rotate-secret',
      '--property',
      property.id,
    );
    expect(noKey.code).toBe(1);
    expect(noKey.json.error.code).toBe('not_configured');
    expect(noKey.json.error.message).toContain('WEBHOOK_SIGNING_KEY');
    expect(await stateOf(property.id)).toEqual(before);
  });
});
