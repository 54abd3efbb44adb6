import { describe, expect, it } from 'vitest';
import { COPILOT_NOTE, filterPlatforms } from '../../web/src/platform-filter.ts';

// Issue 32 item 7: Copilot has no public answer API, so the console's platform filter offers it
// only where imported Copilot answers exist in the range.

const platform = (id: string, configured: boolean) => ({ platform: id, configured });
const point = (model: string, responses: number) => ({ model, responses });
const status = (...platforms: ReturnType<typeof platform>[]) => ({ platforms }) as never;
const visibility = (...points: ReturnType<typeof point>[]) => ({ points }) as never;

describe('the platform filter', () => {
  const asking = status(
    platform('chatgpt', true),
    platform('perplexity', false),
    platform('claude', true),
    platform('gemini', false),
    platform('copilot', false),
  );

  it('offers the platforms asked, never Copilot when it has no answer in the range', () => {
    expect(filterPlatforms(asking, visibility(), '')).toEqual(['chatgpt', 'claude']);
    expect(filterPlatforms(asking, visibility(point('chatgpt', 3), point('copilot', 0)), '')).toEqual([
      'chatgpt',
      'claude',
    ]);
  });

  it('offers Copilot once imported Copilot answers are in the range, in the service order', () => {
    expect(filterPlatforms(asking, visibility(point('copilot', 2), point('gemini', 1)), '')).toEqual([
      'chatgpt',
      'claude',
      'gemini',
      'copilot',
    ]);
  });

  it('never offers Copilot for being "configured": only its answers count', () => {
    expect(filterPlatforms(status(platform('copilot', true)), visibility(), '')).toEqual([]);
  });

  it('keeps the platform a shared link chose, so the select shows the filter applied', () => {
    expect(filterPlatforms(asking, visibility(), 'copilot')).toEqual(['chatgpt', 'claude', 'copilot']);
  });

  it('says plainly why, and how Copilot answers get in', () => {
    expect(COPILOT_NOTE).toContain('no public API');
    expect(COPILOT_NOTE).toContain('imported');
  });
});
