import type { OpsConfig } from '@vt/config';
import type { PrismaClient } from '@vt/db';

/** What every ops command works with: the database and the parsed config. */
export interface OpsContext {
  db: PrismaClient;
  config: OpsConfig;
}
