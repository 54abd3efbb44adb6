import type { AlertNotificationType } from '@vt/contracts';
import { type AlertRuleKind, alertRuleKindSchema } from '@vt/contracts/console';
import type { AlertRule, Prisma, PrismaClient, Property } from '@vt/db';
import { enqueueEmail, InvalidEmailError, wakeEmailSender } from '@vt/mail';
import { enqueueWebhookDeliveries, recordWebhookNotification } from '@vt/outgoing-webhooks';
import type { Queue } from '@vt/queue';
import { type NewCompetitor, newCompetitors, type ObservedFigures, observeProperty } from './conditions.ts';
import { alertMessage } from './messages.ts';
import { type AlertTransition, nextRuleState, type RuleState } from './rule-state.ts';

// The evaluation of a property's alert rules, exactly once however many notifiers run it and
// however often BullMQ delivers its job:
// 1. the conditions are read first, without a lock (the reads are the slow part);
// 2. one transaction locks the property's rules (SELECT … FOR UPDATE: a second evaluation waits
//    here, then reads the state the first committed), steps each rule's state machine, and
//    writes the new state, the message's row (unique on an event id derived from the rule and its
//    change of state: the rule's id, its episode, the transition and the reminder's number), the
//    emails (enqueueEmail, deduplicated on that id and the recipient) and the webhook deliveries
//    (recordWebhookNotification, unique on destination and that id), all or nothing;
// 3. after the commit the email sender and the webhook deliveries are woken; were that lost, the
//    sweeps of both find the rows.

export interface AlertEvaluationDeps {
  db: PrismaClient;
  /** The console's public base URL: the links in every message. */
  consoleUrl: string;
  /** How long a status must be seen before the rule changes to it (rule-state.ts). */
  holdMs: number;
  /** Where emails and webhook deliveries are woken after the commit; none: the sweeps send them. */
  emailQueue?: Queue;
  webhookQueue?: Queue;
  onWakeFailure?: (err: unknown) => void;
  onSkippedRecipient?: (details: { ruleId: string; userId: string }) => void;
}

export interface SentAlert {
  propertyId: string;
  kind: AlertRuleKind;
  type: AlertNotificationType;
  eventId: string;
  emails: number;
  webhooks: number;
}

interface Composed {
  rule: AlertRule;
  transition: AlertTransition;
  eventId: string;
  since: Date;
  firingSince?: Date | null;
  observed: ObservedFigures;
  competitor?: NewCompetitor;
}

const stateOf = (rule: AlertRule): RuleState => ({
  status: rule.status === 'firing' ? 'firing' : 'ok',
  statusSince: rule.statusSince,
  pendingSince: rule.pendingSince,
  episode: rule.episode,
  reminders: rule.reminders,
  lastNotifiedAt: rule.lastNotifiedAt,
  lastReminderAt: rule.lastReminderAt,
});

/** Every property with an enabled rule, one after the other; one property's failure is logged by the caller. */
export async function evaluateAlerts(
  deps: AlertEvaluationDeps,
  now: Date,
  onPropertyError: (propertyId: string, err: unknown) => void = () => {},
): Promise<{ properties: number; sent: SentAlert[] }> {
  const properties = await deps.db.alertRule.findMany({
    where: { enabled: true },
    distinct: ['propertyId'],
    select: { propertyId: true },
    orderBy: { propertyId: 'asc' },
  });
  const sent: SentAlert[] = [];
  for (const { propertyId } of properties) {
    try {
      sent.push(...(await evaluateProperty(deps, propertyId, now)));
    } catch (err) {
      onPropertyError(propertyId, err);
    }
  }
  return { properties: properties.length, sent };
}

