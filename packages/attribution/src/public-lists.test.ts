import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  type AgentCatalogue,
  BUNDLED_AGENT_CATALOGUE,
  countsAsAi,
  crawlerUserAgentsSchema,
  createAgentMatcher,
  isAiCategory,
  mergeCatalogueSources,
} from './index.ts';

// Issue 32 item 6: the shipped catalogue held to both public lists, read from their releases as
// test data: crawler-user-agents 1.60.0 and top-user-agents (npm devDependencies), and
// ai.robots.txt's robots.json (not on npm: the committed snapshot of its current main, whose
// commit the catalogue's sources name).

const require = createRequire(import.meta.url);
const crawlerUserAgents = crawlerUserAgentsSchema.parse(require('crawler-user-agents'));
const topUserAgents: string[] = require('top-user-agents');
const robotsJson: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../data/ai-robots-txt.robots.json', import.meta.url), 'utf8'),
);

const catalogue = BUNDLED_AGENT_CATALOGUE;
const matcher = createAgentMatcher(catalogue);
const countedAsAi = (userAgent: string) => {
  const found = matcher.match(userAgent);
  return found !== null && isAiCategory(found.category);
};
const instancesOf = (entries: typeof crawlerUserAgents) =>
  entries.flatMap((e) => ((e.instances as string[] | undefined) ?? []).map((userAgent) => ({ ...e, userAgent })));
const aiTagged = crawlerUserAgents.filter((e) => e.tags?.includes('ai-crawler'));
const otherTagged = crawlerUserAgents.filter((e) => !e.tags?.includes('ai-crawler'));
const robotsNames = new Set(Object.keys(robotsJson).map((n) => n.replace(/\/[\d.]+$/, '').toLowerCase()));

/** ai-crawler instances deliberately not counted, each with why it is not an AI agent we can tell. */
const NOT_COUNTED_AI_TAGGED: Record<string, string> = {
  'Google-Extended':
    'Google documents Google-Extended as a robots.txt control token that no request carries (the fetches come as Googlebot); the catalogue lists it robots.txt-only.',
  'Spider[\\s\\S]*spider\\.com':
    "The user agent says only 'Spider'; the bare word also names Screaming Frog SEO Spider, Jamie's Spider and others the list tags seo, so it stays an exclusion.",
};

/**
 * Where the two lists disagree: instances crawler-user-agents tags otherwise (search-engine, seo,
 * browser-automation…) that name an agent ai.robots.txt lists. Issue 32 counts none of the
 * other-tagged instances as AI, and keeps these as dual-use (listed, counted only where a property
 * counts dual-use crawlers): what ai.robots.txt says of each is the group's reason below, and the
 * catalogue note of each agent names both lists and the tag. Any other kept instance fails.
 */
const AI_BY_AI_ROBOTS_TXT: { reason: string; patterns: string[] }[] = [
  {
    reason: 'an AI agent driving a browser for a person: "browser-automation" is how it fetches, not what for',
    patterns: ['AmazonBuyForMe', 'Google-Agent', 'GoogleAgent-Mariner', 'Manus-User', 'TwinAgent'],
  },
  {
    reason: 'an AI coding agent fetching documentation for a developer (tagged browser-automation)',
    patterns: ['Google-Gemini-CLI', 'Trae\\/', 'opencode-smartfetch'],
  },
  {
    reason: 'a search crawler whose index answers an AI assistant or trains a model, by its operator',
    patterns: [
      'Amazonbot',
      'YouBot',
      'AddSearchBot',
      'Timpibot',
      'PanguBot',
      'ImagesiftBot',
      'Linguee Bot',
      'aiHitBot',
    ],
  },
  {
    reason: "Meta AI's fetcher and indexer, not the link-preview fetcher (facebookexternalhit, which stays excluded)",
    patterns: ['meta-externalfetcher\\/', 'meta-webindexer'],
  },
  {
    reason: 'collects pages for AI training or sells them as AI data (tagged seo, academic, scanner or advertising)',
    patterns: [
      'AwarioBot',
      'AwarioRendererBot',
      'AwarioRssBot',
      'AwarioSmartBot',
      'Diffbot\\/',
      'EchoboxBot\\/',
      'FriendlyCrawler\\/',
      'Cotoyogi',
      'ICC-Crawler',
      'ISSCyberRiskCrawler\\/',
      '^LCC ',
      'VelenPublicWebCrawler',
      'WARDBot\\/',
      'YaK\\/',
      'omgili',
      'panscient',
      'factset_spyderbot',
      'Sidetrade indexer bot',
    ],
  },
  {
    reason: 'an AI chat assistant or companion reading a page for a person (tagged monitoring or seo)',
    patterns: ['BuddyBot', 'QualifiedBot\\/', 'wpbot\\/', 'WRTNBot'],
  },
];

