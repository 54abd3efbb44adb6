import type { ExportSourceFactory } from './export-source.ts';
import { answersSource } from './sources/answers.ts';
import { crawlersSource } from './sources/crawlers.ts';
import { leadsSource } from './sources/leads.ts';
import { referralsSource } from './sources/referrals.ts';

/** What can be exported, by the word the console's paths and `ops export` use. */
export const EXPORT_KINDS = ['answers', 'crawlers', 'referrals', 'leads'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const exportSources: Record<ExportKind, ExportSourceFactory> = {
  answers: answersSource,
  crawlers: crawlersSource,
  referrals: referralsSource,
  leads: leadsSource,
};

/** Leads hold personal data (contact, email): exported by owners and admins only, unlike the rest. */
export const EXPORTS_WITH_PERSONAL_DATA: readonly ExportKind[] = ['leads'];
