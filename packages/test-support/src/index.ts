export {
  type AccessLogTruth,
  countBy,
  type GeneratedAccessLog,
  generateAccessLog,
  generatorAiCrawlers,
  generatorHumans,
  generatorOtherBots,
  writeFixtureRanges,
} from './access-log.ts';
export { scratchDatabase, testDb, uniqueSlug } from './database.ts';
export { expectSecurityHeaders } from './http-assertions.ts';
export { ROOT } from './paths.ts';
export { freePort, type RunningProcess, runScript, waitForOk } from './processes.ts';
export { isolatedQueuePrefix, testEnv } from './test-env.ts';
