import {
  DEFAULT_RANGE_DAYS,
  day,
  EXTRA_MODEL,
  type ExtraTasks,
  hoursBefore,
  type KeyName,
  type ListPath,
  LONG_BACK,
  LONG_TEXT,
  PROP_KEYS,
  type PropKey,
  SCOPES,
  STALE_BACK,
  TODAY,
} from './endpoint-world.ts';
import { type ReadWorld, WORLD_DAYS, WORLD_MODELS, worldAnswer } from './read-world.ts';

// What every /v1 list should answer, computed from the endpoint world's documented layout by a
// small model of it, never copied from an answer.

export interface Answer {
  prop: PropKey;
  propertyId: string;
  promptId: string;
  model: string;
  back: number;
  date: string;
  mentioned: boolean;
  matchedTerm: string | null;
  position: number | null;
  sentiment: number | null;
  text: string;
  urls: string[];
  rivalNamed: boolean;
}

export interface Range {
  from: string;
  to: string;
}
export const DEFAULT_RANGE: Range = { from: day(DEFAULT_RANGE_DAYS - 1), to: TODAY };

export interface AnswerFilter {
  propertyId?: string;
  promptId?: string;
  model?: string;
  mentioned?: boolean;
  range?: Range;
}

export const answerKey = (a: { propertyId: string; promptId: string; model: string; date: string }) =>
  `${a.date}|${a.propertyId}|${a.promptId}|${a.model}`;

const domainOf = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, '');

function buildAnswers(world: ReadWorld): Answer[] {
  const rows: Answer[] = [];
  for (const prop of PROP_KEYS) {
    const property = world.properties[prop];
    for (let back = 0; back < WORLD_DAYS; back++) {
      const date = day(back);
      for (const promptId of property.promptIds) {
        for (const model of WORLD_MODELS) {
          rows.push({
            prop,
            propertyId: property.id,
            promptId,
            model,
            back,
            date,
            ...worldAnswer(prop, back, date, model),
          });
        }
      }
    }
  }
  const growth = world.properties.growth;
  const extra = { prop: 'growth', propertyId: growth.id, promptId: growth.promptIds[0], model: EXTRA_MODEL } as const;
  rows.push(
    {
      ...extra,
      back: LONG_BACK,
      date: day(LONG_BACK),
      mentioned: true,
      matchedTerm: 'growth',
      position: 3,
      sentiment: -0.25,
      text: LONG_TEXT,
      urls: [],
      rivalNamed: false,
    },
    {
      // Stored with stale mention details although not mentioned: the API must still send nulls.
      ...extra,
      back: STALE_BACK,
      date: day(STALE_BACK),
      mentioned: false,
      matchedTerm: null,
      position: null,
      sentiment: null,
      text: 'Nothing about the brand.',
      urls: [],
      rivalNamed: false,
    },
  );
  return rows;
}

/**
 * The expectations over a seeded world. `world` and `extraTasks` are read when a function is
 * called, so the model can be built before beforeAll fills them in.
 */
