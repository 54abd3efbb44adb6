import { z } from 'zod';
import { sourcesQuery } from '../read-params.ts';

// The answers' insight views of the console: the sources AI answers cite (and the gaps against
// competitors), each prompt's latest verdict per platform, and one whole answer. Days are UTC
// `YYYY-MM-DD`; shares run from 0 to 1.

const day = z.iso.date();
const share = z.number().min(0).max(1);

/**
 * Sentiment in words, from the verdict's −1…1 score (AFINN valences squashed as VADER does): the
 * thresholds are VADER's own, so "positive" means at least +0.05 and "negative" at most −0.05.
 */
export const SENTIMENT_POSITIVE_FROM = 0.05;
export const SENTIMENT_NEGATIVE_TO = -0.05;
export const SENTIMENT_WORDS = ['positive', 'neutral', 'negative'] as const;
export type SentimentWord = (typeof SENTIMENT_WORDS)[number];

export function sentimentInWords(score: number | null): SentimentWord | null {
  if (score === null) return null;
  return score >= SENTIMENT_POSITIVE_FROM ? 'positive' : score <= SENTIMENT_NEGATIVE_TO ? 'negative' : 'neutral';
}

/**
 * The brand's rank among the brands an answer names: 1 + the competitors first named before the
 * brand's first mention (character positions in the same markdown). Null when the brand is not named.
 */
export function rankAmongBrands(brandPosition: number | null, competitorPositions: readonly number[]): number | null {
  if (brandPosition === null) return null;
  return 1 + competitorPositions.filter((p) => p < brandPosition).length;
}

const sentimentWordSchema = z
  .enum(SENTIMENT_WORDS)
  .nullable()
  .openapi({
    description: `The sentiment in words: positive from ${SENTIMENT_POSITIVE_FROM}, negative to ${SENTIMENT_NEGATIVE_TO}, neutral between; null when not mentioned.`,
  });
const rankSchema = z.number().int().min(1).nullable().openapi({
  description:
    "The brand's rank among the brands the answer names: 1 + the tracked competitors named before it. Null when not mentioned.",
});
const brandsNamedSchema = z.number().int().openapi({
  description: 'How many brands the answer names: the tracked competitors named, plus the brand when mentioned.',
});

// ---------------------------------------------------------------- sources

/** The range and one optional platform, as /v1/sources reads them. */
export const answerSourcesQuery = sourcesQuery.pick({ model: true, from: true, to: true });

export const SOURCES_TOP = 20;

const citedFields = {
  citations: z.number().int().openapi({ description: 'Citations in the range (an answer cites a URL once).' }),
  answers: z.number().int().openapi({ description: 'Answers citing it at least once.' }),
  shareOfAnswers: share.openapi({ description: 'answers / every answer collected in the range (and platform).' }),
  own: z.boolean().openapi({ description: "Whether it is on the property's own domain (or a subdomain of it)." }),
};

export const answerSourcesSchema = z
  .object({
    propertyId: z.uuid(),
    from: day,
    to: day,
    model: z.string().nullable().openapi({ description: 'The platform filter; null for every platform.' }),
    ownDomain: z.string().openapi({ description: "The property's domain, without a leading www." }),
    platforms: z.array(z.string()).openapi({
      description: 'The platforms with answers in the range, whatever the platform filter: those to filter by.',
    }),
    answers: z.number().int().openapi({ description: 'Answers collected in the range (and platform).' }),
    answersCiting: z.number().int().openapi({ description: 'Of those, the answers citing at least one URL.' }),
    domainCount: z.number().int().openapi({ description: 'Distinct domains cited.' }),
    urlCount: z.number().int().openapi({ description: 'Distinct URLs cited.' }),
    domains: z
      .array(z.object({ domain: z.string(), ...citedFields }))
      .openapi({ description: `The ${SOURCES_TOP} most cited domains, most answers first.` }),
    urls: z
      .array(z.object({ url: z.string(), domain: z.string(), ...citedFields }))
      .openapi({ description: `The ${SOURCES_TOP} most cited URLs, most answers first.` }),
    ownPages: z
      .array(z.object({ url: z.string(), ...citedFields }))
      .openapi({ description: `The property's own pages that answers cite, the ${SOURCES_TOP} most cited.` }),
  })
  .openapi('AnswerSources');

