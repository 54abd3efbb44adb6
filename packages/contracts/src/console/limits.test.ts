import { describe, expect, it } from 'vitest';
import { slugProblem } from './fields.ts';
import { SLUG_MAX, SLUG_MIN, SLUG_PATTERN } from './limits.ts';

// The web form's `pattern` is compiled by browsers with the v flag and must match the whole value.
const formAccepts = (slug: string) => new RegExp(`^(?:${SLUG_PATTERN})$`, 'v').test(slug);

describe('console form limits', () => {
  it('[TEAM-1] the slug pattern a form checks accepts exactly the characters and edges the API accepts', () => {
    const samples = [
      'acme',
      'acme-inc',
      'a1-b2-c3',
      '-acme',
      'acme-',
      'Acme',
      'acme_inc',
      'acmé',
      'ac me',
      'a--b',
      '123',
    ];
    for (const slug of samples) {
      const problem = slugProblem(slug);
      const shapeOk = problem !== 'invalid_characters' && problem !== 'hyphen_at_edge';
      expect(formAccepts(slug), slug).toBe(shapeOk);
    }
  });

  it('[TEAM-1] the slug length limits are the ones the API checks', () => {
    expect(slugProblem('a'.repeat(SLUG_MIN - 1))).toBe('too_short');
    expect(slugProblem('a'.repeat(SLUG_MIN))).toBeNull();
    expect(slugProblem('a'.repeat(SLUG_MAX))).toBeNull();
    expect(slugProblem('a'.repeat(SLUG_MAX + 1))).toBe('too_long');
  });
});
