import { z } from 'zod';
import { BUNDLED_AGENT_CATALOGUE, operatorRangeSources } from './agent-catalogue.ts';
import { ipValue, parseCidr } from './ip-address.ts';

/**
 * Where operators publish their crawlers' IP ranges, from the agent catalogue, all in the shape
 * `{creationTime, prefixes: [{ipv4Prefix} | {ipv6Prefix}]}`. An operator without such files
 * (Meta, ByteDance, Amazon's lists are HTML pages, Cohere, You.com, ...) has its agents' events
 * `unverifiable`. Google's files cover its common crawlers (GoogleOther, Google-CloudVertexBot)
 * and user-triggered fetchers (Google-NotebookLM, Gemini-Deep-Research).
 */
export const OPERATOR_RANGE_SOURCES: Readonly<Record<string, readonly string[]>> =
  operatorRangeSources(BUNDLED_AGENT_CATALOGUE);

const cidrOf = (family: 4 | 6) =>
  z.string().refine((text) => text.includes(':') === (family === 6) && parseCidr(text) !== null, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not an IPv${family} CIDR such as ${family === 4 ? '192.0.2.0/24' : '2001:db8::/32'}`,
  });

/** An ISO date-time; without an offset it is UTC (operators write `2025-01-02T03:04:05.000000`). */
const creationTimeSchema = z.string().transform((text, ctx) => {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/i.exec(text.trim());
  const date = m ? new Date(`${m[1]}T${m[2]}.${(m[3] ?? '0').padEnd(3, '0').slice(0, 3)}${m[4] ?? 'Z'}`) : null;
  if (!date || Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(text)} is not an ISO 8601 date-time` });
    return z.NEVER;
  }
  return date;
});

const publishedRangesSchema = z.object({
  creationTime: creationTimeSchema.nullish(),
  prefixes: z
    .array(z.union([z.object({ ipv4Prefix: cidrOf(4) }), z.object({ ipv6Prefix: cidrOf(6) })]))
    .min(1, 'no prefixes: an empty list would turn every crawler of the operator unverified'),
});

/** Thrown when a published ranges file does not have the expected shape. */
export class PublishedRangesError extends Error {
  override name = 'PublishedRangesError';
}

/**
 * Reads one operator's published file. Other keys (syncToken, service, ...) are ignored; an
 * unreadable CIDR or creationTime, or an empty list, throws a PublishedRangesError naming the entry.
 */
export function parsePublishedRanges(json: unknown): { creationTime: Date | null; prefixes: string[] } {
  const result = publishedRangesSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'file'}: ${i.message}`);
    throw new PublishedRangesError(`not a published IP ranges file: ${problems.join('; ')}`);
  }
  return {
    creationTime: result.data.creationTime ?? null,
    prefixes: result.data.prefixes.map((p) => ('ipv4Prefix' in p ? p.ipv4Prefix : p.ipv6Prefix)),
  };
}

/** Sorted, non-overlapping inclusive ranges; a lookup is one binary search. */
class RangeList<T extends number | bigint> {
  private readonly starts: T[] = [];
  private readonly ends: T[] = [];

  /** `next(x)` is x + 1 in T, so that adjacent ranges merge too. */
  constructor(ranges: { start: T; end: T }[], next: (x: T) => T) {
    const sorted = [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    for (const { start, end } of sorted) {
      const last = this.ends.length - 1;
      const lastEnd = this.ends[last];
      if (lastEnd !== undefined && start <= next(lastEnd)) {
        if (end > lastEnd) this.ends[last] = end;
      } else {
        this.starts.push(start);
        this.ends.push(end);
      }
    }
  }

  has(value: T): boolean {
    // hi ends on the last range whose start is <= value.
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.starts[mid] as T) <= value) lo = mid + 1;
      else hi = mid - 1;
    }
    const end = this.ends[hi];
    return end !== undefined && value <= end;
  }
}

export type IpVerification = 'verified' | 'unverified' | 'unverifiable';

/**
 * Every operator's published ranges, merged per operator into sorted IPv4 and IPv6 range lists,
 * so `verify` costs a parse and two short binary searches whatever the number of prefixes.
 */
export class CrawlerIpIndex {
  private readonly byOperator = new Map<string, { v4: RangeList<number>; v6: RangeList<bigint> }>();

  /** Several entries for one operator are merged. A prefix that is not a CIDR throws. */
  constructor(sets: readonly { operator: string; prefixes: readonly string[] }[]) {
    const collected = new Map<string, { v4: { start: number; end: number }[]; v6: { start: bigint; end: bigint }[] }>();
    for (const { operator, prefixes } of sets) {
      const ranges = collected.get(operator) ?? { v4: [], v6: [] };
      collected.set(operator, ranges);
      for (const prefix of prefixes) {
        const cidr = parseCidr(prefix);
        if (!cidr) throw new PublishedRangesError(`${operator}: ${JSON.stringify(prefix)} is not a CIDR`);
        if (cidr.v === 4) ranges.v4.push(cidr);
        else ranges.v6.push(cidr);
      }
    }
    for (const [operator, { v4, v6 }] of collected) {
      if (v4.length + v6.length === 0) continue;
      this.byOperator.set(operator, { v4: new RangeList(v4, (x) => x + 1), v6: new RangeList(v6, (x) => x + 1n) });
    }
  }

  /**
   * `unverifiable` when there is no IP or the operator publishes no ranges; otherwise `verified`
   * when the IP lies in one of them and `unverified` when not (an unreadable IP included).
   */
  verify(operator: string, ip: string | undefined): IpVerification {
    const ranges = this.byOperator.get(operator);
    const text = ip?.trim();
    if (!ranges || !text) return 'unverifiable';
    const value = ipValue(text);
    if (value === null) return 'unverified';
    const hit = typeof value === 'number' ? ranges.v4.has(value) : ranges.v6.has(value);
    return hit ? 'verified' : 'unverified';
  }

  /** Operators with at least one range, sorted. */
  operatorsWithRanges(): string[] {
    return [...this.byOperator.keys()].sort();
  }
}

/** The part of a database client loadStoredRangeIndex reads (a Prisma client fits). */
export interface StoredRangeSource {
  crawlerIpRangeSet: {
    findMany(args: {
      select: { operator: true; prefixes: true; takenAt: true };
    }): PromiseLike<{ operator: string; prefixes: string[]; takenAt: Date }[]>;
  };
}

/**
 * The stored sets (crawler_ip_range_sets) as a lookup index. takenAt is the oldest stored set's
 * (how stale the index may be, since a failed refresh keeps an operator's previous set), or null
 * when nothing is stored.
 */
export async function loadStoredRangeIndex(
  db: StoredRangeSource,
): Promise<{ index: CrawlerIpIndex; takenAt: Date | null }> {
  const rows = await db.crawlerIpRangeSet.findMany({ select: { operator: true, prefixes: true, takenAt: true } });
  const takenAt = rows.reduce<Date | null>((oldest, r) => (!oldest || r.takenAt < oldest ? r.takenAt : oldest), null);
  return { index: new CrawlerIpIndex(rows), takenAt };
}
