import { OperationError, type WebhookSecretRotation } from '@vt/contracts/console';
import {
  currentWebhookSecret,
  deriveCrawlToken,
  deriveVercelDrainSecret,
  generateWebhookSecretNonce,
} from '@vt/credentials';
import type { DeliveryLogEntry, PrismaClient, Property } from '@vt/db';
import {
  acceptedLeadIds,
  crawlConnectionStatus,
  isAcceptedCrawlAttempt,
  isStoredLeadAttempt,
  latestCrawlRefusal,
  latestWebhookRefusal,
  leadWebhookStatus,
  recentDeliveries,
} from '@vt/delivery-log';
import { crawlProviderSetups, crawlSnippets } from './snippets.ts';

/** The deployment facts the setup dialogs are made of. */
export interface ConnectionSettings {
  /** Public base URL of the ingest gateway, without a trailing slash. */
  publicIngestUrl: string;
  crawlTokenSecret?: string;
  webhookSigningKey?: string;
  /**
   * WEBHOOK_SECRET_ROTATION: whether one property's lead webhook secret may be rolled (`property`),
   * or only every property's at once (`deployment`, the spec's rule and the default).
   */
  webhookSecretRotation?: WebhookSecretRotation;
}

const CRAWL_NOT_CONFIGURED = 'CRAWL_TOKEN_SECRET is not set: crawl ingest answers 503 and has no token.';
const WEBHOOK_NOT_CONFIGURED = 'WEBHOOK_SIGNING_KEY is not set: the lead webhook answers 503 and has no secret.';

/** The crawl ingest URL and token of a property (token null when the deployment has no secret). */
export function crawlCredentials(settings: ConnectionSettings, property: Property) {
  return {
    endpointUrl: `${settings.publicIngestUrl}/api/ingest/crawl/${property.id}`,
    token: settings.crawlTokenSecret
      ? deriveCrawlToken(settings.crawlTokenSecret, property.id, property.crawlTokenVersion)
      : null,
  };
}

/** The lead webhook URL and signing secret of a property (secret null when the deployment has no key). */
export function webhookCredentials(settings: ConnectionSettings, property: Property) {
  return {
    url: `${settings.publicIngestUrl}/api/webhooks/leads/${property.id}`,
    signingSecret: settings.webhookSigningKey
      ? currentWebhookSecret(settings.webhookSigningKey, property.id, property.webhookSecretNonce)
      : null,
  };
}

/** Why a secret is missing from the setup dialogs, if it is. */
export function configurationNotes(settings: ConnectionSettings): string[] {
  return [
    ...(settings.crawlTokenSecret ? [] : [CRAWL_NOT_CONFIGURED]),
    ...(settings.webhookSigningKey ? [] : [WEBHOOK_NOT_CONFIGURED]),
  ];
}

/** A refused attempt the dialog warns about while the status stays Connected or Verified. */
const refusal = (entry: DeliveryLogEntry | null) =>
  entry
    ? { at: entry.createdAt.toISOString(), statusCode: entry.statusCode, reason: entry.reason, fix: entry.fix }
    : null;

/** The crawl connection's state, derived from the delivery log (CRAWL-30). */
export async function crawlConnection(db: PrismaClient, property: Property, now = new Date()) {
  const logged = await recentDeliveries(db, property.id, 'crawl');
  // The property's senders' attempts: a summary of wrong-token attempts is in the log, not here.
  const attempts = logged.filter((a) => a.authenticated);
  const accepted = attempts.find(isAcceptedCrawlAttempt);
  const input = {
    ingestionEnabled: property.crawlIngestionEnabled,
    statusSince: property.crawlStatusSince,
    attempts,
    now,
  };
  return {
    status: crawlConnectionStatus(input),
    latestRefusal: refusal(latestCrawlRefusal(input)),
    ingestionEnabled: property.crawlIngestionEnabled,
    lastAttemptAt: attempts[0]?.createdAt.toISOString() ?? null,
    lastAcceptedAt: accepted?.createdAt.toISOString() ?? null,
    verificationRestartedAt: property.crawlStatusSince?.toISOString() ?? null,
  };
}

/**
 * The crawl setup dialog. `showSecrets` false (members) leaves the token out, and the snippets
 * and the providers' setups carry a placeholder instead (TEAM-5 applied to the crawl token, and to
 * the Vercel drain secret derived with it).
 */
export async function crawlSetup(
  db: PrismaClient,
  settings: ConnectionSettings,
  property: Property,
  options: { showSecrets: boolean; now?: Date },
) {
  const { endpointUrl, token } = crawlCredentials(settings, property);
  const shownToken = options.showSecrets ? token : null;
  return {
    propertyId: property.id,
    endpointUrl,
    token: shownToken,
    tokenVersion: property.crawlTokenVersion,
    ...(await crawlConnection(db, property, options.now)),
    snippets: crawlSnippets({
      endpointUrl,
      token: shownToken,
      domain: property.domain,
      now: options.now ?? new Date(),
    }),
    providers: crawlProviderSetups({
      endpointUrl,
      token: shownToken,
      vercelDrainSecret:
        options.showSecrets && settings.crawlTokenSecret
          ? deriveVercelDrainSecret(settings.crawlTokenSecret, property.id, property.crawlTokenVersion)
          : null,
      domain: property.domain,
    }),
    notes: [
      ...(settings.crawlTokenSecret ? [] : [CRAWL_NOT_CONFIGURED]),
      ...(token && !shownToken ? ['The token is shown to owners and admins only.'] : []),
    ],
  };
}

