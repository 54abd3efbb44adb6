import type { Plan, SubscriptionStatus, TaskPriority, TaskReviewState, TaskStatus } from '@vt/db';

// The words of the demo data: people, brands, prompts, competitors, cited pages, action plans and
// the pieces answers are composed from, plus the pure function composing an answer (no I/O).
// seed.ts turns them into rows. Longer than our usual files: almost all of it is data.
//
// Rule the composer relies on: no template text, competitor name or cited URL contains a brand
// term (case-insensitively), so an answer mentions the brand exactly when the brand was put in.

export const DEMO_USERS = [
  { key: 'owner', email: 'owner@demo.example', name: 'Dana Owner', role: 'owner' },
  { key: 'admin', email: 'admin@demo.example', name: 'Alex Admin', role: 'admin' },
  { key: 'member-1', email: 'maya@demo.example', name: 'Maya Member', role: 'member' },
  { key: 'member-2', email: 'sam@demo.example', name: 'Sam Member', role: 'member' },
] as const;

export const DEMO_TEAM = {
  name: 'Demo Team',
  settings: { timeZone: 'UTC', weekStartsOn: 'monday', defaultDayRange: 30 },
  branding: { displayName: 'Demo Team', accentColor: '#1f77b4' },
};

export const DEMO_LABELS = [
  { name: 'content', color: '#1f77b4' },
  { name: 'technical', color: '#ff7f0e' },
  { name: 'pr', color: '#2ca02c' },
  { name: 'quick win', color: '#d62728' },
  { name: 'needs discussion', color: null },
] as const;

export interface DemoPromptSpec {
  text: string;
  tags: string[];
  active?: false;
}

export interface DemoPropertySpec {
  /** Stable name the property's ids are derived from; never shown. */
  key: string;
  name: string;
  domain: string;
  plan: Plan;
  subscriptionStatus: SubscriptionStatus;
  brandTerms: string[];
  /** What the brand is, as answers phrase it ("privacy-friendly web analytics"). */
  topic: string;
  strengths: string[];
  weaknesses: string[];
  prompts: DemoPromptSpec[];
  competitors: { name: string; domain: string; terms: string[] }[];
  /** Third-party pages answers about this topic cite. */
  sources: string[];
  /** Paths on the brand's own domain answers sometimes cite. */
  ownPaths: string[];
}

/** Pages cited for any topic, next to each property's own list. */
export const COMMON_SOURCES = [
  'https://en.wikipedia.org/wiki/Comparison_shopping',
  'https://www.reddit.com/r/smallbusiness/comments/18x2k1/what_tools_do_you_swear_by/',
  'https://news.ycombinator.com/item?id=38211544',
  'https://www.youtube.com/watch?v=Xk3n2q9LmPo',
  'https://medium.com/@reviews/an-honest-buyers-guide-4c1d2e',
];

