import { AI_PLATFORM_IDS, UNCLASSIFIED_PLATFORM } from '@vt/attribution';
import { Counter, type Registry } from 'prom-client';
import { LEAD_REJECTIONS } from '../rejections.ts';

export type LeadRefusalReason = keyof typeof LEAD_REJECTIONS;

/**
 * The lead webhook's counters. Labels are bounded enums: the five AI platforms and `unclassified`,
 * and the refusal catalogue's reasons (the 404 and 503 the spec gives no reason are counted under
 * their catalogue names, property_not_found and webhook_not_configured). Every series starts at 0,
 * so a rate or an alert works before the first lead of its kind.
 */
export function leadWebhookMetrics(registry: Registry) {
  const accepted = new Counter({
    name: 'vt_leads_accepted_total',
    help: 'Leads accepted and queued (answered 200, not a duplicate), by AI platform (unclassified when none referred the visit).',
    labelNames: ['platform'],
    registers: [registry],
  });
  const duplicates = new Counter({
    name: 'vt_leads_duplicate_total',
    help: 'Repeats of an x-webhook-id already answered: answered 200 with duplicate_event, nothing stored.',
    registers: [registry],
  });
  const refused = new Counter({
    name: 'vt_leads_refused_total',
    help: 'Lead webhook requests refused, by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const platform of [...AI_PLATFORM_IDS, UNCLASSIFIED_PLATFORM]) accepted.inc({ platform }, 0);
  for (const reason of Object.keys(LEAD_REJECTIONS)) refused.inc({ reason }, 0);
  duplicates.inc(0);
  return {
    accepted: (platform: string) => accepted.inc({ platform }),
    duplicate: () => duplicates.inc(),
    refused: (reason: LeadRefusalReason) => refused.inc({ reason }),
  };
}
