export * from './app-configs.ts';
export {
  booleanFlag,
  crawlTokenSecretEnv,
  crawlWorkerPortEnv,
  databaseEnv,
  hostEnv,
  ingestGatewayPortEnv,
  leadWorkerPortEnv,
  logEnv,
  port,
  positiveInt,
  readApiPortEnv,
  redisEnv,
  shutdownEnv,
  webhookSigningKeyEnv,
} from './env-fragments.ts';
export { ConfigError, type ConfigVariable, describeConfig, parseConfig } from './parse-config.ts';
