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
export {
  generateLeadTraffic,
  type LeadDelivery,
  type LeadTraffic,
  seededRandom,
  signedLeadHeaders,
} from './lead-traffic.ts';
export { databaseText, redisText } from './leak-scan.ts';
export { type OutboundEvent, outboundTarget, readOutboundLog } from './outbound-log.ts';
export { ROOT } from './paths.ts';
export {
  freePort,
  nodeArguments,
  type RunningApp,
  type RunningProcess,
  runScript,
  startApp,
  waitForOk,
} from './processes.ts';
export {
  type Exposition,
  hasSample,
  parseExposition,
  promtool,
  type Sample,
  sampleSum,
  scrape,
} from './prometheus.ts';
export {
  type ClusterNodeProcess,
  type RunningRedisCluster,
  startRedis,
  startRedisCluster,
  startRedisWithReplica,
} from './redis-cluster.ts';
export { type StreamingReplica, startStreamingReplica } from './streaming-replica.ts';
export { isolatedQueuePrefix, runScratchDir, testEnv } from './test-env.ts';
