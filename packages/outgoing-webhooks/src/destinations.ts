import { ALERT_WEBHOOKS_PER_PROPERTY, OperationError } from '@vt/contracts/console';
import { deriveAlertWebhookSecret } from '@vt/credentials';
import { Prisma, type PrismaClient, type WebhookDestination } from '@vt/db';
import {
  beyondCursor,
  cursorPage,
  inPageOrder,
  isoInstant,
  type Page,
  pageOrder,
  type SortColumn,
} from '@vt/read-model';
import { checkWebhookUrl, type TargetPolicy, targetRefusalMessage } from './target-guard.ts';
import type { WebhookFormat } from './webhook-request.ts';

// A property's alert webhooks, as owners and admins set them and everyone reads them. Every URL
// passes the SSRF guard before it is stored; the signing secret is derived, never stored.

/** What the alert webhook operations read of the deployment. */
export interface AlertWebhookSettings {
  /** ALERT_WEBHOOK_SIGNING_KEY; without it, only Slack webhooks can be added. */
  signingKey: string | undefined;
  policy: TargetPolicy;
}

export const alertWebhookNotFound = () => new OperationError('NOT_FOUND', 'No alert webhook with that id.');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the property's webhooks; another property's, or a made-up id, is not found alike. */
export async function findAlertWebhook(db: PrismaClient, propertyId: string, id: string): Promise<WebhookDestination> {
  const found = UUID.test(id) ? await db.webhookDestination.findFirst({ where: { id, propertyId } }) : null;
  if (!found) throw alertWebhookNotFound();
  return found;
}

/** The signing secret of a destination, or null when it has none to show (Slack, no key). */
export function alertWebhookSecret(destination: WebhookDestination, signingKey: string | undefined): string | null {
  if (destination.format !== 'standard' || !signingKey) return null;
  return deriveAlertWebhookSecret(signingKey, destination.id, destination.secretVersion);
}

/** A URL the guard accepts, as it is stored; otherwise a 400 saying why, at `url`. */
async function acceptedUrl(text: string, policy: TargetPolicy): Promise<string> {
  const check = await checkWebhookUrl(text, policy);
  if (check.ok) return check.url.href;
  const message = targetRefusalMessage(check.refusal, policy);
  throw new OperationError('INVALID_BODY', `The webhook URL ${message}.`, [{ path: 'url', message }]);
}

function requireSigningKey(settings: AlertWebhookSettings): void {
  if (!settings.signingKey) {
    throw new OperationError(
      'NOT_CONFIGURED',
      'ALERT_WEBHOOK_SIGNING_KEY is not set on this deployment: signed (standard) webhooks cannot be used; Slack webhooks can.',
    );
  }
}

interface DestinationActivity {
  lastAttempt: {
    attemptedAt: string;
    outcome: 'delivered' | 'retrying' | 'failed';
    statusCode: number | null;
    errorClass: string | null;
  } | null;
  pendingDeliveries: number;
}

/** The newest attempt and the pending count of each destination, in two statements for them all. */
async function activityOf(db: PrismaClient, ids: string[]): Promise<Map<string, DestinationActivity>> {
  const activity = new Map<string, DestinationActivity>(
    ids.map((id) => [id, { lastAttempt: null, pendingDeliveries: 0 }]),
  );
  if (ids.length === 0) return activity;
  const [latest, pending] = await Promise.all([
    db.$queryRaw<
      {
        destination_id: string;
        attempted_at: Date;
        outcome: string;
        status_code: number | null;
        error_class: string | null;
      }[]
    >`
      SELECT DISTINCT ON (destination_id) destination_id::text, attempted_at, outcome, status_code, error_class
      FROM webhook_delivery_attempts WHERE destination_id = ANY(${ids}::uuid[])
      ORDER BY destination_id, attempted_at DESC, attempt DESC`,
    db.webhookDelivery.groupBy({
      by: ['destinationId'],
      where: { destinationId: { in: ids }, status: 'pending' },
      _count: true,
    }),
  ]);
  for (const row of latest) {
    const entry = activity.get(row.destination_id);
    if (entry) {
      entry.lastAttempt = {
        attemptedAt: row.attempted_at.toISOString(),
        outcome: row.outcome as 'delivered' | 'retrying' | 'failed',
        statusCode: row.status_code,
        errorClass: row.error_class,
      };
    }
  }
  for (const row of pending) {
    const entry = activity.get(row.destinationId);
    if (entry) entry.pendingDeliveries = row._count;
  }
  return activity;
}

/** A webhook as the console shows it: URL and secret for owners and admins only. */
function alertWebhookView(
  destination: WebhookDestination,
  activity: DestinationActivity,
  options: { showSecrets: boolean; signingKey: string | undefined },
) {
  return {
    id: destination.id,
    format: destination.format,
    url: options.showSecrets ? destination.url : null,
    host: new URL(destination.url).host,
    description: destination.description,
    enabled: destination.disabledAt === null,
    createdAt: destination.createdAt.toISOString(),
    secret: options.showSecrets ? alertWebhookSecret(destination, options.signingKey) : null,
    ...activity,
  };
}

