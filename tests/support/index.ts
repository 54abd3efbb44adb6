export { type AccessLogTruth, countBy, GENERATOR, type GeneratedAccessLog, generateAccessLog } from './access-log.ts';
export { testDb, uniqueSlug } from './database.ts';
export { freePort, ROOT, type RunningProcess, runScript, waitForOk } from './processes.ts';
export { isolatedQueuePrefix, testEnv } from './test-env.ts';
