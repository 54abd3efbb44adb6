import { COUNTRY_CODES } from '@vt/contracts/country-codes';

// Where a prompt is asked, in words the browser knows in English: "Germany · German (Austria)".

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

export const countryName = (code: string) => countryNames.of(code) ?? code;

/** The language's name; the tag itself when the browser does not know it. */
export function languageName(tag: string): string {
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Every assignable country for a <select>, by name. */
export const COUNTRY_CHOICES = COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
  a.name.localeCompare(b.name, 'en'),
);

/** "Germany · German", "Germany", "German", or `none` when neither is set. */
export function locationWords(
  location: { country: string | null; language: string | null },
  none = 'each platform’s default',
): string {
  const parts = [
    location.country ? countryName(location.country) : null,
    location.language ? languageName(location.language) : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : none;
}
