import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateReadApiTypes, READ_API_TYPES_PATH } from '../src/generate.ts';

// `pnpm api-client:generate`: rewrites src/read-api.d.ts from the read API's OpenAPI document.
await writeFile(READ_API_TYPES_PATH, await generateReadApiTypes());
console.log(`wrote ${fileURLToPath(READ_API_TYPES_PATH)}`);
