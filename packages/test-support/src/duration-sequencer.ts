import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Where the expected duration of each test file is kept (seconds, from a whole `pnpm test` on the
 * reference machine): `pnpm test:durations` writes it from vitest's cache after a run.
 */
export const FILE_DURATIONS_PATH = 'tests/file-durations.json';

/**
 * Files longest first, by `expected` seconds; a file with no figure (a new one) goes first, since
 * it may be long. Vitest does this itself from its cache of the last run, but a fresh clone (CI)
 * has none and falls back to file size: there the 80 s demo walk started two thirds of the way
 * through the main suite and set its end, and the fault suite's two longest files ran one after
 * the other.
 */
export function longestFirst<File>(
  files: readonly File[],
  pathOf: (file: File) => string,
  expected: Readonly<Record<string, number>>,
): File[] {
  const seconds = (file: File) => expected[pathOf(file)] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => seconds(b) - seconds(a));
}

/** Reads the committed durations; none (a missing or unreadable file) orders nothing. */
export function readFileDurations(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(path.join(root, FILE_DURATIONS_PATH), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Vitest's sequencer with its order taken from the committed durations, or from this checkout's own
 * cache of a past run where it has one (the figures of the machine at hand).
 */
export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = readFileDurations(root);
    const relativePath = (file: TestSpecification) => path.relative(root, file.moduleId);
    for (const file of files) {
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${relativePath(file)}`);
      if (cached) expected[relativePath(file)] = cached.duration / 1000;
    }
    return longestFirst(files, relativePath, expected);
  }
}
