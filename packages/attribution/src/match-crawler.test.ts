import { generatorAiCrawlers, generatorHumans, generatorOtherBots } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { AI_CRAWLER_UA_MARKERS, AI_CRAWLERS, matchAiCrawler } from './index.ts';

const ua = (token: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${token}/1.0; +https://x.test)`;

describe('AI_CRAWLERS', () => {
  it('has one entry per token, lower-case single-word operators and a known purpose', () => {
    const tokens = AI_CRAWLERS.map((c) => c.token.toLowerCase());
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const c of AI_CRAWLERS) {
      expect(c.operator).toMatch(/^[a-z0-9]+$/);
      expect(['training', 'search', 'user-fetch']).toContain(c.purpose);
    }
  });

  it('covers the operators the issue names, with the fixture ranges operator ids', () => {
    const byAgent = new Map(AI_CRAWLERS.map((c) => [c.agent, c]));
    const expected: [string, string, string][] = [
      ['GPTBot', 'openai', 'training'],
      ['OAI-SearchBot', 'openai', 'search'],
      ['ChatGPT-User', 'openai', 'user-fetch'],
      ['ClaudeBot', 'anthropic', 'training'],
      ['Claude-User', 'anthropic', 'user-fetch'],
      ['Claude-SearchBot', 'anthropic', 'search'],
      ['anthropic-ai', 'anthropic', 'training'],
      ['claude-web', 'anthropic', 'training'],
      ['PerplexityBot', 'perplexity', 'search'],
      ['Perplexity-User', 'perplexity', 'user-fetch'],
      ['Google-CloudVertexBot', 'google', 'search'],
      ['Gemini-Deep-Research', 'google', 'user-fetch'],
      ['meta-externalagent', 'meta', 'training'],
      ['meta-externalfetcher', 'meta', 'user-fetch'],
      ['FacebookBot', 'meta', 'training'],
      ['Amazonbot', 'amazon', 'training'],
      ['CCBot', 'commoncrawl', 'training'],
      ['Bytespider', 'bytedance', 'training'],
      ['DuckAssistBot', 'duckduckgo', 'user-fetch'],
      ['MistralAI-User', 'mistral', 'user-fetch'],
      ['cohere-ai', 'cohere', 'user-fetch'],
      ['cohere-training-data-crawler', 'cohere', 'training'],
      ['YouBot', 'youcom', 'search'],
    ];
    for (const [agent, operator, purpose] of expected) {
      expect(byAgent.get(agent), agent).toMatchObject({ operator, purpose });
    }
  });
});

describe('matchAiCrawler', () => {
  it('[CRAWL-12] recognises every AI crawler user agent the traffic generator sends, with its operator', () => {
    const crawlers = generatorAiCrawlers();
    expect(crawlers.length).toBeGreaterThanOrEqual(14);
    for (const [agent, operator, userAgent] of crawlers) {
      expect(matchAiCrawler(userAgent), userAgent).toMatchObject({ agent, operator });
    }
  });

  it('[CRAWL-12] does not take human browsers or non-AI bots of the generator for AI crawlers', () => {
    for (const userAgent of [...generatorHumans(), ...generatorOtherBots()]) {
      expect(matchAiCrawler(userAgent), userAgent).toBeNull();
    }
  });

  it('matches every catalogue token in a typical user agent, and nothing for a classic search crawler', () => {
    for (const c of AI_CRAWLERS) {
      expect(matchAiCrawler(ua(c.token)), c.token).toEqual({
        agent: c.agent,
        operator: c.operator,
        purpose: c.purpose,
      });
    }
    for (const other of ['Googlebot', 'bingbot', 'Applebot', 'YandexBot', 'DuckDuckBot', 'PetalBot', 'AhrefsBot']) {
      expect(matchAiCrawler(ua(other)), other).toBeNull();
    }
  });

  it('matches whole tokens only: Claude-User is not ClaudeBot, notGPTBot and ClaudeBot-Extra are nothing', () => {
    expect(matchAiCrawler(ua('Claude-User'))).toMatchObject({ agent: 'Claude-User' });
    expect(matchAiCrawler(ua('ClaudeBot'))).toMatchObject({ agent: 'ClaudeBot' });
    expect(matchAiCrawler(ua('notGPTBot'))).toBeNull();
    expect(matchAiCrawler(ua('GPTBot2'))).toBeNull();
    expect(matchAiCrawler(ua('GPTBot_x'))).toBeNull();
    expect(matchAiCrawler(ua('ClaudeBot-Extra'))).toBeNull();
    expect(matchAiCrawler(ua('Ai2Bot-Dolma'))).toMatchObject({ agent: 'Ai2Bot-Dolma' });
    expect(matchAiCrawler('omgilibot/0.3 +http://omgili.com')).toMatchObject({
      agent: 'omgilibot',
      operator: 'webzio',
    });
  });

  it('matches at the edges of the header and case-insensitively', () => {
    expect(matchAiCrawler('GPTBot')).toMatchObject({ agent: 'GPTBot', operator: 'openai' });
    expect(matchAiCrawler('gptbot/1.2')).toMatchObject({ agent: 'GPTBot' });
    expect(matchAiCrawler('Mozilla/5.0 (compatible) CCBOT')).toMatchObject({ agent: 'CCBot' });
    expect(matchAiCrawler('Mozilla/5.0 (compatible; Kangaroo Bot/1.0)')).toMatchObject({ operator: 'kangaroo' });
  });

  it('treats Google-Extended and Applebot-Extended as the robots.txt tokens they are, never as agents', () => {
    expect(matchAiCrawler(ua('Google-Extended'))).toBeNull();
    expect(matchAiCrawler(ua('Applebot-Extended'))).toBeNull();
    expect(matchAiCrawler('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBeNull();
  });

  it('[CRAWL-8] matches nothing in an empty user agent', () => {
    expect(matchAiCrawler('')).toBeNull();
  });

  it('takes the first token when a header names two crawlers', () => {
    expect(matchAiCrawler('PerplexityBot/1.0 GPTBot/1.1')).toMatchObject({ agent: 'PerplexityBot' });
  });
});

describe('AI_CRAWLER_UA_MARKERS', () => {
  it('are lower-case, and every user agent matchAiCrawler matches contains one of them once lower-cased', () => {
    for (const marker of AI_CRAWLER_UA_MARKERS) expect(marker).toBe(marker.toLowerCase());
    const samples = [
      ...AI_CRAWLERS.flatMap((c) => [ua(c.token), c.token.toUpperCase(), c.token]),
      ...generatorAiCrawlers().map(([, , userAgent]) => userAgent),
    ];
    for (const sample of samples) {
      expect(matchAiCrawler(sample), sample).not.toBeNull();
      const lower = sample.toLowerCase();
      expect(
        AI_CRAWLER_UA_MARKERS.some((m) => lower.includes(m)),
        sample,
      ).toBe(true);
    }
  });

  it('covers each catalogue token by a marker inside the token itself', () => {
    for (const c of AI_CRAWLERS) {
      expect(
        AI_CRAWLER_UA_MARKERS.some((m) => c.token.toLowerCase().includes(m)),
        c.token,
      ).toBe(true);
    }
  });
});
