import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type AgentCatalogue,
  agentCatalogueSchema,
  BUNDLED_AGENT_CATALOGUE,
  createAgentMatcher,
  isAiCategory,
} from './index.ts';

// The catalogue as data, held to the issue's targets: recall against a committed snapshot of
// ai.robots.txt's robots.json, no false positive on a corpus of real non-AI user agents, whole
// tokens only. The snapshot and the corpus are files in data/, so the figures are reproducible.

const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const robotsJson: Record<string, unknown> = readJson('../data/ai-robots-txt.robots.json');
const corpus: { userAgents: { userAgent: string; kind: string }[] } = readJson('../data/test/not-ai-user-agents.json');
const matcher = createAgentMatcher(BUNDLED_AGENT_CATALOGUE);
const ua = (token: string) => `Mozilla/5.0 (compatible; ${token}; +https://example.com/bot)`;

describe('the bundled AI agent catalogue', () => {
  it('recognises at least 95 % of ai.robots.txt that is not a robots.txt-only token or a documented exclusion', () => {
    const catalogue = BUNDLED_AGENT_CATALOGUE;
    const robotsOnly = new Set(catalogue.agents.filter((a) => a.robotsTxtOnly).map((a) => a.name.toLowerCase()));
    const excluded = new Set(catalogue.exclusions.map((e) => e.name.toLowerCase()));
    const names = Object.keys(robotsJson);
    expect(names.length).toBe(166);
    const counted = names.filter((n) => !robotsOnly.has(n.toLowerCase()) && !excluded.has(n.toLowerCase()));
    const missed = counted.filter((name) => matcher.match(ua(name)) === null);
    const recall = (counted.length - missed.length) / counted.length;
    expect(missed).toEqual([]);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    // The exclusions stay short, and each says why.
    expect(catalogue.exclusions.length).toBeLessThanOrEqual(10);
    for (const e of catalogue.exclusions) expect(e.reason.length, e.name).toBeGreaterThan(30);
  });

  it('names the robots.txt-only tokens and the exclusions, and matches none of them', () => {
    const robotsOnly = BUNDLED_AGENT_CATALOGUE.agents.filter((a) => a.robotsTxtOnly).map((a) => a.name);
    expect(robotsOnly.sort()).toEqual(['Applebot-Extended', 'Google-Extended', 'YandexAdditional']);
    for (const name of [...robotsOnly, ...BUNDLED_AGENT_CATALOGUE.exclusions.map((e) => e.name)]) {
      expect(matcher.match(ua(name)), name).toBeNull();
    }
  });

  it('takes no human browser, classic search, SEO, uptime-monitor or link-preview user agent for AI (dual-use stays in its category)', () => {
    const kinds = new Map<string, number>();
    for (const { kind } of corpus.userAgents) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    expect(corpus.userAgents.length).toBeGreaterThanOrEqual(200);
    for (const kind of ['browser', 'search', 'seo', 'uptime-monitor', 'link-preview']) {
      expect(kinds.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(50);
    }
    const countedAsAi = corpus.userAgents.filter(({ userAgent }) => {
      const found = matcher.match(userAgent);
      return found !== null && isAiCategory(found.category);
    });
    expect(countedAsAi.map((c) => c.userAgent)).toEqual([]);
    // The dual-use crawlers of the corpus are recognised, under their own category.
    const dualUse = corpus.userAgents.flatMap(({ userAgent }) => {
      const found = matcher.match(userAgent);
      return found?.category === 'dual-use' ? [found.agent] : [];
    });
    expect(new Set(dualUse)).toEqual(new Set(['Applebot', 'GoogleOther', 'PetalBot', 'Bravebot']));
  });

  it('matches whole tokens only, whatever the case: look-alikes match nothing', () => {
    for (const lookAlike of [
      'notGPTBot',
      'my-GPTBot',
      'GPTBot2',
      'GPTBot-',
      'xClaudeBot',
      'ClaudeBot_x',
      'Cursorial',
      'Devine',
    ]) {
      expect(matcher.match(ua(lookAlike)), lookAlike).toBeNull();
    }
    expect(matcher.match(ua('gptbot'))).toMatchObject({ agent: 'GPTBot' });
    expect(matcher.match(ua('CLAUDE-CODE'))).toMatchObject({ agent: 'Claude-Code', category: 'ai-coding-agent' });
    expect(matcher.match('Mozilla/5.0 (compatible; Brightbot 1.0)')).toMatchObject({ agent: 'Brightbot' });
    expect(matcher.match('iaskspider/2.0(+https://iask.ai)')).toMatchObject({ agent: 'iaskspider' });
  });
});

describe('agentCatalogueSchema', () => {
  const base: AgentCatalogue = {
    version: '2026-11-23.1',
    sources: [],
    operators: { acme: {} },
    agents: [{ name: 'AcmeBot', operator: 'acme', category: 'ai-training' }],
    exclusions: [],
  };

  it('reads a catalogue and builds a matcher from it alone', () => {
    const own = createAgentMatcher(agentCatalogueSchema.parse(base));
    expect(own.version).toBe('2026-11-23.1');
    expect(own.match(ua('AcmeBot'))).toEqual({ agent: 'AcmeBot', operator: 'acme', category: 'ai-training' });
    expect(own.match(ua('GPTBot'))).toBeNull();
    expect(own.markers).toEqual(['acmebot']);
  });

  it('refuses a token given twice, an unknown operator, an unknown category, and a name both matched and excluded', () => {
    const twice = {
      ...base,
      agents: [...base.agents, { name: 'Other', operator: 'acme', category: 'ai-search', tokens: ['acmebot'] }],
    };
    expect(agentCatalogueSchema.safeParse(twice).error?.issues[0]?.message).toBe("token acmebot is also AcmeBot's");
    const stranger = { ...base, agents: [{ name: 'X', operator: 'nobody', category: 'ai-search' }] };
    expect(agentCatalogueSchema.safeParse(stranger).error?.issues[0]?.message).toBe('nobody is not in operators');
    const category = { ...base, agents: [{ name: 'X', operator: 'acme', category: 'search' }] };
    expect(agentCatalogueSchema.safeParse(category).success).toBe(false);
    const both = { ...base, exclusions: [{ name: 'AcmeBot', reason: 'a generic library name, not an agent' }] };
    expect(agentCatalogueSchema.safeParse(both).error?.issues[0]?.message).toBe('AcmeBot is excluded and matched');
  });
});
