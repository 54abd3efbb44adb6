import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_DURATIONS_PATH, longestFirst, readFileDurations } from './duration-sequencer.ts';
import { ROOT } from './paths.ts';

describe('the suites start their longest files first', () => {
  it('orders by expected seconds, longest first, a file with no figure before all', () => {
    const files = ['short.test.ts', 'new.test.ts', 'long.test.ts', 'middle.test.ts'];
    const expected = { 'short.test.ts': 0.4, 'long.test.ts': 78.4, 'middle.test.ts': 12 };
    expect(longestFirst(files, (f) => f, expected)).toEqual([
      'new.test.ts',
      'long.test.ts',
      'middle.test.ts',
      'short.test.ts',
    ]);
  });

  it('reads the committed durations, and none from a checkout without them', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'vt-durations-'));
    expect(readFileDurations(empty)).toEqual({});
    mkdirSync(path.dirname(path.join(empty, FILE_DURATIONS_PATH)), { recursive: true });
    writeFileSync(path.join(empty, FILE_DURATIONS_PATH), '{"a.test.ts": 3.5}');
    expect(readFileDurations(empty)).toEqual({ 'a.test.ts': 3.5 });
  });

  it('the committed figures are seconds of test files this checkout has, its heaviest among them', () => {
    const committed = readFileDurations(ROOT);
    const entries = Object.entries(committed);
    expect(entries.length).toBeGreaterThan(100);
    for (const [file, seconds] of entries) {
      expect(file).toMatch(/\.test\.ts$/);
      expect(Number.isFinite(seconds) && seconds >= 0).toBe(true);
    }
    // The longest are the browser walks and the demo seed: present, so the order they set is real.
    const [longest] = longestFirst(
      entries.map(([file]) => file),
      (f) => f,
      committed,
    );
    expect(longest && existsSync(path.join(ROOT, longest))).toBe(true);
  });
});
