import { readFileSync } from 'node:fs';
import { ROOT } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { CRAWL_REJECTIONS, LEAD_REJECTIONS } from './rejections.ts';

/** `status reason` of every rejection row (4xx and 5xx) of the first table under a section of a docs/ page. */
function documentedRejections(page: string, section: string): string[] {
  const text = readFileSync(`${ROOT}docs/${page}`, 'utf8');
  const start = text.indexOf(`\n## ${section}\n`);
  const next = text.indexOf('\n## ', start + 1);
  const body = text.slice(start + 1, next < 0 ? undefined : next);
  const rows = body.split('\n').filter((line) => /^\| [45]\d\d/.test(line));
  return rows.flatMap((row) => {
    const [status = '', reasons = ''] = row
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    const named = [...reasons.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    return named.length ? named.map((reason) => `${status} ${reason}`) : [`${status} (none)`];
  });
}

/** The same, from a catalogue: its entries, the spec's reasonless ones as `(none)`. */
function catalogued(catalogue: Record<string, { status: number; hasReason?: false }>): string[] {
  return Object.entries(catalogue).map(
    ([reason, entry]) => `${entry.status} ${entry.hasReason === false ? '(none)' : reason}`,
  );
}

describe('the rejection catalogue and the docs', () => {
  it('[CRAWL-27] the crawl ingest table lists exactly the catalogued rejections, each with its status', () => {
    expect(documentedRejections('log-shippers.md', 'Crawl ingest').sort()).toEqual(catalogued(CRAWL_REJECTIONS).sort());
  });

  it('[LEAD-14] the lead webhook table lists exactly the catalogued rejections, each with its status', () => {
    expect(documentedRejections('webhook-senders.md', 'Lead webhook').sort()).toEqual(
      catalogued(LEAD_REJECTIONS).sort(),
    );
  });
});
