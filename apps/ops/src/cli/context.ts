import type { OpsConfig } from '@vt/config';
import type { PrismaClient } from '@vt/db';
import type { Progress } from './progress.ts';

/** What every ops command works with: the database, the parsed config, and where progress goes. */
export interface OpsContext {
  db: PrismaClient;
  config: OpsConfig;
  /** A long command's progress line (a terminal's; nothing under --json or into a pipe). */
  progress?: Progress;
}
