import { defineConfig } from 'vitest/config';
import { DurationSequencer } from './packages/test-support/src/duration-sequencer.ts';

// The fault and load suites (tests/faults, tests/load) kill and cut real processes and load the
// machine, so they run on their own: `pnpm test:faults` and `pnpm test:load` (VT_SUITE=faults|load),
// after the rest in `pnpm test` (with their short profile). The load suite runs alone: its memory
// and latency figures are the machine's. The fault files run two at a time: each kills and cuts
// only what it started (its own Redis or Redis Cluster, its own proxy in front of Postgres, its own
// apps, queue prefix and property), and they mostly wait on those processes: two at a time took
// 56 s where one at a time took 113 to 135 s, with every timing bound they assert (an answer
// during an outage under 6 s, the slowest under 15 s, a SIGTERM exit under 10 s) still held with
// a busy loop on each of the two cores beside them (80 s).
const suite = process.env.VT_SUITE;
const own = suite === 'faults' || suite === 'load';

export default defineConfig({
  // Workspace packages that ship built files (@vt/api-client) name their sources under this
  // condition, so tests run the source without a build; a user of the packed package never sets it.
  resolve: { conditions: ['vt-workspace'] },
  ssr: { resolve: { conditions: ['vt-workspace'] } },
  test: {
    include: own
      ? [`tests/${suite}/**/*.test.ts`]
      : ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: own ? [] : ['tests/faults/**', 'tests/load/**', '**/node_modules/**'],
    fileParallelism: suite !== 'load',
    // The main suite's files mostly wait (on the apps they start, Postgres, Redis, a browser), so
    // they run four at a time whatever the cores: vitest's default, a worker per core less one,
    // ran them one by one on a 2-core machine. More is no faster: six or eight at a time fill both
    // cores sooner and each extra worker loads the app graph again (~8 s of CPU).
    maxWorkers: suite === 'load' ? 1 : suite === 'faults' ? 2 : 4,
    globalSetup: ['packages/test-support/src/global-setup.ts'],
    setupFiles: ['packages/test-support/src/test-env.ts', 'packages/test-support/src/close-test-db.ts'],
    // The main suite's files share each worker's modules instead of loading the app graph again per
    // file: that import was most of the suite's CPU (368 s of 389 s on two cores), and with it
    // shared the suite took 278 s. Files keep their own rows, ports, queue prefixes and clients.
    // The fault and load suites stay isolated: they kill and restart what they share.
    isolate: own,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits 1 s by default: a browser page that reloads its figures on two busy cores
    // took longer (CI once saw the overview's 30-day figure still shown after the 7-day click).
    expect: { poll: { timeout: 10_000 } },
    // Suites seed their own teams and properties, so files run in parallel against one database.
    pool: 'forks',
    // The fault and load suites start their longest files first, from tests/file-durations.json on
    // a fresh clone (CI), which has no cache of a past run for vitest to order by (pnpm
    // test:durations refreshes it): the fault suite's two longest files then run side by side, 68 ->
    // 57 s. The main suite keeps vitest's order (by file size on a fresh clone): longest first
    // started the four browser walks and two demo seeds together on two cores, and it took longer
    // (285 against 267 s in back-to-back CI runs).
    ...(own ? { sequence: { sequencer: DurationSequencer } } : {}),
    reporters: ['default', './packages/test-support/src/summary-reporter.ts'],
  },
});
