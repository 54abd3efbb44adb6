import { describe, expect, it } from 'vitest';
import {
  COUNTRY_CODES,
  canonicalLanguageTag,
  countryCodeSchema,
  languageTagSchema,
  locationOfPrompt,
} from './index.ts';

// Issue 32 item 3: a country is an assigned ISO 3166-1 alpha-2 code, a language a BCP 47 tag of a
// known language; both stored in canonical form.

describe('answer location', () => {
  it('accepts the 249 assigned country codes in either case and refuses reserved or unknown ones', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(countryCodeSchema.parse('de')).toBe('DE');
    expect(countryCodeSchema.parse(' US ')).toBe('US');
    for (const bad of ['UK', 'EU', 'XK', 'ZZ', 'SU', 'USA', 'D', '', '12']) {
      expect(countryCodeSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('accepts BCP 47 tags of known languages, canonicalised, and refuses the rest', () => {
    expect(languageTagSchema.parse('en')).toBe('en');
    expect(languageTagSchema.parse('pt-br')).toBe('pt-BR');
    expect(languageTagSchema.parse('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(languageTagSchema.parse('gsw')).toBe('gsw');
    for (const bad of ['zz', 'english', 'en_US', 'x-private', '', '123', 'en--US']) {
      expect(canonicalLanguageTag(bad), bad).toBeNull();
      expect(languageTagSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('a prompt’s own country and language win, each falling back to its property’s on its own', () => {
    const property = { country: 'DE', language: 'de' };
    expect(locationOfPrompt({ country: null, language: null }, property)).toEqual(property);
    expect(locationOfPrompt({ country: null, language: 'en' }, property)).toEqual({ country: 'DE', language: 'en' });
    expect(locationOfPrompt({ country: 'AT', language: null }, { country: null, language: null })).toEqual({
      country: 'AT',
      language: null,
    });
  });
});
