import { afterEach, describe, expect, it, vi } from 'vitest';
import { terminalProgress } from './progress.ts';

// The progress line as a terminal receives it: rewritten in place, never wrapped, gone at the end.

const CLEAR = '\r\x1b[2K';

afterEach(() => {
  vi.useRealTimers();
});

describe('terminalProgress', () => {
  it('rewrites one line in place, at most once per interval, showing the latest text when the interval ends', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const progress = terminalProgress((t) => written.push(t), { intervalMs: 100 });
    progress.update('step 1');
    progress.update('step 2');
    progress.update('step 3');
    expect(written).toEqual([`${CLEAR}step 1`]);
    vi.advanceTimersByTime(100);
    expect(written).toEqual([`${CLEAR}step 1`, `${CLEAR}step 3`]);
    vi.advanceTimersByTime(500);
    progress.update('step 4');
    expect(written.at(-1)).toBe(`${CLEAR}step 4`);
  });

  it('cuts the text to the terminal’s width so the line never wraps, and clears it when done', () => {
    const written: string[] = [];
    const progress = terminalProgress((t) => written.push(t), { columns: 20 });
    progress.update('x'.repeat(50));
    expect(written).toEqual([`${CLEAR}${'x'.repeat(19)}`]);
    progress.done();
    expect(written.at(-1)).toBe(CLEAR);
    progress.done();
    expect(written).toHaveLength(2); // nothing shown, nothing to clear
    const unknownWidth: string[] = [];
    terminalProgress((t) => unknownWidth.push(t), { columns: 0 }).update('y'.repeat(100));
    expect(unknownWidth).toEqual([`${CLEAR}${'y'.repeat(79)}`]); // a pty that says 0 columns: 80
  });

  it('writes nothing after done, even for an update that was waiting for its interval', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const progress = terminalProgress((t) => written.push(t), { intervalMs: 100 });
    progress.update('a');
    progress.update('b');
    progress.done();
    vi.advanceTimersByTime(1000);
    expect(written).toEqual([`${CLEAR}a`, CLEAR]);
  });
});
