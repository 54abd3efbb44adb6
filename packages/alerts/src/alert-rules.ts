import { alertNotificationTypeSchema } from '@vt/contracts';
import {
  ALERT_NOTIFICATIONS_SHOWN,
  ALERT_RULE_KINDS,
  ALERT_THRESHOLDS,
  type AlertRuleKind,
  alertObservedSchema,
  alertRuleKindSchema,
  hasThreshold,
  OperationError,
  type UpdateAlertRules,
} from '@vt/contracts/console';
import { type AlertRule, Prisma, type PrismaClient, type Property } from '@vt/db';

// A property's alert rules as the console reads and changes them. A kind without a row is
// switched off with its defaults: rules are opt-in, so a deployment that upgrades does not start
// emailing people who never asked.

/** The state columns of a rule not yet evaluated: what switching a rule off returns it to. */
const CLEARED_STATE = {
  status: 'ok',
  statusSince: null,
  pendingSince: null,
  reminders: 0,
  lastNotifiedAt: null,
  lastReminderAt: null,
  observed: Prisma.DbNull,
  evaluatedAt: null,
} as const;

const defaultThreshold = (kind: AlertRuleKind) => (hasThreshold(kind) ? ALERT_THRESHOLDS[kind].default : null);

/** Every kind's rule with its state, the newest messages, and how many webhooks they reach. */
export async function listAlertRules(db: PrismaClient, property: Property) {
  const [rows, members, notifications, webhookCount] = await Promise.all([
    db.alertRule.findMany({ where: { propertyId: property.id } }),
    db.membership.findMany({ where: { teamId: property.teamId }, select: { userId: true } }),
    db.alertNotification.findMany({
      where: { propertyId: property.id },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      take: ALERT_NOTIFICATIONS_SHOWN,
    }),
    db.webhookDestination.count({ where: { propertyId: property.id, disabledAt: null } }),
  ]);
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  const memberIds = new Set(members.map((m) => m.userId));
  return {
    rules: ALERT_RULE_KINDS.map((kind) => ruleView(kind, byKind.get(kind), memberIds)),
    notifications: notifications.map((n) => ({
      eventId: n.eventId,
      // Text columns held to these values by CHECK constraints; parsed, not asserted.
      kind: alertRuleKindSchema.parse(n.kind),
      type: alertNotificationTypeSchema.parse(n.type),
      occurredAt: n.occurredAt.toISOString(),
      subject: n.subject,
      emails: n.emails,
      webhooks: n.webhooks,
    })),
    webhookCount,
  };
}

function ruleView(kind: AlertRuleKind, row: AlertRule | undefined, memberIds: ReadonlySet<string>) {
  const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
  const status: 'ok' | 'firing' = row?.status === 'firing' ? 'firing' : 'ok';
  return {
    kind,
    enabled: row?.enabled ?? false,
    threshold: row ? row.threshold : defaultThreshold(kind),
    thresholdRange: hasThreshold(kind) ? { ...ALERT_THRESHOLDS[kind] } : null,
    emailTo: (row?.emailOwnersAndAdmins ?? true) ? ('owners_and_admins' as const) : ('chosen' as const),
    // A member who left is no recipient any more, whatever the row still names.
    emailUserIds: (row?.emailUserIds ?? []).filter((id) => memberIds.has(id)),
    webhooks: row?.webhooks ?? true,
    state: {
      status,
      since: iso(row?.statusSince),
      pending: row?.pendingSince ? (status === 'firing' ? ('ok' as const) : ('firing' as const)) : null,
      lastNotifiedAt: iso(row?.lastNotifiedAt),
      lastReminderAt: iso(row?.lastReminderAt),
      evaluatedAt: iso(row?.evaluatedAt),
      observed: alertObservedSchema.nullable().parse(row?.observed ?? null),
    },
  };
}

/**
 * Applies the changes, all or none: every named recipient must be a member of the property's
 * team (400 naming the field otherwise). Switching a rule off clears its state without a message:
 * whoever switched it off knows, and a "resolved" would claim the problem ended when it did not.
 */
export async function updateAlertRules(db: PrismaClient, property: Property, body: UpdateAlertRules) {
  const named = [...new Set(body.rules.flatMap((r) => r.emailUserIds ?? []))];
  const members = named.length
    ? await db.membership.findMany({
        where: { teamId: property.teamId, userId: { in: named } },
        select: { userId: true },
      })
    : [];
  const memberIds = new Set(members.map((m) => m.userId));
  const problems = body.rules.flatMap((rule, i) =>
    (rule.emailUserIds ?? []).flatMap((id, j) =>
      memberIds.has(id) ? [] : [{ path: `rules.${i}.emailUserIds.${j}`, message: 'is not a member of this team' }],
    ),
  );
  if (problems.length > 0) {
    throw new OperationError('INVALID_BODY', 'Alert emails go to members of the team only.', problems);
  }
  await db.$transaction(async (tx) => {
    // The evaluation locks the same rows: a change waits for an evaluation in flight, and the
    // next one reads the change.
    await tx.$queryRaw`SELECT id FROM alert_rules WHERE property_id = ${property.id}::uuid FOR UPDATE`;
    for (const change of body.rules) {
      const existing = await tx.alertRule.findUnique({
        where: { propertyId_kind: { propertyId: property.id, kind: change.kind } },
      });
      const config = {
        ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
        ...(change.threshold !== undefined ? { threshold: change.threshold } : {}),
        ...(change.emailTo !== undefined ? { emailOwnersAndAdmins: change.emailTo === 'owners_and_admins' } : {}),
        ...(change.emailUserIds !== undefined ? { emailUserIds: change.emailUserIds } : {}),
        ...(change.webhooks !== undefined ? { webhooks: change.webhooks } : {}),
      };
      const switchedOff = change.enabled === false && existing?.enabled === true;
      if (existing) {
        await tx.alertRule.update({
          where: { id: existing.id },
          data: { ...config, ...(switchedOff ? CLEARED_STATE : {}) },
        });
      } else {
        await tx.alertRule.create({
          data: { propertyId: property.id, kind: change.kind, threshold: defaultThreshold(change.kind), ...config },
        });
      }
    }
  });
  return listAlertRules(db, property);
}
