export * from './app-configs.ts';
export { ConfigError, type ConfigVariable, describeConfig, parseConfig } from './parse-config.ts';
