import { describe, expect, it } from 'vitest';
import { readLeadPayload } from './lead-payload.ts';

describe('readLeadPayload', () => {
  it('[LEAD-6] accepts every field at its maximum length', () => {
    const lead = {
      contact: 'c'.repeat(320),
      email: `${'a'.repeat(64)}@${'b'.repeat(60)}.example`,
      sessionId: 's'.repeat(128),
      landingPath: `/${'p'.repeat(2047)}`,
      referrer: `https://chatgpt.com/${'r'.repeat(2028)}`,
      utmSource: 'u'.repeat(256),
      utmMedium: 'm'.repeat(256),
    };
    expect(readLeadPayload(lead)).toEqual({ ok: true, lead, ignoredFields: [], fieldSuggestions: [] });
  });

  it('[LEAD-5] [LEAD-6] names each invalid field: over-long, not an email, missing contact, wrong type', () => {
    const result = readLeadPayload({ email: 'not-an-email', sessionId: 's'.repeat(129), utmSource: 7 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const fields = Object.fromEntries(result.details.map((d) => [d.field, d.problem]));
    expect(Object.keys(fields).sort()).toEqual(['contact', 'email', 'sessionId', 'utmSource']);
    expect(fields.contact).toBe('is required');
    expect(fields.email).toBe('must be a valid email address');
  });

  it('[LEAD-7] drops unknown keys, lists them, and suggests the field a misnamed key meant', () => {
    const result = readLeadPayload({
      contact: 'Ada',
      utm_source: 'chatgpt',
      'utm-medium': 'cpc',
      session_id: 'x',
      landing_page: '/pricing',
      'landing-page': '/pricing',
      landingPage: '/pricing',
      referer: 'https://chatgpt.com',
      Referrer: 'https://chatgpt.com',
      'e-mail': 'ada@example.com',
      favouriteColour: 'blue',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.lead).toEqual({ contact: 'Ada' });
    expect(result.ignoredFields).toHaveLength(10);
    expect(result.fieldSuggestions).toEqual([
      { field: 'utm_source', suggestion: 'utmSource' },
      { field: 'utm-medium', suggestion: 'utmMedium' },
      { field: 'session_id', suggestion: 'sessionId' },
      { field: 'landing_page', suggestion: 'landingPath' },
      { field: 'landing-page', suggestion: 'landingPath' },
      { field: 'landingPage', suggestion: 'landingPath' },
      { field: 'referer', suggestion: 'referrer' },
      { field: 'Referrer', suggestion: 'referrer' },
      { field: 'e-mail', suggestion: 'email' },
    ]);
  });

  it('[LEAD-7] never takes a snake_case key as the field, even when the camelCase one is absent', () => {
    const result = readLeadPayload({ contact: 'Ada', utm_source: 'chatgpt.com', landing_path: '/x' });
    expect(result.ok && result.lead).toEqual({ contact: 'Ada' });
  });

  it('[LEAD-5] a body that is not a JSON object is invalid_payload material', () => {
    for (const body of [[], 'lead', 42, null]) expect(readLeadPayload(body).ok).toBe(false);
  });

  it('[LEAD-5] refuses a NUL character, which Postgres could never store, naming the field', () => {
    const result = readLeadPayload({ contact: 'A\u0000da', referrer: 'https://chatgpt.com/\u0000' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.details.map((d) => d.field).sort()).toEqual(['contact', 'referrer']);
    expect(result.details[0]?.problem).toBe('must not contain NUL characters');
  });
});