/** The search crawlers filed dual-use before the lists were merged: their fetches also feed AI answers. */
const ORIGINAL_DUAL_USE = new Set(['Applebot', 'Bravebot', 'GoogleOther', 'PetalBot']);

/** The catalogue's agents behind AI_BY_AI_ROBOTS_TXT's patterns, all filed dual-use. */
const DUAL_USE_BY_DISAGREEMENT = [
  ...['AmazonBuyForMe', 'Google-Agent', 'GoogleAgent-Mariner', 'Manus-User', 'TwinAgent'],
  ...['Google-Gemini-CLI', 'Trae', 'opencode'],
  ...['Amazonbot', 'YouBot', 'AddSearchBot', 'Timpibot', 'PanguBot', 'ImagesiftBot', 'Linguee Bot', 'aiHitBot'],
  ...['meta-externalfetcher', 'meta-webindexer'],
  ...['Awario', 'Diffbot', 'EchoboxBot', 'FriendlyCrawler', 'Cotoyogi', 'ICC-Crawler', 'ISSCyberRiskCrawler', 'LCC'],
  ...['VelenPublicWebCrawler', 'WARDBot', 'YaK', 'omgili', 'Panscient', 'Factset_spyderbot', 'Sidetrade indexer bot'],
  ...['BuddyBot', 'QualifiedBot', 'wpbot', 'WRTNBot'],
];

