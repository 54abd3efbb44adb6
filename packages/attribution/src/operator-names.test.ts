import { describe, expect, it } from 'vitest';
import { BUNDLED_AGENT_CATALOGUE } from './agent-catalogue.ts';
import { aiPlatformName } from './ai-platforms.ts';
import { crawlerOperatorName } from './operator-names.ts';

describe('crawler operator and AI platform names', () => {
  it('spell the operators as they do, never as the lower-case ids', () => {
    const names = ['openai', 'anthropic', 'perplexity', 'google', 'microsoft', 'apple', 'youcom', 'meta'].map((id) =>
      crawlerOperatorName(id, BUNDLED_AGENT_CATALOGUE),
    );
    expect(names).toEqual(['OpenAI', 'Anthropic', 'Perplexity', 'Google', 'Microsoft', 'Apple', 'You.com', 'Meta']);
    // An operator nobody spelled yet is at least capitalised.
    expect(crawlerOperatorName('newcrawlerco')).toBe('Newcrawlerco');
  });

  it('name every operator of the bundled catalogue otherwise than its lower-case id', () => {
    for (const id of Object.keys(BUNDLED_AGENT_CATALOGUE.operators))
      expect(crawlerOperatorName(id, BUNDLED_AGENT_CATALOGUE), id).not.toBe(id);
  });

  it('spell the AI platforms as they do, and leave an unknown id as it is', () => {
    expect(['chatgpt', 'claude', 'perplexity', 'gemini', 'copilot'].map(aiPlatformName)).toEqual([
      'ChatGPT',
      'Claude',
      'Perplexity',
      'Gemini',
      'Copilot',
    ]);
    expect(aiPlatformName('unclassified')).toBe('unclassified');
  });
});
