import { z } from 'zod';
import { dateRangeParams } from '../read-params.ts';
import { planSchema } from './fields.ts';
import { ONBOARDING_CATEGORY_MAX } from './limits.ts';

// The home overview (the figures a marketer reads every morning) and a property's onboarding
// checklist. Kept apart from resources.ts so the overview's shapes read in one place. The figure
// shapes are left unnamed in the document: each use carries its own description (and nullability),
// which a shared named component would take on for every use.

const day = z.iso.date();

/** The same `from`/`to` as the other views; the previous period is the same length, just before. */
export const overviewQuery = z.object({ ...dateRangeParams });

export const onboardingQuery = z.object({
  category: z.string().trim().max(ONBOARDING_CATEGORY_MAX).optional().openapi({
    description:
      'What the property sells, in a few words (web analytics): fills the category prompt templates. Not stored.',
  }),
});

const trendSchema = z.enum(['up', 'down', 'flat', 'new', 'none']).openapi({
  description:
    'Against the previous period: up, down or flat; new when the previous period had none and this one has some; none when neither has any.',
});

/** A percentage (0–100) and its change in points. */
const percentFigure = z.object({
  current: z.number().nullable().openapi({ description: 'Percent, 0–100; null when there is nothing to divide.' }),
  previous: z.number().nullable(),
  changePoints: z.number().nullable().openapi({ description: 'current − previous, in percentage points.' }),
  trend: trendSchema,
});

/** An average (rank, sentiment) and its absolute change. */
const averageFigure = z.object({
  current: z.number().nullable().openapi({ description: 'Null when nothing was averaged.' }),
  previous: z.number().nullable(),
  change: z.number().nullable().openapi({ description: 'current − previous.' }),
  trend: trendSchema,
});

/** A count and its relative change. */
const countFigure = z.object({
  current: z.number().int(),
  previous: z.number().int(),
  changePercent: z
    .number()
    .nullable()
    .openapi({ description: '(current − previous) / previous × 100; null when previous is 0 (trend says new).' }),
  trend: trendSchema,
});

export const overviewFiguresSchema = z
  .object({
    answers: z.number().int().openapi({ description: 'Collected answers in the period (what visibility divides by).' }),
    visibility: percentFigure.openapi({ description: 'Share of collected answers that mention the brand.' }),
    shareOfVoice: percentFigure.nullable().openapi({
      description:
        'Brand mentions over brand + tracked competitor mentions. Null in the team total and for a property that tracks no competitor.',
    }),
    averageRank: averageFigure.nullable().openapi({
      description:
        'Among the brands an answer names: 1 + tracked competitors first named before the brand, over answers that mention it. Lower is better. Null in the team total and for a property that tracks no competitor.',
    }),
    averageSentiment: averageFigure,
    crawlerHits: countFigure.openapi({ description: 'AI crawler hits (dual-use crawlers only where counted).' }),
    aiVisits: countFigure.openapi({ description: 'Human visits referred by an AI platform.' }),
    aiLeads: countFigure.openapi({ description: 'Leads attributed to an AI platform.' }),
  })
  .openapi('OverviewFigures');

export const ONBOARDING_STEPS = ['prompts', 'competitors', 'crawl', 'webhook', 'answers'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const onboardingChecklistSchema = z
  .object({
    steps: z.array(
      z.object({
        step: z.enum(ONBOARDING_STEPS).openapi({
          description:
            'prompts: at least one active prompt; competitors: at least one; crawl: a batch was accepted; webhook: the lead webhook is verified; answers: AI answers are stored (what shows that platform keys are configured).',
        }),
        done: z.boolean(),
        detail: z.string().openapi({ description: 'What was found, in words.' }),
      }),
    ),
    complete: z.boolean(),
  })
  .openapi('OnboardingChecklist');

export const whatChangedSchema = z
  .object({
    propertyId: z.uuid(),
    propertyName: z.string(),
    kind: z.enum(['visibility', 'share_of_voice', 'rank', 'crawler', 'visits', 'leads', 'new_competitor']),
    text: z.string().openapi({ description: 'The movement in plain words.' }),
    direction: z.enum(['up', 'down', 'new']),
  })
  .openapi('WhatChanged');

export const overviewSchema = z
  .object({
    from: day,
    to: day,
    previousFrom: day,
    previousTo: day,
    total: overviewFiguresSchema,
    properties: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        domain: z.string(),
        plan: planSchema,
        figures: overviewFiguresSchema,
        setup: onboardingChecklistSchema,
      }),
    ),
    whatChanged: z.object({
      from: day,
      to: day,
      changes: z.array(whatChangedSchema).openapi({ description: 'Largest first, at most 8.' }),
    }),
  })
  .openapi('Overview');

export const onboardingSchema = z
  .object({
    propertyId: z.uuid(),
    checklist: onboardingChecklistSchema,
    suggestedPrompts: z.array(z.object({ text: z.string(), why: z.string() })),
    suggestedCompetitors: z.array(
      z.object({
        name: z.string(),
        domain: z.string(),
        citations: z.number().int().openapi({ description: 'Times the property’s stored answers cite the domain.' }),
      }),
    ),
  })
  .openapi('Onboarding');
