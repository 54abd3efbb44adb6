import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listMigrations } from '../migrate.ts';

// For a migration's own test: a database migrated to just before it, from a copy of the migrations
// that precede it, so the test can fill it as it was and then apply the rest.

const MIGRATIONS = fileURLToPath(new URL('../../../../prisma/migrations', import.meta.url));
const copies: string[] = [];

/** The migrations before `name`, copied into a directory of their own. */
export async function migrationsBefore(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vt-migrations-before-'));
  copies.push(dir);
  for (const m of await listMigrations(MIGRATIONS)) {
    if (m.name >= name) break;
    await cp(join(MIGRATIONS, m.name), join(dir, m.name), { recursive: true });
  }
  return dir;
}

/** Removes every copy migrationsBefore made (call it after the test file). */
export async function removeMigrationCopies(): Promise<void> {
  await Promise.all(copies.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
