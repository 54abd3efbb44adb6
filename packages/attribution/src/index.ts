export { AI_PLATFORM_IDS, AI_PLATFORMS, type AiPlatform, type AiPlatformId } from './ai-platforms.ts';
export { hostOfReferrer, platformForHost } from './match-platform.ts';
