import { type AgentMatcher, BUNDLED_AGENT_MATCHER } from '@vt/attribution';
import { describe, expect, it } from 'vitest';
import { cachedMatcher } from './stored-catalogue.ts';

/** The bundled matcher, counting the user agents it is asked to match. */
function countingMatcher() {
  const asked: string[] = [];
  const matcher: AgentMatcher = {
    ...BUNDLED_AGENT_MATCHER,
    match: (userAgent) => {
      asked.push(userAgent);
      return BUNDLED_AGENT_MATCHER.match(userAgent);
    },
  };
  return { asked, matcher };
}

describe('cachedMatcher', () => {
  it('[CRAWL-12] remembers a user agent of real length, and answers as the matcher does', () => {
    const { asked, matcher } = countingMatcher();
    const cached = cachedMatcher(matcher);
    const gptBot = 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)';
    expect(cached.match(gptBot)?.agent).toBe(BUNDLED_AGENT_MATCHER.match(gptBot)?.agent);
    expect(cached.match(gptBot)).toEqual(BUNDLED_AGENT_MATCHER.match(gptBot));
    expect(cached.match('Mozilla/5.0 Safari')).toBeNull();
    expect(cached.match('Mozilla/5.0 Safari')).toBeNull();
    expect(asked).toHaveLength(2);
  });

  it('never remembers a user agent longer than any real one: made-up megabyte agents cannot fill memory', () => {
    const { asked, matcher } = countingMatcher();
    const cached = cachedMatcher(matcher);
    const huge = `GPTBot/1.2 ${'x'.repeat(100_000)}`;
    expect(cached.match(huge)).toEqual(BUNDLED_AGENT_MATCHER.match(huge));
    expect(cached.match(huge)).toEqual(BUNDLED_AGENT_MATCHER.match(huge));
    // Matched each time, so nothing of it was kept.
    expect(asked).toHaveLength(2);
  });
});