/** One property's rules: observe, then lock, step, record and send in one transaction. */
export async function evaluateProperty(deps: AlertEvaluationDeps, propertyId: string, now: Date): Promise<SentAlert[]> {
  const { db } = deps;
  const property = await db.property.findUnique({ where: { id: propertyId } });
  if (!property) return [];
  const enabled = await db.alertRule.findMany({ where: { propertyId, enabled: true }, select: { kind: true } });
  const kinds = new Set(enabled.map((r) => alertRuleKindSchema.parse(r.kind)));
  if (kinds.size === 0) return [];
  const observations = await observeProperty(db, property, kinds, now);
  const fresh = kinds.has('new_competitor') ? await newCompetitors(db, propertyId, now) : [];

  const { sent, emailIds, deliveryIds } = await db.$transaction(async (tx) => {
    const lockedIds = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM alert_rules WHERE property_id = ${propertyId}::uuid AND enabled ORDER BY kind FOR UPDATE`;
    const rules = await tx.alertRule.findMany({ where: { id: { in: lockedIds.map((r) => r.id) } } });
    const composed: Composed[] = [];
    for (const rule of rules) {
      const kind = alertRuleKindSchema.parse(rule.kind);
      if (kind === 'new_competitor') {
        for (const competitor of fresh) {
          composed.push({
            rule,
            transition: 'firing',
            eventId: `alert:${rule.id}:${competitor.competitorId}:${competitor.firstDay}`,
            since: now,
            observed: { ...competitor },
            competitor,
          });
        }
        await tx.alertRule.update({
          where: { id: rule.id },
          data: {
            evaluatedAt: now,
            observed: { newCompetitors: fresh.map((c) => c.name) },
            ...(fresh.length > 0 ? { lastNotifiedAt: now } : {}),
          },
        });
        continue;
      }
      const observation = observations.get(kind);
      if (!observation) continue;
      const before = stateOf(rule);
      const { state, transition } = nextRuleState(before, observation.holds(rule.threshold), now, deps.holdMs);
      await tx.alertRule.update({
        where: { id: rule.id },
        data: { ...state, observed: observation.observed, evaluatedAt: now },
      });
      if (!transition) continue;
      composed.push({
        rule,
        transition,
        eventId: `alert:${rule.id}:${state.episode}:${transition}${transition === 'reminder' ? `:${state.reminders}` : ''}`,
        since: state.statusSince ?? now,
        firingSince: transition === 'resolved' ? before.statusSince : null,
        observed: observation.observed,
      });
    }
    const recorded = { sent: [] as SentAlert[], emailIds: [] as string[], deliveryIds: [] as string[] };
    for (const message of composed) await record(deps, tx, property, message, now, recorded);
    return recorded;
  });

  await wakeSenders(deps, emailIds, deliveryIds);
  return sent;
}

/** The message's row, emails and webhook deliveries; nothing when its event id was recorded before. */
async function record(
  deps: AlertEvaluationDeps,
  tx: Prisma.TransactionClient,
  property: Property,
  c: Composed,
  now: Date,
  into: { sent: SentAlert[]; emailIds: string[]; deliveryIds: string[] },
): Promise<void> {
  const kind = alertRuleKindSchema.parse(c.rule.kind);
  const type: AlertNotificationType = `alert.${c.transition}`;
  const message = alertMessage({
    kind,
    transition: c.transition,
    property,
    since: c.since,
    firingSince: c.firingSince,
    threshold: c.rule.threshold,
    observed: c.observed,
    consoleUrl: deps.consoleUrl,
    competitor: c.competitor,
  });
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO alert_notifications (id, property_id, kind, type, event_id, occurred_at, subject)
    VALUES (gen_random_uuid(), ${property.id}::uuid, ${kind}, ${type}, ${c.eventId}, ${now}, ${message.subject})
    ON CONFLICT (event_id) DO NOTHING
    RETURNING id::text`;
  const row = inserted[0];
  if (!row) return;

  let emails = 0;
  for (const recipient of await recipientsOf(tx, property.teamId, c.rule)) {
    try {
      const { id, created } = await enqueueEmail(tx, {
        teamId: property.teamId,
        kind: 'alert',
        to: recipient.email,
        subject: message.subject,
        text: message.text,
        html: message.html,
        dedupeKey: `${c.eventId}:${recipient.userId}`,
      });
      if (created) into.emailIds.push(id);
      emails += 1;
    } catch (err) {
      // An address the outbox refuses (none should be: accounts' addresses are checked at sign-up)
      // costs that one person their email, not everyone theirs.
      if (!(err instanceof InvalidEmailError)) throw err;
      deps.onSkippedRecipient?.({ ruleId: c.rule.id, userId: recipient.userId });
    }
  }
  const deliveries = c.rule.webhooks
    ? await recordWebhookNotification(tx, property.id, {
        eventId: c.eventId,
        type,
        occurredAt: now.toISOString(),
        property: { id: property.id, name: property.name, domain: property.domain },
        text: message.line,
        data: {
          rule: kind,
          threshold: c.rule.threshold,
          since: c.since.toISOString(),
          ...(c.firingSince ? { firingSince: c.firingSince.toISOString() } : {}),
          observed: c.observed,
          link: message.link,
        },
      })
    : [];
  into.deliveryIds.push(...deliveries);
  await tx.alertNotification.update({ where: { id: row.id }, data: { emails, webhooks: deliveries.length } });
  into.sent.push({ propertyId: property.id, kind, type, eventId: c.eventId, emails, webhooks: deliveries.length });
}

/**
 * Who a rule emails: the team's owners and admins of the day, or the members it names who are
 * still members (a removed member stops receiving at once).
 */
async function recipientsOf(tx: Prisma.TransactionClient, teamId: string, rule: AlertRule) {
  const members = await tx.membership.findMany({
    where: {
      teamId,
      ...(rule.emailOwnersAndAdmins ? { role: { in: ['owner', 'admin'] } } : { userId: { in: rule.emailUserIds } }),
    },
    select: { user: { select: { id: true, email: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return members.map((m) => ({ userId: m.user.id, email: m.user.email }));
}

async function wakeSenders(deps: AlertEvaluationDeps, emailIds: string[], deliveryIds: string[]) {
  try {
    if (deps.emailQueue) for (const id of emailIds) await wakeEmailSender(deps.emailQueue, id);
    if (deps.webhookQueue) await enqueueWebhookDeliveries(deps.webhookQueue, deliveryIds);
  } catch (err) {
    // Committed: the email and webhook sweeps queue what this could not.
    deps.onWakeFailure?.(err);
  }
}
