import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateReadApiTypes, READ_API_TYPES_PATH } from './api-client-types.ts';

describe('read-api.d.ts', () => {
  it('[READ-30] equals what the generator makes from the OpenAPI document now', async () => {
    const committed = await readFile(READ_API_TYPES_PATH, 'utf8');
    expect(
      committed === (await generateReadApiTypes()),
      'packages/api-client/src/read-api.d.ts is out of date with the OpenAPI document: run `pnpm api-client:generate`',
    ).toBe(true);
  });
});