export const DEMO_PROPERTIES: DemoPropertySpec[] = [
  {
    key: 'acme-analytics',
    name: 'Acme Analytics',
    domain: 'acme-analytics.example',
    plan: 'growth',
    subscriptionStatus: 'active',
    brandTerms: ['Acme Analytics', 'AcmeIQ'],
    topic: 'privacy-friendly web analytics',
    strengths: [
      'cookie-free tracking and a clean dashboard',
      'fast setup and honest pricing',
      'its funnel and goal reports',
    ],
    weaknesses: ['a thinner integration catalogue', 'limited session replay', 'a steep price jump on larger plans'],
    prompts: [
      { text: 'What is the best privacy-friendly alternative to Google Analytics?', tags: ['comparison', 'privacy'] },
      { text: 'Which web analytics tools work without a cookie banner?', tags: ['privacy', 'compliance'] },
      { text: 'Best analytics platform for a small SaaS startup', tags: ['saas', 'buyer'] },
      { text: 'How can I see which visitors come from ChatGPT or Perplexity?', tags: ['ai-traffic'] },
      { text: 'Top product analytics tools for B2B companies', tags: ['b2b', 'buyer'] },
      { text: 'Which analytics tool is easiest to set up on a Next.js site?', tags: ['developer', 'setup'] },
      { text: 'Affordable alternatives to enterprise analytics suites', tags: ['pricing', 'comparison'] },
      { text: 'Is self-hosted web analytics worth the effort?', tags: ['self-hosting'], active: false },
    ],
    competitors: [
      { name: 'Initech Metrics', domain: 'initech-metrics.example', terms: ['Initech Metrics', 'Initech'] },
      { name: 'Hooli Insights', domain: 'hooli-insights.example', terms: ['Hooli Insights'] },
      { name: 'Umbra Stats', domain: 'umbrastats.example', terms: ['Umbra Stats', 'UmbraStats'] },
    ],
    sources: [
      'https://www.g2.com/categories/web-analytics',
      'https://www.capterra.com/web-analytics-software/',
      'https://en.wikipedia.org/wiki/Web_analytics',
      'https://www.reddit.com/r/webdev/comments/1b9x0c/which_analytics_do_you_use/',
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Referer',
      'https://gdpr.eu/cookies/',
      'https://initech-metrics.example/pricing',
      'https://hooli-insights.example/blog/analytics-buyers-guide',
    ],
    ownPaths: ['/', '/pricing', '/docs/getting-started', '/blog/cookieless-analytics'],
  },
  {
    key: 'northwind-coffee',
    name: 'Northwind Coffee',
    domain: 'northwind-coffee.example',
    plan: 'starter',
    subscriptionStatus: 'active',
    brandTerms: ['Northwind Coffee', 'Northwind Roasters'],
    topic: 'specialty coffee subscriptions',
    strengths: [
      'beans roasted to order and shipped within 48 hours',
      'transparent direct-trade sourcing',
      'flexible delivery schedules',
    ],
    weaknesses: ['higher shipping costs outside the EU', 'a small decaf range', 'occasional out-of-stock origins'],
    prompts: [
      { text: 'What is the best coffee subscription for espresso lovers?', tags: ['subscription', 'buyer'] },
      { text: 'Where can I buy ethically sourced coffee beans online?', tags: ['sourcing'] },
      { text: 'Best single-origin beans for pour-over', tags: ['brewing'] },
      { text: 'Which roasters ship fresh beans every week?', tags: ['subscription', 'freshness'] },
      { text: 'Good gift ideas for someone who loves good espresso', tags: ['gifts', 'seasonal'] },
      { text: 'How do I choose a decaf that actually tastes good?', tags: ['decaf'] },
      { text: 'Best beans for cold brew at home', tags: ['brewing', 'seasonal'] },
      { text: 'Is a bean subscription cheaper than buying at the supermarket?', tags: ['pricing'], active: false },
    ],
    competitors: [
      {
        name: 'Bluebird Roasting Co',
        domain: 'bluebird-roasting.example',
        terms: ['Bluebird Roasting Co', 'Bluebird'],
      },
      { name: 'Fjord & Bean', domain: 'fjordandbean.example', terms: ['Fjord & Bean', 'Fjord and Bean'] },
      { name: 'Copper Kettle', domain: 'copperkettle.example', terms: ['Copper Kettle'] },
    ],
    sources: [
      'https://www.seriouseats.com/best-coffee-subscriptions',
      'https://www.reddit.com/r/Coffee/comments/17k3d2/subscription_recommendations/',
      'https://www.nytimes.com/wirecutter/reviews/best-coffee-subscriptions/',
      'https://en.wikipedia.org/wiki/Specialty_coffee',
      'https://sca.coffee/research/coffee-standards',
      'https://www.homegrounds.co/best-coffee-subscriptions/',
      'https://bluebird-roasting.example/subscriptions',
    ],
    ownPaths: ['/', '/subscriptions', '/origins/ethiopia-guji', '/journal/brewing-pour-over'],
  },
  {
    key: 'globex-cloud',
    name: 'Globex Cloud',
    domain: 'globex-cloud.example',
    plan: 'scale',
    subscriptionStatus: 'lapsed',
    brandTerms: ['Globex Cloud', 'GlobexCDN'],
    topic: 'managed Kubernetes hosting',
    strengths: ['predictable flat pricing', 'fast cluster provisioning', 'strong EU data residency'],
    weaknesses: ['fewer regions than the hyperscalers', 'a smaller marketplace', 'slower support on the basic tier'],
    prompts: [
      { text: 'Best managed Kubernetes provider for a startup', tags: ['buyer', 'startup'] },
      { text: 'Cheapest way to run Kubernetes in production', tags: ['pricing'] },
      { text: 'Which cloud providers keep data inside the EU?', tags: ['compliance', 'eu'] },
      { text: 'Alternatives to the big three cloud providers for small teams', tags: ['comparison'] },
      { text: 'How do I migrate from Heroku to Kubernetes?', tags: ['migration'] },
      { text: 'Which hosting providers offer a free Kubernetes control plane?', tags: ['pricing', 'buyer'] },
      { text: 'Most reliable CDN and hosting combo for an online store', tags: ['cdn', 'ecommerce'] },
      { text: 'Is serverless cheaper than Kubernetes for a small API?', tags: ['architecture'], active: false },
    ],
    competitors: [
      { name: 'Stratos Hosting', domain: 'stratos-hosting.example', terms: ['Stratos Hosting', 'Stratos'] },
      { name: 'Nimbus Stack', domain: 'nimbusstack.example', terms: ['Nimbus Stack', 'NimbusStack'] },
      { name: 'Cirrus Compute', domain: 'cirrus-compute.example', terms: ['Cirrus Compute'] },
    ],
    sources: [
      'https://kubernetes.io/docs/concepts/overview/',
      'https://www.cncf.io/certification/software-conformance/',
      'https://www.g2.com/categories/container-management',
      'https://www.reddit.com/r/kubernetes/comments/16z8a1/managed_k8s_for_small_teams/',
      'https://stackoverflow.com/questions/52171523/kubernetes-cost-for-small-apps',
      'https://stratos-hosting.example/kubernetes',
    ],
    ownPaths: ['/', '/kubernetes', '/pricing', '/docs/regions'],
  },
  {
    key: 'free-sandbox',
    name: 'Free Sandbox',
    domain: 'free-sandbox.example',
    plan: 'free',
    subscriptionStatus: 'active',
    brandTerms: ['Free Sandbox'],
    topic: 'online code playgrounds',
    strengths: ['instant shareable links', 'a generous free tier'],
    weaknesses: ['no private projects', 'slow cold starts'],
    prompts: [
      { text: 'Best online code playground for teaching beginners', tags: ['education'] },
      { text: 'Where can I share runnable code snippets?', tags: ['sharing'] },
    ],
    competitors: [],
    sources: ['https://developer.mozilla.org/en-US/docs/Learn', 'https://stackoverflow.com/questions/tagged/jsfiddle'],
    ownPaths: ['/', '/examples'],
  },
];

