import { z } from 'zod';

// Where a property's buyers are: the country and language its prompts are asked in (issue 32
// item 3). One definition for the console, ops and the collector.

/**
 * ISO 3166-1 alpha-2: the 249 officially assigned codes. Written out rather than asked of
 * Intl.DisplayNames, which also names reserved and withdrawn codes (UK, EU, SU, XK, ZZ).
 */
export const COUNTRY_CODES = Object.freeze(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/),
);
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
