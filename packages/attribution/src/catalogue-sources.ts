import { z } from 'zod';
import { type AgentCatalogue, type AgentCategory, agentCatalogueSchema } from './agent-catalogue.ts';

// Community lists merged into the catalogue by `ops crawlers refresh`: ai.robots.txt's robots.json
// and the crawler-user-agents package's JSON (its `ai-crawler` entries). Merging adds the agents
// the catalogue does not know; every agent it knows keeps our fields (operator, category, tokens),
// and a robots.txt-only token or an exclusion is never added back.

/** ai.robots.txt's robots.json: `{ [name]: { operator, function, ... } }`. */
export const robotsJsonSchema = z.record(
  z.string().min(1).max(100),
  z.object({ operator: z.string().default(''), function: z.string().default('') }).loose(),
);

/** crawler-user-agents.json: `[{ pattern, tags?, url?, instances? }]`. */
export const crawlerUserAgentsSchema = z.array(
  z.object({ pattern: z.string(), tags: z.array(z.string()).optional(), url: z.string().optional() }).loose(),
);

export interface CatalogueSources {
  robotsJson?: unknown;
  crawlerUserAgents?: unknown;
}

export interface AddedAgent {
  name: string;
  operator: string;
  category: AgentCategory;
  source: 'ai.robots.txt' | 'crawler-user-agents';
}

/** ai.robots.txt's `function` in words to a category; data scrapers and the unclear train models. */
function categoryOfFunction(text: string): AgentCategory {
  const f = text.toLowerCase();
  if (f.includes('coding')) return 'ai-coding-agent';
  if (f.includes('assistant')) return 'ai-assistant';
  if (/\bagents?\b/.test(f)) return 'ai-browser-agent';
  if (f.includes('search')) return 'ai-search';
  return 'ai-training';
}

/** "[OpenAI](https://openai.com)" or "Unclear at this time." to a lower-case single word. */
function operatorOf(text: string, name: string): string {
  const label = /^\[([^\]]+)\]/.exec(text.trim())?.[1] ?? text;
  const word = label.toLowerCase().startsWith('unclear') || label.trim() === '' ? name : label;
  return (
    word
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 40) || 'unknown'
  );
}

/** A crawler-user-agents pattern that is a plain token (`GPTBot`, `Claude-Web`, `omgili\/`); null for a real regex. */
function tokenOfPattern(pattern: string): string | null {
  const token = pattern.replace(/\\\/$/, '').replace(/\\(.)/g, '$1');
  return /^[A-Za-z0-9][A-Za-z0-9 ._-]{1,60}$/.test(token) ? token : null;
}

/**
 * The catalogue with the sources' unknown agents added, as `version`. Names are compared with
 * every token, robots.txt-only entry and exclusion of `base`, case-insensitively; a name such as
 * `iaskspider/2.0` or `Brightbot 1.0` is read as its token (`iaskspider`, `Brightbot`).
 */
export function mergeCatalogueSources(
  base: AgentCatalogue,
  sources: CatalogueSources,
  version: string,
): { catalogue: AgentCatalogue; added: AddedAgent[] } {
  const known = new Set<string>();
  for (const agent of base.agents) for (const t of [agent.name, ...(agent.tokens ?? [])]) known.add(t.toLowerCase());
  for (const excluded of base.exclusions) known.add(excluded.name.toLowerCase());
  const added: AddedAgent[] = [];
  const add = (name: string, operator: string, category: AgentCategory, source: AddedAgent['source']) => {
    if (known.has(name.toLowerCase())) return;
    known.add(name.toLowerCase());
    added.push({ name, operator, category, source });
  };

  if (sources.robotsJson !== undefined) {
    for (const [rawName, entry] of Object.entries(robotsJsonSchema.parse(sources.robotsJson))) {
      const name = rawName.replace(/[\s/]+v?\d+(?:\.\d+)*$/, '').trim();
      add(name, operatorOf(entry.operator, name), categoryOfFunction(entry.function), 'ai.robots.txt');
    }
  }
  if (sources.crawlerUserAgents !== undefined) {
    for (const entry of crawlerUserAgentsSchema.parse(sources.crawlerUserAgents)) {
      if (!entry.tags?.includes('ai-crawler')) continue;
      const token = tokenOfPattern(entry.pattern);
      if (token) add(token, operatorOf('', token), 'ai-training', 'crawler-user-agents');
    }
  }

  const operators = { ...base.operators };
  for (const a of added) operators[a.operator] ??= {};
  const catalogue = agentCatalogueSchema.parse({
    ...base,
    version,
    operators,
    agents: [
      ...base.agents,
      ...added.map((a) => ({
        name: a.name,
        operator: a.operator,
        category: a.category,
        note: `Added from ${a.source} by a refresh; review its operator and category.`,
      })),
    ],
  });
  return { catalogue, added };
}

/** Versions are `YYYY-MM-DD.N`: by day, then by N as a number. */
export function compareCatalogueVersions(a: string, b: string): number {
  const [dayA = '', nA = '0'] = a.split('.');
  const [dayB = '', nB = '0'] = b.split('.');
  return dayA.localeCompare(dayB) || Number(nA) - Number(nB);
}

/** The version a refresh on `day` stores after `current`: the day's next sequence number. */
export function nextCatalogueVersion(current: string, day: string): string {
  const [currentDay, n = '0'] = current.split('.');
  const next = currentDay === day ? `${day}.${Number(n) + 1}` : `${day}.1`;
  // A release's catalogue may carry a later day than today: the refresh still comes after it.
  return compareCatalogueVersions(next, current) > 0 ? next : `${currentDay}.${Number(n) + 1}`;
}
