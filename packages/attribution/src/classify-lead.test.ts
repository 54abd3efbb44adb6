import { describe, expect, it } from 'vitest';
import { classifyLead } from './index.ts';

describe('classifyLead', () => {
  it('[LEAD-10] classifies by referrer, as a URL or a bare hostname, subdomains on a label boundary', () => {
    expect(classifyLead({ referrer: 'https://chatgpt.com/c/abc?x=1' })).toBe('chatgpt');
    expect(classifyLead({ referrer: 'chat.openai.com' })).toBe('chatgpt');
    expect(classifyLead({ referrer: 'https://www.perplexity.ai/search/x' })).toBe('perplexity');
    expect(classifyLead({ referrer: 'claude.ai' })).toBe('claude');
    expect(classifyLead({ referrer: 'https://gemini.google.com/app' })).toBe('gemini');
    expect(classifyLead({ referrer: 'https://copilot.microsoft.com/' })).toBe('copilot');
  });

  it('[LEAD-10] refuses near-miss hostnames', () => {
    expect(classifyLead({ referrer: 'https://notchatgpt.com/' })).toBeNull();
    expect(classifyLead({ referrer: 'https://chatgpt.com.evil.test/' })).toBeNull();
    expect(classifyLead({ referrer: 'perplexity.ai.example' })).toBeNull();
    expect(classifyLead({ utmSource: 'notclaude.ai' })).toBeNull();
    expect(classifyLead({ utmSource: 'chatgpt-clone' })).toBeNull();
  });

  it('[LEAD-10] falls back to utmSource (a host, a platform name or id) when the referrer does not classify', () => {
    expect(classifyLead({ utmSource: 'chatgpt.com' })).toBe('chatgpt');
    expect(classifyLead({ utmSource: 'ChatGPT' })).toBe('chatgpt');
    expect(classifyLead({ utmSource: 'perplexity' })).toBe('perplexity');
    expect(classifyLead({ referrer: 'https://news.ycombinator.com/', utmSource: 'claude.ai' })).toBe('claude');
    expect(classifyLead({ referrer: 'https://chatgpt.com/', utmSource: 'perplexity' })).toBe('chatgpt');
  });

  it('[LEAD-10] never classifies Google AI Overviews or an unknown source', () => {
    expect(classifyLead({ referrer: 'https://www.google.com/' })).toBeNull();
    expect(classifyLead({ utmSource: 'google' })).toBeNull();
    expect(classifyLead({ utmSource: 'newsletter' })).toBeNull();
    expect(classifyLead({})).toBeNull();
  });
});