/** Chance a platform's answer mentions the brand, before per-prompt and trend adjustments. */
export const MENTION_RATE: Record<string, number> = {
  chatgpt: 0.6,
  perplexity: 0.66,
  claude: 0.52,
  gemini: 0.47,
  copilot: 0.42,
};

// ---------------------------------------------------------------- answer pieces

const INTROS = [
  'Good question. When people ask "{question}", the answer depends mostly on budget and how much control you need. Here is how the main options in {topic} compare.',
  'There is no single winner in {topic}, but a few names come up again and again in reviews and community threads.',
  'Short answer: it depends on your priorities. Below is a quick overview of the options most often recommended for {topic}.',
  'Based on recent reviews, forum discussions and vendor documentation, these are the options worth a look for {topic}.',
  'If you are comparing options for {topic}, start by writing down your must-haves: price, support and ease of use. Then look at these.',
];

/** A paragraph of advice between the intro and the list; some platforms give two. */
const ADVICE = [
  'Prices in {topic} vary widely, and the cheapest plan is rarely the cheapest once you add the features you actually need. Check what happens to the price when your usage doubles.',
  'Independent reviews and community threads are more useful than vendor comparison pages, which tend to leave out their own weak spots. Look for reviews written in the last twelve months.',
  'Support and documentation matter more than they seem at first. A provider with clear guides and a responsive team will save you hours in the first month alone.',
  'Think about switching costs before you commit. Exporting your data and moving to another provider should be straightforward, and the better options make it so.',
  'For most small teams, ease of use beats an extra feature. Pick something your whole team will actually use every week.',
];

const HEADINGS: Record<string, string | null> = {
  chatgpt: null,
  perplexity: null,
  claude: null,
  gemini: '## Top picks',
  copilot: '### Options to consider',
};

const BRAND_LINES: Record<'positive' | 'neutral' | 'negative', string[]> = {
  positive: [
    '**{term}**: widely recommended for {strength}. Reviewers often call it the easiest choice to live with.',
    '**{term}**: a strong pick thanks to {strength}, with consistently good feedback from users.',
  ],
  neutral: [
    '**{term}**: a solid middle-ground option, known for {strength}, though it is not the cheapest.',
    '**{term}**: covers the essentials; worth trying if {strength} matters to you.',
  ],
  negative: [
    '**{term}**: comes up often, although several users mention {weakness}.',
    '**{term}**: capable, but recent reviews point to {weakness}, so compare carefully.',
  ],
};

