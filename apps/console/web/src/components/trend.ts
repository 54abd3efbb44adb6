import type { OverviewFigures } from '../console-types.ts';

// A figure and its trend in words a marketer reads at a glance: percentages move in points,
// counts in percent, averages by their difference; "new" when the previous period had none.

type Trend = OverviewFigures['visibility']['trend'];
const signed = (n: number, unit = '') => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n)}${unit}`;

export interface Shown {
  value: string;
  trend: string;
  /** good, bad or neutral: the colour, never the only sign (the words say it too). */
  tone: 'good' | 'bad' | 'neutral';
  /** The trend for a screen reader and a tooltip: "up 10 points on the previous 14 days". */
  label: string;
}

const toneOf = (trend: Trend, lowerIsBetter = false): Shown['tone'] =>
  trend === 'up' || trend === 'new'
    ? lowerIsBetter
      ? 'bad'
      : 'good'
    : trend === 'down'
      ? lowerIsBetter
        ? 'good'
        : 'bad'
      : 'neutral';

const noChange = (trend: Trend, previous: string) =>
  trend === 'none' ? 'no data either period' : trend === 'new' ? `new (none in the previous period)` : previous;

export function showPercent(f: OverviewFigures['visibility'] | null): Shown | null {
  if (!f) return null;
  const value = f.current === null ? '—' : `${f.current}%`;
  if (f.changePoints === null)
    return { value, trend: trendWord(f.trend), tone: toneOf(f.trend), label: noChange(f.trend, '') };
  return {
    value,
    trend: `${signed(f.changePoints)} pts`,
    tone: toneOf(f.trend),
    label: `${f.trend === 'flat' ? 'unchanged' : `${f.trend} ${Math.abs(f.changePoints)} points`}, from ${f.previous}%`,
  };
}

export function showAverage(
  f: OverviewFigures['averageSentiment'] | null,
  options: { lowerIsBetter?: boolean } = {},
): Shown | null {
  if (!f) return null;
  const value = f.current === null ? '—' : String(f.current);
  if (f.change === null)
    return {
      value,
      trend: trendWord(f.trend),
      tone: toneOf(f.trend, options.lowerIsBetter),
      label: noChange(f.trend, ''),
    };
  const better = options.lowerIsBetter ? f.change < 0 : f.change > 0;
  return {
    value,
    trend: `${signed(f.change)}${f.change === 0 ? '' : better ? ' (better)' : ' (worse)'}`,
    tone: f.change === 0 ? 'neutral' : better ? 'good' : 'bad',
    label: `${f.change === 0 ? 'unchanged' : better ? 'better' : 'worse'}, from ${f.previous}`,
  };
}

export function showCount(f: OverviewFigures['crawlerHits']): Shown {
  const value = f.current.toLocaleString('en');
  if (f.changePercent === null)
    return { value, trend: trendWord(f.trend), tone: toneOf(f.trend), label: noChange(f.trend, '') };
  return {
    value,
    trend: `${signed(f.changePercent, '%')}`,
    tone: toneOf(f.trend),
    label: `${f.trend === 'flat' ? 'unchanged' : `${f.trend} ${Math.abs(f.changePercent)}%`}, from ${f.previous.toLocaleString('en')}`,
  };
}

function trendWord(trend: Trend): string {
  return trend === 'new' ? 'new' : trend === 'none' ? '' : '±0';
}
