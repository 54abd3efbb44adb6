export {
  AGENT_CATEGORIES,
  type AgentCatalogue,
  type AgentCategory,
  type AgentMatch,
  type AgentMatcher,
  agentCatalogueSchema,
  agentCategories,
  BUNDLED_AGENT_CATALOGUE,
  type CatalogueAgent,
  countsAsAi,
  createAgentMatcher,
  isAiCategory,
  operatorRangeSources,
} from './agent-catalogue.ts';
export { AI_PLATFORM_IDS, AI_PLATFORMS, type AiPlatform, type AiPlatformId, aiPlatformName } from './ai-platforms.ts';
export {
  type AddedAgent,
  type CatalogueSources,
  compareCatalogueVersions,
  crawlerUserAgentsSchema,
  mergeCatalogueSources,
  nextCatalogueVersion,
  robotsJsonSchema,
} from './catalogue-sources.ts';
export { classifyLead, UNCLASSIFIED_PLATFORM } from './classify-lead.ts';
export { type Cidr, ipValue, parseCidr } from './ip-address.ts';
export {
  CrawlerIpIndex,
  type IpVerification,
  loadStoredRangeIndex,
  OPERATOR_RANGE_SOURCES,
  PublishedRangesError,
  parsePublishedRanges,
  type StoredRangeSource,
} from './ip-ranges.ts';
export { AI_CRAWLER_UA_MARKERS, type AiCrawlerMatch, BUNDLED_AGENT_MATCHER, matchAiCrawler } from './match-crawler.ts';
export { hostOfReferrer, platformForHost } from './match-platform.ts';
export { CRAWLER_OPERATOR_NAMES, crawlerOperatorName } from './operator-names.ts';
export {
  type DirectoryKey,
  jwkThumbprint,
  parseKeyDirectory,
  signatureAgentOrigin,
  storedDirectoryKeys,
} from './signature-keys.ts';
