import { spawn } from 'node:child_process';

// Reading what an app's /metrics serves, and Prometheus's own linter over it. promtool is Debian's
// (`apt-get install prometheus`, which .ci/run does); a test that needs it fails without it.

export interface Sample {
  /** The sample's name as written: `vt_job_duration_seconds_count`, `vt_leads_accepted_total`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Each metric family's type, by family name (`# TYPE` lines). */
  types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text exposition format (what prom-client writes). */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) {
      labels[key!] = value!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
export function sampleSum(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Whether a sample of `name` with these labels is exposed at all (even at 0). */
export function hasSample(exposition: Exposition, name: string, labels: Record<string, string> = {}): boolean {
  return exposition.samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** GET a /metrics URL and parse it; the raw text too, for promtool. */
export async function scrape(url: string): Promise<Exposition & { text: string }> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const text = await res.text();
  return { text, ...parseExposition(text) };
}

/** Runs promtool with `input` on its standard input; resolves with its exit code and output. */
export function promtool(args: string[], input?: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', (err) =>
      reject(new Error(`promtool did not run (${err.message}): apt-get install prometheus (.ci/run installs it)`)),
    );
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input ?? '');
  });
}
