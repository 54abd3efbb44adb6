/**
 * What a long command says while it works: one line on a terminal, rewritten in place, gone when
 * the command ends. Commands report through it whether or not anyone sees it.
 */
export interface Progress {
  update(text: string): void;
  /** Clears the line: the command's result follows on stdout alone. */
  done(): void;
}

/** For pipes, files and --json: nothing is written. */
export const silentProgress: Progress = { update() {}, done() {} };

const CLEAR_LINE = '\r\x1b[2K';

/**
 * One line on a terminal (written to stderr, so stdout keeps only the result): at most one rewrite
 * every `intervalMs`, the latest text shown when the interval ends, cut to the terminal's width so
 * it never wraps (a wrapped line cannot be rewritten).
 */
export function terminalProgress(
  write: (text: string) => void,
  { columns, intervalMs = 100 }: { columns?: number; intervalMs?: number } = {},
): Progress {
  // A terminal that does not say its width (0, as a bare pty) is taken as 80 columns.
  const width = columns && columns > 0 ? columns : 80;
  let shownAt = 0;
  let pending: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let visible = false;
  const show = (text: string) => {
    write(`${CLEAR_LINE}${text.slice(0, Math.max(10, width - 1))}`);
    visible = true;
    shownAt = Date.now();
    pending = undefined;
  };
  return {
    update(text) {
      const wait = shownAt + intervalMs - Date.now();
      if (wait <= 0) return show(text);
      pending = text;
      timer ??= setTimeout(() => {
        timer = undefined;
        if (pending !== undefined) show(pending);
      }, wait).unref();
    },
    done() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      if (visible) write(CLEAR_LINE);
      visible = false;
    },
  };
}