export const sourceGapsSchema = z
  .object({
    propertyId: z.uuid(),
    from: day,
    to: day,
    model: z.string().nullable(),
    platforms: z.array(
      z.object({
        model: z.string(),
        answersNamingCompetitors: z.number().int(),
        answersNamingBrand: z.number().int(),
        gapCount: z.number().int().openapi({ description: 'Every gap domain of the platform, not only those listed.' }),
        gaps: z
          .array(
            z.object({
              domain: z.string(),
              answers: z.number().int().openapi({ description: 'Answers naming a competitor that cite the domain.' }),
              competitors: z.array(z.string()).openapi({ description: 'The competitors those answers name.' }),
            }),
          )
          .openapi({ description: `The ${SOURCES_TOP} gaps cited by the most answers.` }),
      }),
    ),
  })
  .openapi('SourceGaps', {
    description:
      'Per platform, the domains cited in answers naming a tracked competitor and never, on that platform and in the range, in an answer naming the brand.',
  });

// ---------------------------------------------------------------- prompts × platforms

export const TREND_DAYS = ['7', '14', '30'] as const;

export const promptMatrixQuery = z.object({
  trendDays: z
    .enum(TREND_DAYS, { error: () => `expected one of ${TREND_DAYS.join(', ')}` })
    .optional()
    .openapi({
      description: 'N: the trend compares the last N UTC days (today included) with the N before.',
      default: '7',
    }),
});

const verdictSummary = z.object({
  responseId: z.uuid(),
  date: day,
  mentioned: z.boolean(),
  rank: rankSchema,
  brandsNamed: brandsNamedSchema,
  sentiment: z.number().nullable(),
  sentimentWord: sentimentWordSchema,
});

export const promptMatrixSchema = z
  .object({
    propertyId: z.uuid(),
    asOf: day.openapi({ description: 'Today (UTC): the last day of the trend.' }),
    trendDays: z.number().int(),
    platforms: z.array(z.string()).openapi({ description: 'Every platform with an answer in the last 366 days.' }),
    prompts: z.array(
      z.object({
        id: z.uuid(),
        text: z.string(),
        active: z.boolean(),
        cells: z
          .array(
            z.object({
              model: z.string(),
              latest: verdictSummary.nullable().openapi({ description: 'The newest answer; null when none.' }),
              trend: z.object({
                mentionedDays: z.number().int().openapi({ description: 'Days of the last N the brand was named.' }),
                answeredDays: z.number().int().openapi({ description: 'Days of the last N with an answer.' }),
                previousMentionedDays: z.number().int(),
                previousAnsweredDays: z.number().int(),
              }),
            }),
          )
          .openapi({ description: 'One per platform, in the order of `platforms`.' }),
      }),
    ),
  })
  .openapi('PromptMatrix');

// ---------------------------------------------------------------- one whole answer

export const answerDetailSchema = z
  .object({
    answer: z.object({
      id: z.uuid(),
      promptId: z.uuid(),
      prompt: z.string(),
      model: z.string(),
      date: day,
      mentioned: z.boolean(),
      matchedTerm: z.string().nullable(),
      position: z.number().int().nullable().openapi({ description: 'Character position of the first mention.' }),
      rank: rankSchema,
      brandsNamed: brandsNamedSchema,
      sentiment: z.number().nullable(),
      sentimentWord: sentimentWordSchema,
      text: z.string().openapi({ description: 'The complete answer as the platform gave it (markdown).' }),
      country: z
        .string()
        .nullable()
        .openapi({ description: 'The ISO 3166-1 alpha-2 country it was asked from; null: none given.' }),
      language: z
        .string()
        .nullable()
        .openapi({ description: 'The BCP 47 language it was asked in; null: none given.' }),
      truncated: z.string().nullable().openapi({
        description:
          'Set when the platform stopped before the end of its answer (its output limit): the reason it gave, such as max_tokens. The text is the part it gave. Null for a whole answer.',
      }),
      competitors: z
        .array(z.object({ id: z.uuid(), name: z.string(), position: z.number().int() }))
        .openapi({ description: 'The tracked competitors the answer names, first named first.' }),
      citations: z
        .array(z.object({ url: z.string(), domain: z.string() }))
        .openapi({ description: 'The URLs cited or linked, in citation order.' }),
      highlights: z
        .array(
          z.object({
            start: z.number().int(),
            end: z.number().int(),
            kind: z.enum(['brand', 'competitor']),
            name: z.string().openapi({ description: 'The property or competitor named.' }),
          }),
        )
        .openapi({
          description:
            "Every mention of the brand's and the competitors' current terms in `text` (UTF-16 offsets, end exclusive), found as the verdict finds them, in order.",
        }),
    }),
  })
  .openapi('AnswerDetail');