/** Bumps the token version: the old token fails at once, on every gateway replica (nothing is cached). */
export async function rotateCrawlToken(db: PrismaClient, settings: ConnectionSettings, property: Property) {
  if (!settings.crawlTokenSecret) throw new OperationError('NOT_CONFIGURED', CRAWL_NOT_CONFIGURED);
  return db.property.update({ where: { id: property.id }, data: { crawlTokenVersion: { increment: 1 } } });
}

/** Switches crawl ingestion off: every attempt is refused with 403 and logged, nothing stored. */
export function disconnectCrawl(db: PrismaClient, property: Property) {
  return db.property.update({ where: { id: property.id }, data: { crawlIngestionEnabled: false } });
}

/** Switches ingestion back on; verification restarts (status Not verified until the next batch). */
export function reconnectCrawl(db: PrismaClient, property: Property, now = new Date()) {
  return db.property.update({
    where: { id: property.id },
    data: { crawlIngestionEnabled: true, crawlStatusSince: now },
  });
}

/** The webhook's state, derived from the delivery log (LEAD-16). */
export async function webhookConnection(db: PrismaClient, property: Property, now = new Date()) {
  // Attempts whose signature verified: a summary of those refused before is in the log, not here.
  const attempts = (await recentDeliveries(db, property.id, 'webhook')).filter((a) => a.authenticated);
  const named = acceptedLeadIds(attempts);
  const stored = named.length
    ? await db.lead.findMany({ where: { propertyId: property.id, id: { in: named } }, select: { id: true } })
    : [];
  const storedLeadIds = new Set(stored.map((lead) => lead.id));
  const accepted = attempts.find((attempt) => isStoredLeadAttempt(attempt, storedLeadIds));
  return {
    status: leadWebhookStatus(attempts, storedLeadIds, now),
    latestRefusal: refusal(latestWebhookRefusal(attempts, storedLeadIds, now)),
    lastAttemptAt: attempts[0]?.createdAt.toISOString() ?? null,
    lastAcceptedAt: accepted?.createdAt.toISOString() ?? null,
  };
}

/** The lead webhook setup dialog; the signing secret only with `showSecrets` (TEAM-5). */
export async function webhookSetup(
  db: PrismaClient,
  settings: ConnectionSettings,
  property: Property,
  options: { showSecrets: boolean; now?: Date },
) {
  const { url, signingSecret } = webhookCredentials(settings, property);
  return {
    propertyId: property.id,
    url,
    signingSecret: options.showSecrets ? signingSecret : null,
    ...webhookSecretState(property, options.now ?? new Date()),
    secretRotation: settings.webhookSecretRotation ?? 'deployment',
    ...(await webhookConnection(db, property, options.now)),
    notes: [
      ...(settings.webhookSigningKey ? [] : [WEBHOOK_NOT_CONFIGURED]),
      ...(signingSecret && !options.showSecrets ? ['The signing secret is shown to owners and admins only.'] : []),
    ],
  };
}

/** The default overlap of a webhook secret rotation: the old secret verifies 24 hours more. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

/** When the secret was last rotated, and until when the one before it still verifies (null: it does not). */
export function webhookSecretState(property: Property, now: Date) {
  const until = property.webhookPreviousSecretUntil;
  return {
    secretRotatedAt: property.webhookSecretRotatedAt?.toISOString() ?? null,
    previousSecret: until && until > now ? { verifiesUntil: until.toISOString() } : null,
  };
}

/**
 * Rotates one property's lead webhook secret: a new random version becomes current, and the one
 * before keeps verifying for `overlapHours` (0: refused at once), so senders move without a gap.
 * A second rotation during an overlap ends the older secret at once: two secrets verify at most.
 * The gateway picks it up within its property cache's TTL (PROPERTY_CACHE_TTL_MS).
 */
export async function rotateWebhookSecret(
  db: PrismaClient,
  settings: ConnectionSettings,
  property: Property,
  options: { overlapHours?: number; now?: Date } = {},
) {
  if (!settings.webhookSigningKey) throw new OperationError('NOT_CONFIGURED', WEBHOOK_NOT_CONFIGURED);
  const now = options.now ?? new Date();
  const overlapMs = (options.overlapHours ?? WEBHOOK_SECRET_OVERLAP_HOURS) * 3_600_000;
  // Conditional on the version read, so two rotations at once do not both keep the same previous.
  const rotated = await db.property.updateManyAndReturn({
    where: { id: property.id, webhookSecretNonce: property.webhookSecretNonce },
    data: {
      webhookSecretNonce: generateWebhookSecretNonce(),
      webhookPreviousSecretNonce: property.webhookSecretNonce,
      webhookPreviousSecretUntil: overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null,
      webhookSecretRotatedAt: now,
    },
  });
  if (rotated[0]) return rotated[0];
  // Rotated by someone else meanwhile: that rotation stands, and is what the caller sees.
  return db.property.findUniqueOrThrow({ where: { id: property.id } });
}
