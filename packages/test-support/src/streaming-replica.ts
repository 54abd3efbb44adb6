import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './processes.ts';
import { testEnv } from './test-env.ts';

const run = promisify(execFile);

/** A hot standby of the run's Postgres, streaming from it, on a port of its own on loopback. */
export interface StreamingReplica {
  port: number;
  /** The same database as `primaryUrl` names, read on the replica. */
  urlOf(primaryUrl: string): string;
  /** Holds WAL replay: the replica keeps answering, frozen at what it had (a lagging replica). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the server at once (as a crash would) and removes its files; idempotent. */
  stop(): Promise<void>;
}

/**
 * Copies the local Postgres with pg_basebackup (`-R`: standby.signal and primary_conninfo) into a
 * temporary directory and starts it with pg_ctl on a free port. Postgres refuses to run as root,
 * so as root both run as the `postgres` user. The copy holds every database of the cluster (about
 * a second for a test machine's). The primary must let replication connections in from loopback:
 * `pnpm test`'s prerequisites check sees to it.
 */
export async function startStreamingReplica(primaryBaseUrl = testEnv.DATABASE_URL): Promise<StreamingReplica> {
  const primary = new URL(primaryBaseUrl);
  const primaryPort = primary.port || '5432';
  const bin = await postgresBinDir(primaryBaseUrl);
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const command = (program: string, args: string[]) =>
    asPostgres.length > 0
      ? run(asPostgres[0]!, [...asPostgres.slice(1), join(bin, program), ...args], { cwd: tmpdir() })
      : run(join(bin, program), args, { cwd: tmpdir() });

  // A replication slot keeps the WAL the replica has yet to receive: without one, a primary busy
  // with other test runs (each CREATE DATABASE is WAL) recycles segments before the new replica
  // asks for them, and it never catches up. The slot is dropped at stop, and slots of test
  // processes that died without stopping theirs are dropped here, or the primary would keep WAL
  // for them forever.
  const slot = `${SLOT_PREFIX}${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await dropStaleSlots(primaryBaseUrl);
  const root = await mkdtemp(join(tmpdir(), 'vt-replica-'));
  if (asPostgres.length > 0) await chownToPostgres(root);
  const data = join(root, 'data');
  const port = await freePort();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    await rm(root, { recursive: true, force: true });
    await onPrimary(primaryBaseUrl, (client) =>
      client.query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [slot]),
    );
  };
  try {
    // The slot is made, reserving WAL from this moment, before the backup starts: pg_basebackup's
    // own -C makes it only once its WAL stream starts, after the backup's checkpoint, and CI once
    // saw the segment between the two recycled ("requested WAL segment … has already been removed").
    await onPrimary(primaryBaseUrl, (client) =>
      client.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]),
    );
    await command('pg_basebackup', [
      ...['-h', primary.hostname, '-p', primaryPort, '-U', primary.username || 'postgres'],
      ...['-D', data, '-R', '-X', 'stream', '-c', 'fast', '-S', slot],
    ]);
    // Debian keeps the configuration outside the data directory, so the copy has none.
    const files = {
      'postgresql.conf': `port = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\nhot_standby = on\nshared_buffers = 16MB\nfsync = off\n`,
      'pg_hba.conf': 'local all all trust\nhost all all 127.0.0.1/32 trust\n',
      'pg_ident.conf': '',
    };
    for (const [name, text] of Object.entries(files)) {
      await writeFile(join(data, name), text);
      if (asPostgres.length > 0) await chownToPostgres(join(data, name));
    }
    await command('pg_ctl', ['-D', data, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (err) {
    await stop();
    throw new Error(`could not start a streaming replica: ${(err as Error).message}`);
  }

  const onReplica = async <T>(sql: string): Promise<T> => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      return (await client.query(sql)).rows[0] as T;
    } finally {
      await client.end();
    }
  };
  return {
    port,
    urlOf(primaryUrl) {
      const url = new URL(primaryUrl);
      url.port = String(port);
      return url.toString();
    },
    pauseReplay: () => onReplica('SELECT pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('SELECT pg_wal_replay_resume()'),
    async caughtUp(timeoutMs = 10_000) {
      const client = new pg.Client({ connectionString: primaryBaseUrl });
      await client.connect();
      const target = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
      await client.end();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { done } = await onReplica<{ done: boolean }>(
          `SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn AS done`,
        );
        if (done) return;
        if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${target} in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop,
  };
}

const SLOT_PREFIX = 'vt_test_replica_';

async function onPrimary<T>(primaryUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(primaryUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Drops the inactive replica slots whose test process (its pid is in the name) is gone. */
async function dropStaleSlots(primaryUrl: string): Promise<void> {
  await onPrimary(primaryUrl, async (client) => {
    const { rows } = await client.query<{ slot_name: string }>(
      `SELECT slot_name FROM pg_replication_slots WHERE NOT active AND slot_name LIKE '${SLOT_PREFIX}%'`,
    );
    for (const { slot_name } of rows) {
      const pid = Number(slot_name.slice(SLOT_PREFIX.length).split('_')[0]);
      if (pid === process.pid || isRunning(pid)) continue;
      await client.query('SELECT pg_drop_replication_slot($1)', [slot_name]).catch(() => {});
    }
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The server's own binaries (pg_basebackup and pg_ctl of its major version), as Debian lays them out. */
async function postgresBinDir(primaryUrl: string): Promise<string> {
  const { rows } = await onPrimary(primaryUrl, (client) =>
    client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v"),
  );
  return `/usr/lib/postgresql/${Math.floor(Number(rows[0]!.v) / 10_000)}/bin`;
}

async function chownToPostgres(path: string): Promise<void> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const uid = Number(stdout.trim());
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  await chown(path, uid, Number(gid.trim()));
}
