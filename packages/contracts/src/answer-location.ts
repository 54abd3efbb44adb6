import { z } from 'zod';
import { COUNTRY_CODES } from './country-codes.ts';

// Where a property's buyers are: the country and language its prompts are asked in (issue 32
// item 3). One definition for the console, ops and the collector.

const countries = new Set(COUNTRY_CODES);

/** A country: two letters, either case on input, stored upper case (`de` → `DE`). */
export const countryCodeSchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => countries.has(v), 'must be an ISO 3166-1 alpha-2 country code, such as US or DE');

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A BCP 47 tag in its canonical form (`en-us` → `en-US`), or null when it is not one. */
export function canonicalLanguageTag(tag: string): string | null {
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0];
  } catch {
    return null;
  }
  if (!canonical) return null;
  // Well-formed is not enough: `zz` is well-formed and no language. The primary subtag must be one
  // the runtime's CLDR names (private-use and unknown subtags have no name).
  const primary = canonical.split('-')[0] ?? '';
  return languageNames.of(primary) ? canonical : null;
}

/** A language: a BCP 47 tag, stored canonical (`pt-br` → `pt-BR`). */
export const languageTagSchema = z
  .string()
  .trim()
  .max(35)
  .transform((v, ctx) => {
    const canonical = canonicalLanguageTag(v);
    if (canonical) return canonical;
    ctx.addIssue({ code: 'custom', message: 'must be a BCP 47 language tag, such as en, de or pt-BR' });
    return z.NEVER;
  });

/** Where a question is asked: both optional; absent means the platform's own default. */
export interface AnswerLocation {
  country: string | null;
  language: string | null;
}

/**
 * The location a prompt is asked with: the prompt's own country and language where it sets them,
 * else its property's. Each field falls back on its own, so a prompt may change only the language.
 */
export const locationOfPrompt = (
  prompt: { country: string | null; language: string | null },
  property: { country: string | null; language: string | null },
): AnswerLocation => ({
  country: prompt.country ?? property.country,
  language: prompt.language ?? property.language,
});
