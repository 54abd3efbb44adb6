import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

// The dashboard's charts, drawn by Recharts. Each chart carries a one-line summary as its
// accessible name, and the numbers behind it are in a table beside it on the page.

const PALETTE: Record<string, string> = {
  chatgpt: '#10a37f',
  perplexity: '#1f7a8c',
  claude: '#d97757',
  gemini: '#4285f4',
  copilot: '#7f57c2',
  verified: '#2f9e5b',
  unverified: '#e0a030',
  unverifiable: '#9aa3b2',
  other: '#6b7280',
};
const FALLBACK = ['#2450d6', '#c2410c', '#0f766e', '#a21caf', '#4d7c0f', '#be123c'];
export const colorOf = (key: string, index: number) => PALETTE[key] ?? FALLBACK[index % FALLBACK.length];

/** `2026-05-08` as `May 8`, for an axis. */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

interface SeriesChartProps {
  data: Record<string, number | string>[];
  keys: string[];
  /** A key's name in the legend and tooltip (a platform's product name); the key itself by default. */
  names?: (key: string) => string;
  summary: string;
  testId: string;
}

/** Counts per day, one stacked bar segment per key. */
export function StackedDailyBars({ data, keys, names, summary, testId }: SeriesChartProps) {
  return (
    <figure className="chart" role="img" aria-label={summary} data-testid={testId}>
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={shortDay} minTickGap={16} />
          <YAxis allowDecimals={false} />
          <Tooltip labelFormatter={(d) => shortDay(String(d))} />
          <Legend />
          {keys.map((key, i) => (
            <Bar
              key={key}
              dataKey={key}
              name={names ? names(key) : key}
              stackId="day"
              fill={colorOf(key, i)}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** A rate (0–1) per day, one line per key, shown as a percentage. */
export function DailyRateLines({ data, keys, names, summary, testId }: SeriesChartProps) {
  return (
    <figure className="chart" role="img" aria-label={summary} data-testid={testId}>
      <ResponsiveContainer width="100%" height={240}>
        {/* No negative left margin here: "100%" is the widest tick and was cut to "00%". */}
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={shortDay} minTickGap={16} />
          <YAxis domain={[0, 1]} width={60} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
          <Tooltip
            labelFormatter={(d) => shortDay(String(d))}
            formatter={(v) => (typeof v === 'number' ? `${Math.round(v * 100)}%` : String(v))}
          />
          <Legend />
          {keys.map((key, i) => (
            <Line
              key={key}
              dataKey={key}
              name={names ? names(key) : key}
              stroke={colorOf(key, i)}
              strokeWidth={2}
              dot={false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** One horizontal bar per row: a share (0–1) shown as a percentage. */
export function ShareBars(props: { rows: { name: string; share: number }[]; summary: string; testId: string }) {
  return (
    <figure className="chart" role="img" aria-label={props.summary} data-testid={props.testId}>
      <ResponsiveContainer width="100%" height={48 + props.rows.length * 36}>
        <BarChart data={props.rows} layout="vertical" margin={{ top: 8, right: 24, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" domain={[0, 1]} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} />
          <YAxis type="category" dataKey="name" width={110} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? `${Math.round(v * 100)}%` : String(v))} />
          <Bar dataKey="share" name="Share of voice" fill="#2450d6" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