describe('the shipped catalogue against both public lists', () => {
  it('(a) counts as AI every instance crawler-user-agents 1.60.0 tags ai-crawler, but two named exceptions', () => {
    const instances = instancesOf(aiTagged);
    expect(instances).toHaveLength(98);
    const missed = instances.filter((i) => !countedAsAi(i.userAgent)).map((i) => i.pattern);
    expect(missed.sort()).toEqual(Object.keys(NOT_COUNTED_AI_TAGGED).sort());
    console.info(`crawler-user-agents ai-crawler instances counted as AI: ${instances.length - missed.length}/98`);
    // The spider.com exception, shown: the bare word is in user agents the list tags seo.
    const bareSpider = createAgentMatcher({
      ...catalogue,
      exclusions: [],
      agents: [{ name: 'Spider', operator: 'crawl4ai', category: 'ai-training' }],
    });
    expect(instancesOf(otherTagged).filter((i) => bareSpider.match(i.userAgent)).length).toBeGreaterThan(5);
  });

  it('(a) names the agents the list tags ai-crawler that the ai.robots.txt snapshot lacks, with reviewed operators', () => {
    const byName = new Map(catalogue.agents.map((a) => [a.name, a]));
    const reviewed: [string, string, string][] = [
      ['ExteContextCrawl', 'exte', 'ai-search'],
      ['Flyriverbot', 'flyriver', 'ai-assistant'],
      ['semantic-visions', 'semanticvisions', 'ai-training'],
      ['TaraGroup Intelligent Bot', 'taragroup', 'ai-training'],
      ['TSM-turingos', 'turingos', 'ai-training'],
      ['ImageMind', 'imagemind', 'ai-training'],
      ['Novellum', 'novellum', 'ai-training'],
      ['linkReader', 'sider', 'ai-assistant'],
      ['Spawning-AI', 'spawning', 'ai-training'],
      ['The Knowledge AI', 'theknowledgeai', 'ai-training'],
      ['AISearchBot', 'aisearchbot', 'ai-search'],
    ];
    for (const [name, operator, category] of reviewed) {
      expect(byName.get(name), name).toMatchObject({ operator, category });
      expect(byName.get(name)?.note?.length ?? 0, name).toBeGreaterThan(30);
      expect(catalogue.operators[operator]?.name, operator).toBeTruthy();
    }
    expect(matcher.match('KendraBot')).toMatchObject({ agent: 'amazon-kendra', operator: 'amazon' });
    expect(matcher.match('Mozilla/5.0 (compatible; PerplexityUser/1.0)')).toMatchObject({ agent: 'Perplexity-User' });
  });

  it('(b) keeps none of the top-user-agents browsers', () => {
    expect(topUserAgents.length).toBeGreaterThanOrEqual(100);
    expect(topUserAgents.filter((userAgent) => matcher.match(userAgent) !== null)).toEqual([]);
  });

  it('(c) counts as AI none of the 2,000+ instances tagged otherwise; those ai.robots.txt names are kept as dual-use, each with why', () => {
    const instances = instancesOf(otherTagged);
    expect(instances.length).toBeGreaterThan(2000);
    expect(instances.filter((i) => countedAsAi(i.userAgent)).map((i) => i.pattern)).toEqual([]);
    // The agents the two lists disagree on are still matched (kept and listed), under dual-use.
    const keptByPattern = new Map<string, string>();
    for (const i of instances) {
      const found = matcher.match(i.userAgent);
      if (found && !ORIGINAL_DUAL_USE.has(found.agent)) keptByPattern.set(i.pattern, found.agent);
    }
    const written = AI_BY_AI_ROBOTS_TXT.flatMap((group) => group.patterns);
    expect([...keptByPattern.keys()].sort()).toEqual([...written].sort());
    const byName = new Map(catalogue.agents.map((a) => [a.name, a]));
    for (const group of AI_BY_AI_ROBOTS_TXT) {
      for (const pattern of group.patterns) {
        const agent = byName.get(keptByPattern.get(pattern) as string);
        expect(agent?.category, pattern).toBe('dual-use');
        // Named by the AI list, and its note says why it is dual-use: both lists and the tag.
        expect(
          [agent?.name ?? '', ...(agent?.tokens ?? [])].some((n) => robotsNames.has(n.toLowerCase())),
          pattern,
        ).toBe(true);
        const tags = otherTagged.find((e) => e.pattern === pattern)?.tags ?? [];
        expect(agent?.note, pattern).toMatch(/ai\.robots\.txt lists it as .*crawler-user-agents 1\.60\.0 tags it/);
        expect(
          tags.some((tag) => agent?.note?.includes(tag)),
          `${pattern}: ${tags}`,
        ).toBe(true);
        // A property that counts dual-use crawlers sees it as AI.
        expect(countsAsAi(agent?.category ?? null, true)).toBe(true);
        expect(countsAsAi(agent?.category ?? null, false)).toBe(false);
      }
    }
    // No agent has instances under both tags, so filing by agent loses none of test (a)'s 96.
    const aiAgents = new Set(instancesOf(aiTagged).flatMap((i) => matcher.match(i.userAgent)?.agent ?? []));
    expect([...new Set(keptByPattern.values())].filter((agent) => aiAgents.has(agent))).toEqual([]);
    console.info(
      `other-tagged instances counted as AI: 0/${instances.length}; kept as dual-use because ai.robots.txt names them: ${keptByPattern.size} patterns, ${new Set(keptByPattern.values()).size} agents`,
    );
  });

  it('(c) keeps the dual-use crawlers tagged otherwise, without counting them', () => {
    const dualUse = instancesOf(otherTagged).flatMap((i) => {
      const found = matcher.match(i.userAgent);
      return found?.category === 'dual-use' ? [found.agent] : [];
    });
    expect(new Set(dualUse)).toEqual(new Set([...ORIGINAL_DUAL_USE, ...DUAL_USE_BY_DISAGREEMENT]));
  });

  it('(d) recognises every ai.robots.txt name: matched, listed robots.txt-only, or excluded for a reason the lists bear out', () => {
    const robotsOnly = new Set(catalogue.agents.filter((a) => a.robotsTxtOnly).map((a) => a.name.toLowerCase()));
    const excluded = new Map(catalogue.exclusions.map((e) => [e.name.toLowerCase(), e]));
    const ua = (name: string) => `Mozilla/5.0 (compatible; ${name}; +https://example.com/bot)`;
    const unrecognised = Object.keys(robotsJson).filter(
      (name) => !matcher.match(ua(name)) && !robotsOnly.has(name.toLowerCase()) && !excluded.has(name.toLowerCase()),
    );
    expect(unrecognised).toEqual([]);
    // Each exclusion but OpenAI (a word of API client libraries) would take user agents the other
    // lists call something else for AI.
    const notAi = [...instancesOf(otherTagged).map((i) => i.userAgent), ...topUserAgents];
    for (const [name, exclusion] of excluded) {
      if (name === 'openai') continue;
      const withIt: AgentCatalogue = {
        ...catalogue,
        exclusions: [],
        agents: [{ name: exclusion.name, operator: 'openai', category: 'ai-training' }],
      };
      const own = createAgentMatcher(withIt);
      expect(
        notAi.filter((userAgent) => own.match(userAgent)).length,
        `${exclusion.name}: ${exclusion.reason}`,
      ).toBeGreaterThan(0);
    }
  });

  it('ships the merge: refreshing from both lists adds nothing the release lacks', () => {
    const { added } = mergeCatalogueSources(
      catalogue,
      { robotsJson, crawlerUserAgents: require('crawler-user-agents') },
      '2099-01-01.1',
    );
    expect(added).toEqual([]);
  });
});
