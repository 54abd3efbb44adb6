import { generatorAiCrawlers, generatorHumans, generatorOtherBots } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { AI_CRAWLER_UA_MARKERS, BUNDLED_AGENT_CATALOGUE, type CatalogueAgent, matchAiCrawler } from './index.ts';

const ua = (token: string) =>
  `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${token}/1.0; +https://x.test)`;

const catalogue = BUNDLED_AGENT_CATALOGUE;
const matchable = catalogue.agents.filter((a) => !a.robotsTxtOnly);
const tokensOf = (a: CatalogueAgent) => a.tokens ?? [a.name];

describe('the bundled catalogue', () => {
  it('keeps the operators, categories and agent names the stored counts and the generator use', () => {
    const byName = new Map(catalogue.agents.map((a) => [a.name, a]));
    const expected: [string, string, string][] = [
      ['GPTBot', 'openai', 'ai-training'],
      ['OAI-SearchBot', 'openai', 'ai-search'],
      ['ChatGPT-User', 'openai', 'ai-assistant'],
      ['ClaudeBot', 'anthropic', 'ai-training'],
      ['Claude-User', 'anthropic', 'ai-assistant'],
      ['Claude-SearchBot', 'anthropic', 'ai-search'],
      ['Claude-Code', 'anthropic', 'ai-coding-agent'],
      ['PerplexityBot', 'perplexity', 'ai-search'],
      ['Perplexity-User', 'perplexity', 'ai-assistant'],
      ['Google-CloudVertexBot', 'google', 'ai-search'],
      ['meta-externalagent', 'meta', 'ai-training'],
      ['CCBot', 'commoncrawl', 'ai-training'],
      ['Bytespider', 'bytedance', 'ai-training'],
      ['DuckAssistBot', 'duckduckgo', 'ai-assistant'],
      ['MistralAI-User', 'mistral', 'ai-assistant'],
      ['cohere-ai', 'cohere', 'ai-assistant'],
      ['Cursor', 'anysphere', 'ai-coding-agent'],
      // Dual-use since the public lists disagree on them (crawler-user-agents tags them otherwise): the
      // names stay, so counts stored under them read as dual-use (public-lists.test.ts has all 37).
      ['GoogleAgent-Mariner', 'google', 'dual-use'],
      ['meta-externalfetcher', 'meta', 'dual-use'],
      ['Amazonbot', 'amazon', 'dual-use'],
      ['YouBot', 'youcom', 'dual-use'],
      ['Applebot', 'apple', 'dual-use'],
      ['Bravebot', 'brave', 'dual-use'],
      ['PetalBot', 'huawei', 'dual-use'],
      ['GoogleOther', 'google', 'dual-use'],
    ];
    for (const [name, operator, category] of expected) {
      expect(byName.get(name), name).toMatchObject({ operator, category });
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

  it('matches every token of the catalogue in a typical user agent, and nothing for a classic search crawler', () => {
    for (const agent of matchable) {
      for (const token of tokensOf(agent)) {
        expect(matchAiCrawler(ua(token)), token).toEqual({
          agent: agent.name,
          operator: agent.operator,
          category: agent.category,
        });
      }
    }
    for (const other of ['Googlebot', 'bingbot', 'YandexBot', 'DuckDuckBot', 'AhrefsBot', 'SemrushBot']) {
      expect(matchAiCrawler(ua(other)), other).toBeNull();
    }
  });

  it('matches the dual-use crawlers under their own category', () => {
    for (const name of ['Applebot', 'Bravebot', 'PetalBot', 'GoogleOther']) {
      expect(matchAiCrawler(ua(name)), name).toMatchObject({ agent: name, category: 'dual-use' });
    }
    expect(matchAiCrawler(ua('GoogleOther-Image'))).toMatchObject({ agent: 'GoogleOther', category: 'dual-use' });
  });

  it('matches whole tokens only: Claude-User is not ClaudeBot, notGPTBot and GPTBot2 are nothing', () => {
    expect(matchAiCrawler(ua('Claude-User'))).toMatchObject({ agent: 'Claude-User' });
    expect(matchAiCrawler(ua('ClaudeBot'))).toMatchObject({ agent: 'ClaudeBot' });
    expect(matchAiCrawler(ua('notGPTBot'))).toBeNull();
    expect(matchAiCrawler(ua('GPTBot2'))).toBeNull();
    expect(matchAiCrawler(ua('GPTBot_x'))).toBeNull();
    expect(matchAiCrawler(ua('xClaudeBot-Extra'))).toBeNull();
    expect(matchAiCrawler(ua('Ai2Bot-Dolma'))).toMatchObject({ agent: 'Ai2Bot-Dolma' });
    expect(matchAiCrawler('omgilibot/0.3 +http://omgili.com')).toMatchObject({ agent: 'omgili', operator: 'webzio' });
  });

  it('matches a token followed by a hyphenated suffix, as agents write their variants', () => {
    expect(matchAiCrawler('crawl4ai-adapter/1.0')).toMatchObject({ agent: 'Crawl4AI', category: 'ai-training' });
    expect(
      matchAiCrawler('Mozilla/5.0 (Linux; CentOS; compatible; semantic-visions-discovery; HTTPClient 4.5)'),
    ).toMatchObject({
      agent: 'semantic-visions',
      operator: 'semanticvisions',
    });
    expect(
      matchAiCrawler('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7; TSM-turingos-1253296984) AppleWebKit/537.36'),
    ).toMatchObject({ agent: 'TSM-turingos', operator: 'turingos' });
    expect(matchAiCrawler(ua('ClaudeBot-Extra'))).toMatchObject({ agent: 'ClaudeBot' });
    // A hyphenated name that is itself a token is that token's agent, not the shorter one's.
    expect(matchAiCrawler(ua('Claude-SearchBot-Beta'))).toMatchObject({ agent: 'Claude-SearchBot' });
    // A robots.txt-only token is not the agent it extends, and the search goes on past it.
    expect(matchAiCrawler(ua('Applebot-Extended'))).toBeNull();
    expect(matchAiCrawler('Applebot-Extended/1.0 GPTBot/1.2')).toMatchObject({ agent: 'GPTBot' });
    // Only a hyphen starts a suffix: GPTBot2, GPTBot_x and a trailing hyphen stay nothing.
    for (const lookAlike of ['GPTBot2', 'GPTBot_x', 'GPTBot-', 'notGPTBot-x']) {
      expect(matchAiCrawler(`${lookAlike} (compatible)`), lookAlike).toBeNull();
    }
  });

  it('matches at the edges of the header and case-insensitively', () => {
    expect(matchAiCrawler('GPTBot')).toMatchObject({ agent: 'GPTBot', operator: 'openai' });
    expect(matchAiCrawler('gptbot/1.2')).toMatchObject({ agent: 'GPTBot' });
    expect(matchAiCrawler('Mozilla/5.0 (compatible) CCBOT')).toMatchObject({ agent: 'CCBot' });
    expect(matchAiCrawler('Mozilla/5.0 (compatible; Kangaroo Bot/1.0)')).toMatchObject({ operator: 'kangaroo' });
  });

  it('treats Google-Extended, Applebot-Extended and YandexAdditional as the robots.txt tokens they are, never as agents', () => {
    expect(matchAiCrawler(ua('Google-Extended'))).toBeNull();
    expect(matchAiCrawler(ua('Applebot-Extended'))).toBeNull();
    expect(matchAiCrawler(ua('YandexAdditional'))).toBeNull();
    expect(matchAiCrawler(ua('YandexAdditionalBot'))).toMatchObject({ agent: 'YandexAdditionalBot' });
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
      ...matchable.flatMap(tokensOf).flatMap((token) => [ua(token), token.toUpperCase(), token]),
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
    for (const token of matchable.flatMap(tokensOf)) {
      expect(
        AI_CRAWLER_UA_MARKERS.some((m) => token.toLowerCase().includes(m)),
        token,
      ).toBe(true);
    }
  });
});
