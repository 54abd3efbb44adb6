import { readFileSync, writeFileSync } from 'node:fs';
import { APP_CONFIG_SCHEMAS, describeConfig } from '@vt/config';
import { OpsError } from '../ops-error.ts';

const START = '<!-- config:start -->';
const END = '<!-- config:end -->';

/**
 * The configuration reference in markdown: one table per app, generated from the zod schemas the
 * apps parse at start. docs/operators.md embeds it between markers and a test keeps the two equal.
 */
export function configReference(): string {
  const sections = Object.entries(APP_CONFIG_SCHEMAS).map(([app, schema]) => {
    const rows = describeConfig(schema).map(
      (v) =>
        `| \`${v.name}\` | ${v.required ? 'required' : v.default === undefined ? 'unset' : `\`${v.default}\``} | ${v.description} |`,
    );
    return [`#### ${app}`, '', '| variable | default | meaning |', '|---|---|---|', ...rows, ''].join('\n');
  });
  return `${sections.join('\n')}`;
}

/** The markdown between the config markers of a page, or null when the markers are missing. */
export function embeddedConfigReference(page: string): string | null {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) return null;
  return page.slice(start + START.length, end).trim();
}

/** Rewrites the part of a page between the config markers (`pnpm docs:config`: docs/operators.md). */
export function writeConfigReference(pagePath: string): { file: string; updated: boolean } {
  // A page that cannot be read or has no markers is refused before anything is written.
  let page: string;
  try {
    page = readFileSync(pagePath, 'utf8');
  } catch (err) {
    throw new OpsError('invalid_argument', `--write: cannot read ${pagePath}: ${(err as Error).message}`);
  }
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) {
    throw new OpsError('invalid_argument', `--write: ${pagePath} has no ${START} … ${END} markers`);
  }
  const next = `${page.slice(0, start + START.length)}\n${configReference().trim()}\n${page.slice(end)}`;
  if (next !== page) writeFileSync(pagePath, next);
  return { file: pagePath, updated: next !== page };
}
