import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with the plain `N passed, N failed` line CI reads, after vitest's own summary. */
export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    // Printed after the default reporter's summary, so it is the closing line.
    setImmediate(() =>
      process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`),
    );
  }
}
