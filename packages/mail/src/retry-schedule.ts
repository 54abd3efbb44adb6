/** How long to wait after the `attempts`-th failed attempt: base, doubled each time, capped. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  const exponent = Math.max(0, attempts - 1);
  // 2^exponent overflows to Infinity long after the cap applies; Math.min keeps the cap.
  return Math.min(maxMs, baseMs * 2 ** Math.min(exponent, 52));
}
