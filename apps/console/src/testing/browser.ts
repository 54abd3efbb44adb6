import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMetricsRegistry } from '@vt/service-runtime';
import { runScratchDir } from '@vt/test-support';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { buildConsoleApp, type ConsoleAppDeps } from '../app.ts';

// What the browser tests share: the UI built once per test run, the console app serving it on a
// loopback port, Debian's Chromium driven by playwright-core, signing in as a person does.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots of every view the tests visit (gitignored). */
export const TEST_SCREENSHOTS = fileURLToPath(new URL('../../test-screenshots/', import.meta.url));

export interface ConsoleInBrowser {
  base: string;
  browser: Browser;
  /** A new page at the given viewport, signed in as `person`, on the team they land on. */
  signIn(person: { email: string; password: string }, viewport?: { width: number; height: number }): Promise<Page>;
  /** A screenshot into `dir` (the test screenshots by default), of the whole page unless `fullPage` is false. */
  shot(page: Page, name: string, dir?: string, options?: { fullPage?: boolean }): Promise<void>;
  /**
   * Another console app (other deployment settings, the same database) serving the same UI to the
   * same browser, on a port of its own; closed with this one unless closed before.
   */
  serveAnother(
    appDeps: ConsoleAppDeps,
  ): Promise<Pick<ConsoleInBrowser, 'base' | 'signIn'> & { close(): Promise<void> }>;
  close(): Promise<void>;
}

/** Serves the console app built from `appDeps` with the built UI on a loopback port: its base URL. */
async function serveConsole(appDeps: ConsoleAppDeps, webRoot: string) {
  const app = buildConsoleApp({ ...appDeps, registry: createMetricsRegistry('console'), webRoot });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await new Promise((resolve) => server.close(resolve));
  };
  return { base, close };
}

/** Signs `person` in at `base` in a new page of `browser`, landing on their team. */
function signInAt(browser: Browser, base: string): ConsoleInBrowser['signIn'] {
  return async (person, viewport = { width: 1280, height: 900 }) => {
    const page = await browser.newPage({ viewport });
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/t\/[0-9a-f-]{36}$/);
    return page;
  };
}

/** Builds the UI, serves it with the console app built from `appDeps`, and starts Chromium. */
export async function openConsoleInBrowser(appDeps: ConsoleAppDeps): Promise<ConsoleInBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH.`);
  }
  const outDir = await webBuildOfThisRun();
  const served = await serveConsole(appDeps, outDir);
  const base = served.base;
  const others: Array<() => Promise<void>> = [];
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  mkdirSync(TEST_SCREENSHOTS, { recursive: true });

  return {
    base,
    browser,
    signIn: signInAt(browser, base),
    async serveAnother(otherDeps) {
      const other = await serveConsole(otherDeps, outDir);
      others.push(other.close);
      return { base: other.base, signIn: signInAt(browser, other.base), close: other.close };
    },
    async shot(page, name, dir = TEST_SCREENSHOTS, options = {}) {
      await page.screenshot({ path: join(dir, `${name}.png`), fullPage: options.fullPage ?? true });
    },
    async close() {
      await browser.close();
      for (const close of others) await close();
      await served.close();
    },
  };
}

const WEB_BUILD_TIMEOUT_MS = 180_000;

/**
 * The web UI built from these sources, once per test run however many browser test files ask
 * (each file is a process of its own): the first to ask builds it into the run's scratch
 * directory, the others wait for its mark (a vite 8 build takes about a second of CPU here, 10-20 s
 * with the vite before it). The run's global setup removes the directory at the end.
 */
async function webBuildOfThisRun(): Promise<string> {
  const outDir = join(runScratchDir(), 'web');
  const built = `${outDir}.built`;
  const failed = `${outDir}.failed`;
  try {
    mkdirSync(`${outDir}.lock`); // atomic: exactly one file of the run gets past it
  } catch {
    const deadline = Date.now() + WEB_BUILD_TIMEOUT_MS;
    while (!existsSync(built)) {
      if (existsSync(failed)) throw new Error(`The web UI did not build: ${readFileSync(failed, 'utf8')}`);
      if (Date.now() > deadline) throw new Error(`The web UI was not built within ${WEB_BUILD_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return outDir;
  }
  try {
    await build({
      configFile: fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url)),
      build: { outDir, emptyOutDir: true },
      logLevel: 'error',
    });
  } catch (err) {
    writeFileSync(failed, String(err));
    throw err;
  }
  writeFileSync(built, '');
  return outDir;
}
