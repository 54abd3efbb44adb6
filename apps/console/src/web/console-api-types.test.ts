import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONSOLE_API_TYPES_PATH, generateConsoleApiTypes } from './console-api-types.ts';

describe('web/src/console-api.d.ts', () => {
  it('equals what the generator makes from the console OpenAPI document now', async () => {
    const committed = await readFile(CONSOLE_API_TYPES_PATH, 'utf8');
    expect(
      committed === (await generateConsoleApiTypes()),
      'apps/console/web/src/console-api.d.ts is out of date with the console OpenAPI document: run `pnpm console-client:generate`',
    ).toBe(true);
  });
});