export function createEndpointExpectations(world: ReadWorld, extraTasks: ExtraTasks) {
  let answers: Answer[] | undefined;

  function expectedAnswers(key: KeyName, filter: AnswerFilter = {}): Answer[] {
    const range = filter.range ?? DEFAULT_RANGE;
    answers ??= buildAnswers(world);
    return answers.filter(
      (a) =>
        SCOPES[key].includes(a.prop) &&
        a.date >= range.from &&
        a.date <= range.to &&
        (filter.propertyId === undefined || a.propertyId === filter.propertyId) &&
        (filter.promptId === undefined || a.promptId === filter.promptId) &&
        (filter.model === undefined || a.model === filter.model) &&
        (filter.mentioned === undefined || a.mentioned === filter.mentioned),
    );
  }

  function expectedVisibility(key: KeyName, filter: AnswerFilter = {}) {
    const groups = new Map<string, Answer[]>();
    for (const a of expectedAnswers(key, filter)) {
      const k = `${a.date}|${a.propertyId}|${a.model}`;
      groups.set(k, [...(groups.get(k) ?? []), a]);
    }
    const mean = (values: number[]) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : null);
    return [...groups.values()].map((group) => {
      const hits = group.filter((a) => a.mentioned);
      return {
        date: group[0]!.date,
        propertyId: group[0]!.propertyId,
        model: group[0]!.model,
        responses: group.length,
        mentions: hits.length,
        visibilityRate: hits.length / group.length,
        averagePosition: mean(hits.map((a) => a.position!)),
        averageSentiment: mean(hits.map((a) => a.sentiment!)),
      };
    });
  }

  function expectedCompetitors(key: KeyName, filter: { propertyId?: string; range?: Range } = {}) {
    const props = SCOPES[key].filter(
      (p) => filter.propertyId === undefined || world.properties[p].id === filter.propertyId,
    );
    return props.flatMap((prop) => {
      const inRange = expectedAnswers(key, { propertyId: world.properties[prop].id, range: filter.range });
      const brand = inRange.filter((a) => a.mentioned).length;
      const rival = inRange.filter((a) => a.rivalNamed).length;
      const quiet = 0;
      const voices = brand + rival + quiet;
      const share = (n: number) => (voices > 0 ? n / voices : 0);
      const [rivalId, quietId] = world.properties[prop].competitorIds;
      const brandShare = { mentions: brand, shareOfVoice: share(brand) };
      const propertyId = world.properties[prop].id;
      return [
        {
          id: rivalId,
          propertyId,
          name: 'Rival',
          domain: 'rival.test',
          mentions: rival,
          shareOfVoice: share(rival),
          brand: brandShare,
        },
        {
          id: quietId,
          propertyId,
          name: 'Quiet',
          domain: 'quiet.test',
          mentions: quiet,
          shareOfVoice: share(quiet),
          brand: brandShare,
        },
      ];
    });
  }

  function citations(key: KeyName, filter: AnswerFilter) {
    return expectedAnswers(key, filter).flatMap((a) =>
      a.urls.map((url) => ({ url, domain: domainOf(url), answer: a })),
    );
  }

  function expectedSources(key: KeyName, filter: AnswerFilter = {}) {
    const all = citations(key, filter);
    const domains = [...new Set(all.map((c) => c.domain))];
    return domains.map((domain) => {
      const cited = all.filter((c) => c.domain === domain);
      return {
        domain,
        citations: cited.length,
        responses: new Set(cited.map((c) => c.answer)).size,
        share: cited.length / all.length,
      };
    });
  }

  function expectedUrls(key: KeyName, filter: AnswerFilter & { domain?: string } = {}) {
    const all = citations(key, filter).filter((c) => filter.domain === undefined || c.domain === filter.domain);
    const urls = [...new Set(all.map((c) => c.url))];
    return urls.map((url) => {
      const cited = all.filter((c) => c.url === url);
      const dates = cited.map((c) => c.answer.date).sort();
      return {
        url,
        domain: domainOf(url),
        citations: cited.length,
        responses: new Set(cited.map((c) => c.answer)).size,
        firstSeen: dates[0],
        lastSeen: dates[dates.length - 1],
      };
    });
  }

  /** Expected accepted tasks per key, newest first: the world's growth tasks plus the extra ones. */
  function expectedTasks(key: KeyName) {
    const t = world.tasks;
    const growth = world.properties.growth.id;
    const extra = (name: keyof ExtraTasks, prop: PropKey, hours: number, status: string) => ({
      id: extraTasks[name].id,
      propertyId: world.properties[prop].id,
      createdAt: hoursBefore(hours),
      status,
      prop,
    });
    const rows = [
      { id: t.adHoc.id, propertyId: growth, createdAt: t.adHoc.createdAt, status: 'todo', prop: 'growth' },
      { id: t.step1.id, propertyId: growth, createdAt: t.step1.createdAt, status: 'in_progress', prop: 'growth' },
      { id: t.done.id, propertyId: growth, createdAt: t.done.createdAt, status: 'done', prop: 'growth' },
      extra('starter', 'starter', 1.5, 'backlog'),
      extra('tieA', 'starter', 6, 'canceled'),
      extra('tieB', 'starter', 6, 'todo'),
      extra('free', 'free', 0.5, 'todo'),
      extra('lapsed', 'lapsed', 0.25, 'todo'),
      extra('other', 'other', 0.75, 'todo'),
    ];
    return rows
      .filter((r) => SCOPES[key].includes(r.prop as PropKey))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  /** The expected total of every list endpoint for a key, with no filter and the default range. */
  function expectedTotals(key: KeyName): Record<ListPath, number> {
    return {
      '/v1/responses': expectedAnswers(key).length,
      '/v1/tasks': expectedTasks(key).length,
      '/v1/properties': SCOPES[key].length,
      '/v1/prompts': SCOPES[key].length * 2,
      '/v1/visibility': expectedVisibility(key).length,
      '/v1/competitors': expectedCompetitors(key).length,
      '/v1/sources': expectedSources(key).length,
      '/v1/sources/urls': expectedUrls(key).length,
    };
  }

  return {
    expectedAnswers,
    expectedVisibility,
    expectedCompetitors,
    expectedSources,
    expectedUrls,
    expectedTasks,
    expectedTotals,
  };
}
