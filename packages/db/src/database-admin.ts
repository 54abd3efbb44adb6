import pg from 'pg';

function databaseNameOf(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) {
    throw new Error(`database name ${JSON.stringify(name)} must be 1-63 letters, digits, _ or -`);
  }
  return name;
}

function maintenanceUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

async function withMaintenanceClient<T>(databaseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: maintenanceUrl(databaseUrl), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the database named in the URL when it does not exist yet. Returns whether it did. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<boolean> {
  const name = databaseNameOf(databaseUrl);
  return withMaintenanceClient(databaseUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } catch (err) {
      // Two processes starting at once: the other one created it.
      if ((err as { code?: string }).code === '42P04') return false;
      throw err;
    }
    return true;
  });
}

/** Drops the database (tests clean up their own database with it). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseNameOf(databaseUrl);
  await withMaintenanceClient(databaseUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * Creates the database named in `databaseUrl` as a copy of `templateUrl`'s (tests: one migrated
 * template per run, cloned for each database a suite needs, instead of migrating each anew).
 * Postgres refuses to copy a database someone is connected to, so the template must be idle.
 */
export async function createDatabaseFromTemplate(databaseUrl: string, templateUrl: string): Promise<void> {
  const name = databaseNameOf(databaseUrl);
  const template = databaseNameOf(templateUrl);
  await withMaintenanceClient(databaseUrl, (client) =>
    client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`),
  );
}
