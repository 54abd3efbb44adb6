import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { READ_API_TAGS, type ReadEndpoint, readEndpoints } from '@vt/contracts';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadApiHarness } from './testing/index.ts';

// The /docs reference page as a reader sees it: Debian's Chromium (driven by playwright-core)
// renders Swagger UI from the document the app serves, offline.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const harness = createReadApiHarness();
const catalogue: ReadEndpoint[] = Object.values(readEndpoints);

let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`This test needs Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH.`);
  }
  server = harness.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs`);
  await page.locator('.opblock-tag-section').first().waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await harness.close();
});

describe('GET /docs in a browser', () => {
  it('[READ-30] groups the operations by resource tag, in the document’s order, with nothing under "default"', async () => {
    const tags = await page
      .locator('h3.opblock-tag')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-tag')));
    expect(tags).toEqual(READ_API_TAGS.map((tag) => tag.name));
    for (const tag of READ_API_TAGS) {
      await expect.poll(() => page.locator(`#operations-tag-${tag.name}`).textContent()).toContain(tag.description);
    }
    for (const endpoint of catalogue) {
      const operation = page.locator(`#operations-${endpoint.tag}-${endpoint.operationId}`);
      expect(await operation.count(), endpoint.operationId).toBe(1);
      expect(await operation.textContent()).toContain(endpoint.path);
    }
    expect(await page.locator('#operations-tag-default').count()).toBe(0);
  });

  it('[READ-30] shows ResponseDetail among the schemas as one object with every field, text included', async () => {
    // Swagger UI renders OpenAPI 3.1 schemas with its JSON Schema 2020-12 components. (It merges an
    // allOf by itself, so this does not tell the old allOf from the plain object: the document's
    // test does; this checks what a reader sees.)
    const model = page
      .locator('section.models article[data-json-schema-level="0"]')
      .filter({ has: page.locator('.json-schema-2020-12__title', { hasText: /^ResponseDetail$/ }) });
    expect(await model.count()).toBe(1);
    await model.scrollIntoViewIfNeeded();
    await model.locator('.json-schema-2020-12-expand-deep-button').first().click();
    await expect.poll(() => model.textContent()).toContain('The complete answer as markdown.');
    expect(await model.textContent()).toContain(
      'A response with its complete text; every other field equals the list row.',
    );
    // The properties one level down, as their names are shown.
    const properties = await model
      .locator('[data-json-schema-level="1"] > .json-schema-2020-12-head .json-schema-2020-12__title')
      .allTextContents();
    expect(properties).toEqual([
      'id',
      'promptId',
      'prompt',
      'model',
      'date',
      'mentioned',
      'matchedTerm',
      'position',
      'sentiment',
      'excerpt',
      'sourceUrls',
      'country',
      'language',
      'truncated',
      'property',
      'text',
    ]);
  });
});
