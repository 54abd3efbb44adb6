import { readFileSync, writeFileSync } from 'node:fs';
import { APP_CONFIG_SCHEMAS, describeConfig } from '@vt/config';

const START = '<!-- config:start -->';
const END = '<!-- config:end -->';

/**
 * The configuration reference in markdown: one table per app, generated from the zod schemas the
 * apps parse at start. The README embeds it between markers and a test keeps the two equal.
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

/** The markdown between the config markers of a README, or null when the markers are missing. */
export function embeddedConfigReference(readme: string): string | null {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return null;
  return readme.slice(start + START.length, end).trim();
}

/** Rewrites the part of a README between the config markers (`pnpm docs:config`). */
export function writeConfigReference(readmePath: string): { file: string; updated: boolean } {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${readmePath} has no ${START} … ${END} markers`);
  const next = `${readme.slice(0, start + START.length)}\n${configReference().trim()}\n${readme.slice(end)}`;
  if (next !== readme) writeFileSync(readmePath, next);
  return { file: readmePath, updated: next !== readme };
}
