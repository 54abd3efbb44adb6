import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['packages/test-support/src/global-setup.ts'],
    setupFiles: ['packages/test-support/src/test-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites seed their own teams and properties, so files run in parallel against one database.
    pool: 'forks',
    reporters: ['default', './packages/test-support/src/summary-reporter.ts'],
  },
});
