import { describe, expect, it } from 'vitest';
import { AI_PLATFORM_IDS, hostOfReferrer, platformForHost } from './index.ts';

describe('platformForHost', () => {
  it('knows the five AI assistant platforms, one identifier each', () => {
    expect(AI_PLATFORM_IDS).toEqual(['chatgpt', 'perplexity', 'claude', 'gemini', 'copilot']);
    expect(platformForHost('chatgpt.com')).toBe('chatgpt');
    expect(platformForHost('chat.openai.com')).toBe('chatgpt');
    expect(platformForHost('perplexity.ai')).toBe('perplexity');
    expect(platformForHost('claude.ai')).toBe('claude');
    expect(platformForHost('gemini.google.com')).toBe('gemini');
    expect(platformForHost('copilot.microsoft.com')).toBe('copilot');
  });

  it('[LEAD-10] matches subdomains on a label boundary only', () => {
    expect(platformForHost('www.chatgpt.com')).toBe('chatgpt');
    expect(platformForHost('WWW.Perplexity.AI.')).toBe('perplexity');
    expect(platformForHost('notchatgpt.com')).toBeNull();
    expect(platformForHost('chatgpt.com.evil.test')).toBeNull();
    expect(platformForHost('openai.com')).toBeNull();
  });

  it('[LEAD-10] looks at the last labels only: deep subdomains match, a made-up host of thousands of labels costs a few look-ups', () => {
    expect(platformForHost('a.b.c.d.e.chatgpt.com')).toBe('chatgpt');
    expect(platformForHost('x.y.copilot.microsoft.com')).toBe('copilot');
    expect(platformForHost('x.chat.openai.com')).toBe('chatgpt');
    expect(platformForHost('.chatgpt.com')).toBe('chatgpt');
    expect(platformForHost('')).toBeNull();
    // Longer than any DNS name: no platform, without walking its 4,081 suffixes (27 ms before).
    const made = `${'a.'.repeat(4080)}chatgpt.com`;
    const started = performance.now();
    for (let i = 0; i < 100; i++) expect(platformForHost(made)).toBeNull();
    // 27 ms a call before: 2.7 s for the hundred; the bound leaves a loaded machine room.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('[LEAD-10] never classifies Google AI Overviews (google.com) or classic search', () => {
    expect(platformForHost('www.google.com')).toBeNull();
    expect(platformForHost('google.com')).toBeNull();
    expect(platformForHost('bing.com')).toBeNull();
  });
});

describe('hostOfReferrer', () => {
  it('reads a URL or a bare hostname', () => {
    expect(hostOfReferrer('https://chatgpt.com/c/123?x=1')).toBe('chatgpt.com');
    expect(hostOfReferrer('chatgpt.com')).toBe('chatgpt.com');
    expect(hostOfReferrer('Claude.AI/chat')).toBe('claude.ai');
    expect(hostOfReferrer('')).toBeNull();
    expect(hostOfReferrer('http://')).toBeNull();
  });
});
