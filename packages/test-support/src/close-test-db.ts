import { closeRunDatabase } from '@vt/db/testing';
import { afterAll } from 'vitest';
import { closeTestDb } from './database.ts';

// A setup file: it runs for every test file, so each file's test clients are ended after its tests,
// also when files share a worker's modules (the main suite runs with isolate: false).
afterAll(closeTestDb);
afterAll(closeRunDatabase);
