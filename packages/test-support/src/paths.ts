import { fileURLToPath } from 'node:url';

/** The repository's root directory (with a trailing slash). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The traffic generator: realistic request events with their ground truth (a vendored copy). */
export const GENERATOR = fileURLToPath(new URL('../tools/gen-access-log.mjs', import.meta.url));
