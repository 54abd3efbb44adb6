export { testDb, uniqueSlug } from './database.ts';
export { freePort, ROOT, type RunningProcess, runScript, waitForOk } from './processes.ts';
export { testEnv } from './test-env.ts';
