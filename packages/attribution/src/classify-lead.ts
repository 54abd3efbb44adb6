import { AI_PLATFORMS, type AiPlatformId } from './ai-platforms.ts';
import { hostOfReferrer, platformForHost } from './match-platform.ts';

/** The documented, stable `platform` reported for a lead no AI platform referred. */
export const UNCLASSIFIED_PLATFORM = 'unclassified';

const PLATFORM_BY_NAME = new Map<string, AiPlatformId>(
  AI_PLATFORMS.flatMap((p) => [
    [p.id, p.id],
    [p.name.toLowerCase(), p.id],
  ]),
);

/**
 * The AI platform a lead came from: its referrer first (a URL or a bare hostname), then its
 * utm_source (a platform host such as `chatgpt.com`, or a platform's name or id such as
 * `chatgpt`). Subdomains match on a label boundary; utmMedium never classifies, and Google AI
 * Overviews (google.com) is never an AI platform.
 */
export function classifyLead(lead: { referrer?: string; utmSource?: string }): AiPlatformId | null {
  if (lead.referrer) {
    const host = hostOfReferrer(lead.referrer);
    const platform = host ? platformForHost(host) : null;
    if (platform) return platform;
  }
  if (lead.utmSource) {
    const source = lead.utmSource.trim().toLowerCase();
    const byName = PLATFORM_BY_NAME.get(source);
    if (byName) return byName;
    if (source.includes('.')) {
      const host = hostOfReferrer(source);
      return host ? platformForHost(host) : null;
    }
  }
  return null;
}