const COMPETITOR_LINES = [
  '**{name}**: a well-known option with a broad feature set and a large community.',
  '**{name}**: often cheaper for small teams, with a simple interface.',
  '**{name}**: praised for responsive support, though some features cost extra.',
  '**{name}**: popular with larger companies that need advanced reporting.',
];

const GENERIC_LINES = [
  '**Check the pricing model**: per-seat and usage-based pricing can differ a lot at scale.',
  '**Read recent reviews**: product quality changes quickly, so prefer reviews from the last year.',
  '**Try before you commit**: most providers offer a trial or a money-back guarantee.',
  '**Look at support hours**: make sure help is available in your time zone.',
];

const CLOSINGS = [
  'If you share a bit more about your budget and team size, I can narrow this down further.',
  'Most of these offer a free trial, so the quickest way to decide is to test two of them side by side for a week.',
  'Whatever you choose, revisit the decision in a year: this market moves quickly.',
  'In short, pick the option whose strengths match your main constraint rather than the one with the longest feature list.',
];

// ---------------------------------------------------------------- action plans and tasks

export interface DemoTaskStep {
  title: string;
  description: string;
  status: TaskStatus;
  priority: TaskPriority | null;
  reviewState: TaskReviewState;
  /** Days after creation the task is due; null for no due date. */
  dueAfterDays: number | null;
  /** Index into DEMO_USERS, or null for unassigned. */
  assignee: number | null;
  labels: string[];
}

export const DEMO_PLANS: { title: string; summary: string; createdDaysAgo: number; steps: DemoTaskStep[] }[] = [
  {
    title: 'Win the comparison prompts',
    summary:
      'Answers compare {brand} with {competitor} but quote third-party reviews. Give assistants first-party material to cite.',
    createdDaysAgo: 55,
    steps: [
      {
        title: 'Publish a comparison page: {brand} vs {competitor}',
        description: 'Honest feature and price table, updated quarterly, linked from the pricing page.',
        status: 'done',
        priority: 'high',
        reviewState: 'accepted',
        dueAfterDays: 14,
        assignee: 2,
        labels: ['content'],
      },
      {
        title: 'Add FAQ structured data to the pricing page',
        description: 'Mark up the ten most common pricing questions with FAQPage schema.',
        status: 'in_progress',
        priority: 'medium',
        reviewState: 'accepted',
        dueAfterDays: 30,
        assignee: 1,
        labels: ['technical', 'quick win'],
      },
      {
        title: 'Pay for a sponsored placement in review roundups',
        description: 'Declined: paid placements are labelled and rarely cited by assistants.',
        status: 'backlog',
        priority: 'low',
        reviewState: 'declined',
        dueAfterDays: null,
        assignee: null,
        labels: [],
      },
      {
        title: 'Answer the top Reddit threads that recommend {competitor}',
        description: '',
        status: 'todo',
        priority: null,
        reviewState: 'accepted',
        dueAfterDays: null,
        assignee: 3,
        labels: ['pr', 'needs discussion'],
      },
      {
        title: 'Refresh the feature matrix every quarter',
        description: 'Proposed by the plan generator; not yet reviewed.',
        status: 'backlog',
        priority: 'low',
        reviewState: 'proposed',
        dueAfterDays: null,
        assignee: null,
        labels: [],
      },
    ],
  },
  {
    title: 'Get cited by more sources',
    summary:
      'Only a few domains cite {domain}. Earn mentions on the review sites and communities assistants read most.',
    createdDaysAgo: 24,
    steps: [
      {
        title: 'Audit which domains assistants cite for our prompts',
        description: 'Export the sources report and list the twenty most cited domains we are absent from.',
        status: 'done',
        priority: 'urgent',
        reviewState: 'accepted',
        dueAfterDays: 7,
        assignee: 0,
        labels: ['quick win'],
      },
      {
        title: 'Publish an original data report on {topic}',
        description: 'A yearly benchmark with downloadable data that journalists and reviewers can quote.',
        status: 'todo',
        priority: 'high',
        reviewState: 'accepted',
        dueAfterDays: 45,
        assignee: 2,
        labels: ['content', 'pr'],
      },
      {
        title: 'Launch a customer stories hub on {domain}',
        description: '',
        status: 'backlog',
        priority: 'medium',
        reviewState: 'proposed',
        dueAfterDays: null,
        assignee: null,
        labels: [],
      },
      {
        title: 'Buy backlinks from listicle sites',
        description: 'Declined: against search guidelines and a reputational risk.',
        status: 'canceled',
        priority: null,
        reviewState: 'declined',
        dueAfterDays: null,
        assignee: null,
        labels: [],
      },
    ],
  },
];

