import type { AgentMatcher } from '@vt/attribution';

/** Distinct texts remembered before a memo starts over. */
const MAX_TEXTS = 10_000;
/** Distinct texts of one length remembered: past this, such a text is decided every time. */
const MAX_PER_LENGTH = 16;
/**
 * Longer texts are decided every time, never remembered: real user agents and referers are far
 * shorter, and a line may be 1 MiB, so 10,000 remembered made-up ones could hold gigabytes.
 */
export const MAX_REMEMBERED_LENGTH = 512;

/**
 * A yes or no per distinct text (a user agent, a referer: a site's traffic has few), for a text
 * that stands in a chunk at [start, end), looked up by its length first: a slice compared with
 * the few known texts of that length measured about a quarter of hashing it for a Map, and this
 * runs for every line. Bounded whatever senders send.
 */
export class DecisionMemo {
  private byLength = new Map<number, { text: string; yes: boolean }[]>();
  private size = 0;

  constructor(private readonly decide: (text: string) => boolean) {}

  get(chunk: string, start: number, end: number): boolean {
    const text = chunk.slice(start, end);
    if (end - start > MAX_REMEMBERED_LENGTH) return this.decide(text);
    let known = this.byLength.get(end - start);
    if (known !== undefined) {
      for (const k of known) if (k.text === text) return k.yes;
    }
    const yes = this.decide(text);
    if (this.size >= MAX_TEXTS) {
      this.byLength = new Map();
      this.size = 0;
      known = undefined;
    }
    if (known === undefined) {
      known = [];
      this.byLength.set(end - start, known);
    }
    if (known.length < MAX_PER_LENGTH) {
      known.push({ text: ownCopy(text), yes });
      this.size++;
    }
    return yes;
  }
}

/**
 * A string that shares no memory with the text it was sliced from: a slice kept in a cache would
 * keep the whole body chunk it was cut from alive.
 */
export function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

const agentMemos = new WeakMap<AgentMatcher, DecisionMemo>();

/** Whether a user agent is an AI agent's by this matcher, remembered for every batch it classifies. */
export function agentMemo(agents: AgentMatcher): DecisionMemo {
  let memo = agentMemos.get(agents);
  if (memo === undefined) {
    memo = new DecisionMemo((userAgent) => agents.match(userAgent) !== null);
    agentMemos.set(agents, memo);
  }
  return memo;
}

const encodedAgentMemos = new WeakMap<AgentMatcher, DecisionMemo>();

/**
 * Whether a percent-encoded user agent (as CloudFront logs it) is an AI agent's by this matcher,
 * remembered by its encoded text, so a line whose agent was seen before is decided undecoded.
 */
export function encodedAgentMemo(agents: AgentMatcher, decode: (text: string) => string): DecisionMemo {
  let memo = encodedAgentMemos.get(agents);
  if (memo === undefined) {
    memo = new DecisionMemo((encoded) => agents.match(decode(encoded)) !== null);
    encodedAgentMemos.set(agents, memo);
  }
  return memo;
}
