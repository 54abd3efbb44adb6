import type { AnswerLocation } from './platform-client.ts';

/**
 * The location's country as the platforms take it (ISO 3166-1 alpha-2, upper case), or undefined
 * when unset or not two letters: a bad country is left out rather than sent for the vendor to refuse.
 */
export function countryOf(location: AnswerLocation | undefined): string | undefined {
  const country = location?.country?.trim();
  return country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : undefined;
}

/**
 * The language's primary subtag (`de` of `de-AT`), lower case: ISO 639-1 where the tag starts with
 * one, as Perplexity's `search_language_filter` and Gemini's `languageCode` take it.
 */
export function primaryLanguageOf(location: AnswerLocation | undefined): string | undefined {
  const primary = location?.language?.trim().split(/[-_]/)[0];
  return primary && /^[A-Za-z]{2,3}$/.test(primary) ? primary.toLowerCase() : undefined;
}
