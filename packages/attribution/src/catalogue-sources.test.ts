import { describe, expect, it } from 'vitest';
import {
  type AgentCatalogue,
  compareCatalogueVersions,
  createAgentMatcher,
  mergeCatalogueSources,
  nextCatalogueVersion,
} from './index.ts';

// Merging the community lists into the catalogue: unknown agents are added with a category read
// from the list, known ones keep our fields, and what we decided not to match stays unmatched.

const base: AgentCatalogue = {
  version: '2026-11-23.1',
  sources: [],
  operators: { openai: {}, google: {} },
  agents: [
    { name: 'GPTBot', operator: 'openai', category: 'ai-training' },
    { name: 'Google-Extended', operator: 'google', category: 'ai-training', robotsTxtOnly: true },
  ],
  exclusions: [{ name: 'Scrapy', reason: 'A generic crawling library, not an AI agent.' }],
};

describe('mergeCatalogueSources', () => {
  it('adds the unknown agents of robots.json with a category from their function, and keeps ours as they are', () => {
    const robotsJson = {
      GPTBot: { operator: 'Someone else', function: 'AI Assistants' },
      'Google-Extended': { operator: '[Google](https://google.com)', function: 'LLM training.' },
      Scrapy: { operator: 'Zyte', function: 'Scrapes data.' },
      NewSearchBot: { operator: '[New AI](https://new.example)', function: 'AI Search Crawlers' },
      'Helper-User/1.0': { operator: 'Unclear at this time.', function: 'AI Assistants' },
      // A version after a space, as ai.robots.txt writes 'Brightbot 1.0', is not part of the name.
      'GPTBot 1.2': { operator: '[OpenAI](https://openai.com)', function: 'AI Data Scrapers' },
      CodeBuddy: { operator: '', function: 'AI Coding Agents' },
      Clicker: { operator: 'Clicker Inc', function: 'AI Agents' },
      Slurper: { operator: 'Slurp Ltd', function: 'Collects data for training.' },
    };
    const { catalogue, added } = mergeCatalogueSources(base, { robotsJson }, '2026-11-24.1');
    expect(catalogue.version).toBe('2026-11-24.1');
    expect(added).toEqual([
      { name: 'NewSearchBot', operator: 'newai', category: 'ai-search', source: 'ai.robots.txt' },
      { name: 'Helper-User', operator: 'helperuser', category: 'ai-assistant', source: 'ai.robots.txt' },
      { name: 'CodeBuddy', operator: 'codebuddy', category: 'ai-coding-agent', source: 'ai.robots.txt' },
      { name: 'Clicker', operator: 'clickerinc', category: 'ai-browser-agent', source: 'ai.robots.txt' },
      { name: 'Slurper', operator: 'slurpltd', category: 'ai-training', source: 'ai.robots.txt' },
    ]);
    expect(catalogue.agents[0]).toEqual(base.agents[0]);
    const matcher = createAgentMatcher(catalogue);
    expect(matcher.match('NewSearchBot/2.0')).toMatchObject({ category: 'ai-search' });
    expect(matcher.match('Google-Extended')).toBeNull();
    expect(matcher.match('Scrapy/2.11')).toBeNull();
  });

  it('adds the plain-token ai-crawler patterns of crawler-user-agents and skips regexes and other tags', () => {
    const crawlerUserAgents = [
      { pattern: 'GPTBot', tags: ['ai-crawler'] },
      { pattern: 'FreshAIBot\\/', tags: ['ai-crawler'] },
      { pattern: '^Mozilla.*Weird[0-9]+', tags: ['ai-crawler'] },
      { pattern: 'Googlebot\\/', tags: ['search-engine'] },
      { pattern: 'NoTagsBot' },
    ];
    const { added } = mergeCatalogueSources(base, { crawlerUserAgents }, '2026-11-24.1');
    expect(added).toEqual([
      { name: 'FreshAIBot', operator: 'freshaibot', category: 'ai-training', source: 'crawler-user-agents' },
    ]);
  });

  it('refuses a list in another shape', () => {
    expect(() => mergeCatalogueSources(base, { robotsJson: ['not', 'a', 'map'] }, '2026-11-24.1')).toThrow();
    expect(() => mergeCatalogueSources(base, { crawlerUserAgents: { pattern: 'x' } }, '2026-11-24.1')).toThrow();
  });
});

describe('catalogue versions', () => {
  it('orders by day, then by sequence number as a number', () => {
    const sorted = ['2026-11-23.10', '2026-11-24.1', '2026-11-23.2', '2026-11-23.1'].sort(compareCatalogueVersions);
    expect(sorted).toEqual(['2026-11-23.1', '2026-11-23.2', '2026-11-23.10', '2026-11-24.1']);
  });

  it("takes the day's next number, and always comes after the current version", () => {
    expect(nextCatalogueVersion('2026-11-23.1', '2026-11-23')).toBe('2026-11-23.2');
    expect(nextCatalogueVersion('2026-11-23.4', '2026-11-25')).toBe('2026-11-25.1');
    // A release catalogue dated after today.
    expect(nextCatalogueVersion('2026-12-01.1', '2026-11-25')).toBe('2026-12-01.2');
  });
});