export const DEMO_ADHOC_TASKS: (DemoTaskStep & { createdDaysAgo: number })[] = [
  {
    title: 'Allow GPTBot and ClaudeBot in robots.txt for /docs',
    description: 'Crawl activity shows 403s for AI crawlers on the docs subtree.',
    status: 'done',
    priority: 'urgent',
    reviewState: 'accepted',
    dueAfterDays: 2,
    assignee: 1,
    labels: ['technical', 'quick win'],
    createdDaysAgo: 58,
  },
  {
    title: 'Add an llms.txt file to {domain}',
    description: '',
    status: 'in_progress',
    priority: 'medium',
    reviewState: 'accepted',
    dueAfterDays: 10,
    assignee: null,
    labels: ['technical'],
    createdDaysAgo: 12,
  },
  {
    title: 'Review the weekly visibility report with marketing',
    description: 'Walk through mention rate by platform and agree on next week’s focus.',
    status: 'todo',
    priority: null,
    reviewState: 'accepted',
    dueAfterDays: null,
    assignee: 0,
    labels: [],
    createdDaysAgo: 5,
  },
  {
    title: 'Update brand terms after the product rename',
    description: 'Superseded: the rename was postponed.',
    status: 'canceled',
    priority: 'low',
    reviewState: 'accepted',
    dueAfterDays: null,
    assignee: 3,
    labels: ['needs discussion'],
    createdDaysAgo: 40,
  },
  {
    title: 'Draft a press kit page',
    description: 'Logos, boilerplate and founder bios in one place.',
    status: 'backlog',
    priority: 'low',
    reviewState: 'accepted',
    dueAfterDays: 60,
    assignee: 2,
    labels: ['pr', 'content'],
    createdDaysAgo: 1,
  },
];

// ---------------------------------------------------------------- composing an answer

export type Rng = () => number;

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export const fill = (template: string, vars: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);

/**
 * A plausible markdown answer to `question` from `platform`: intro, a list of options (the brand
 * when mentioned, some competitors, generic advice to pad), closing. Its verdict is not made up
 * here: the seed judges the text with the verdict engine, as collection does.
 */
export function composeAnswer(
  rng: Rng,
  property: DemoPropertySpec,
  question: string,
  platform: string,
  mentioned: boolean,
): string {
  // The tone of the brand's line: mostly favourable, sometimes not.
  const sentiment = mentioned ? 0.3 + (rng() + rng() + rng() - 1.5) * 0.8 : null;
  const term = mentioned ? ((rng() < 0.75 ? property.brandTerms[0] : pick(rng, property.brandTerms)) ?? null) : null;
  const items: string[] = [];
  if (term !== null && sentiment !== null) {
    const tone = sentiment > 0.3 ? 'positive' : sentiment < -0.1 ? 'negative' : 'neutral';
    items.push(
      fill(pick(rng, BRAND_LINES[tone]), {
        term,
        strength: pick(rng, property.strengths),
        weakness: pick(rng, property.weaknesses),
      }),
    );
  }
  for (const competitor of property.competitors) {
    if (rng() < 0.55) items.push(fill(pick(rng, COMPETITOR_LINES), { name: competitor.name }));
  }
  const list = shuffled(rng, items);
  for (const line of shuffled(rng, GENERIC_LINES)) if (list.length < 3) list.push(line);
  const numbered = platform === 'chatgpt' || platform === 'perplexity';
  const bullets = list.map(
    (line, i) => `${numbered ? `${i + 1}.` : '-'} ${line}${platform === 'perplexity' ? ` [${i + 1}]` : ''}`,
  );
  const vars = { question, topic: property.topic };
  const advice = shuffled(rng, ADVICE).slice(0, platform === 'claude' || platform === 'gemini' ? 2 : 1);
  return [
    fill(pick(rng, INTROS), vars),
    ...advice.map((a) => fill(a, vars)),
    HEADINGS[platform],
    bullets.join('\n'),
    pick(rng, CLOSINGS),
  ]
    .filter((part): part is string => Boolean(part))
    .join('\n\n');
}
