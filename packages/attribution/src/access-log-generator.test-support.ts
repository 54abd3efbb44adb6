// Test support (not exported): the traffic generator's own tables and fixture ranges, so the
// catalogues are tested against the exact strings the ingest tests and the benchmark send.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GENERATOR = fileURLToPath(new URL('../../../../shared/tools/gen-access-log.mjs', import.meta.url));

/** A top-level `const NAME = [...];` literal of the generator, evaluated. */
function generatorTable<T>(name: string): T {
  const source = readFileSync(GENERATOR, 'utf8');
  const found = new RegExp(`^const ${name} = (\\[[\\s\\S]*?^\\]);`, 'm').exec(source);
  if (!found?.[1]) throw new Error(`${name} not found in ${GENERATOR}`);
  return new Function(`return ${found[1]};`)() as T;
}

/** [agent, operator, user agent] of every AI crawler the generator sends. */
export const generatorAiCrawlers = () => generatorTable<[string, string, string][]>('AI_CRAWLERS');
export const generatorHumans = () => generatorTable<string[]>('HUMANS');
export const generatorOtherBots = () => generatorTable<string[]>('OTHER_BOTS');

/** Writes the generator's fixture ranges (`<operator>.json`) to a new temporary directory. */
export function writeFixtureRanges(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vt-ranges-'));
  execFileSync(process.execPath, [GENERATOR, '--lines', '1', '--truth', join(dir, 'truth.txt'), '--ranges-out', dir]);
  return dir;
}