export type AlertWebhookView = ReturnType<typeof alertWebhookView>;

/** The order they were added, then id. */
const DESTINATION_ORDER: SortColumn[] = [
  { column: 'created_at', type: 'timestamptz' },
  { column: 'id', type: 'uuid' },
];

/** A page of the property's webhooks, oldest first (at most ALERT_WEBHOOKS_PER_PROPERTY in all). */
export async function listAlertWebhooks(
  db: PrismaClient,
  propertyId: string,
  options: { showSecrets: boolean; signingKey: string | undefined },
  page: Page,
) {
  const read = await db.$queryRaw<{ id: string; created_at: Date }[]>(Prisma.sql`
    SELECT id, created_at FROM webhook_destinations
    WHERE property_id = ${propertyId}::uuid AND ${beyondCursor(DESTINATION_ORDER, page)}
    ${pageOrder(DESTINATION_ORDER, page)}`);
  const { rows: keys, ...cursors } = cursorPage(read, page, (row) => [isoInstant(row.created_at), row.id]);
  const rows = inPageOrder(
    keys,
    await db.webhookDestination.findMany({ where: { id: { in: keys.map((k) => k.id) } } }),
  );
  const activity = await activityOf(
    db,
    rows.map((row) => row.id),
  );
  return {
    webhooks: rows.map((row) => alertWebhookView(row, activity.get(row.id)!, options)),
    ...cursors,
    limit: ALERT_WEBHOOKS_PER_PROPERTY,
    signingConfigured: Boolean(options.signingKey),
  };
}

/** One webhook's view, for the answer of a change (made by an owner or admin: secrets shown). */
export async function alertWebhookAnswer(
  db: PrismaClient,
  destination: WebhookDestination,
  signingKey: string | undefined,
) {
  const activity = await activityOf(db, [destination.id]);
  return { webhook: alertWebhookView(destination, activity.get(destination.id)!, { showSecrets: true, signingKey }) };
}

/**
 * Adds a webhook. The property's row is locked while its webhooks are counted, so two requests at
 * once cannot both take the last place.
 */
export async function createAlertWebhook(
  db: PrismaClient,
  settings: AlertWebhookSettings,
  input: { propertyId: string; createdById: string; format: WebhookFormat; url: string; description: string },
): Promise<WebhookDestination> {
  if (input.format === 'standard') requireSigningKey(settings);
  const url = await acceptedUrl(input.url, settings.policy);
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM properties WHERE id = ${input.propertyId}::uuid FOR UPDATE`;
    const count = await tx.webhookDestination.count({ where: { propertyId: input.propertyId } });
    if (count >= ALERT_WEBHOOKS_PER_PROPERTY) {
      throw new OperationError(
        'LIMIT_REACHED',
        `A property has at most ${ALERT_WEBHOOKS_PER_PROPERTY} alert webhooks: remove one to add another.`,
      );
    }
    return tx.webhookDestination.create({
      data: {
        propertyId: input.propertyId,
        createdById: input.createdById,
        format: input.format,
        url,
        description: input.description,
      },
    });
  });
}

export async function updateAlertWebhook(
  db: PrismaClient,
  settings: AlertWebhookSettings,
  destination: WebhookDestination,
  input: { url?: string | undefined; description?: string | undefined; enabled?: boolean | undefined },
): Promise<WebhookDestination> {
  const url = input.url === undefined ? undefined : await acceptedUrl(input.url, settings.policy);
  return db.webhookDestination.update({
    where: { id: destination.id },
    data: {
      ...(url === undefined ? {} : { url }),
      ...(input.description === undefined ? {} : { description: input.description }),
      // Switching on again keeps nothing of the time it was off; switching off twice keeps the first time.
      ...(input.enabled === undefined
        ? {}
        : { disabledAt: input.enabled ? null : (destination.disabledAt ?? new Date()) }),
    },
  });
}

/** Removes a webhook with its deliveries and log (cascade); gone already is not an error. */
export async function deleteAlertWebhook(db: PrismaClient, destination: WebhookDestination): Promise<void> {
  await db.webhookDestination.deleteMany({ where: { id: destination.id } });
}

/** A new signing secret: the version bump makes every later attempt sign with it. */
export async function rotateAlertWebhookSecret(
  db: PrismaClient,
  settings: AlertWebhookSettings,
  destination: WebhookDestination,
): Promise<WebhookDestination> {
  requireSigningKey(settings);
  if (destination.format !== 'standard') {
    throw new OperationError(
      'INVALID_PARAM',
      'A Slack webhook has no signing secret to rotate: its URL is its secret.',
    );
  }
  return db.webhookDestination.update({ where: { id: destination.id }, data: { secretVersion: { increment: 1 } } });
}
