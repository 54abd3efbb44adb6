import { execFile, spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startRedisCluster, testEnv } from '@vt/test-support';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  appServicesOf,
  bindMountsOf,
  type ComposeService,
  configOf,
  environmentOf,
  joinCommand,
  loadCompose,
  readRepoFile,
  root,
} from './compose-files.ts';

// docker-compose.scale.yml merged over docker-compose.yml: a Redis Cluster of three masters and
// three replicas and a Postgres streaming replica, with the apps pointed at them. The checks every
// layout passes (schemas, dependencies, images, mounts) are in deployment.test.ts; these are the
// scale layout's own. Both scripts also run for real on loopback: the cluster's init script over
// fresh redis-servers, the replica's entrypoint against the run's Postgres.

const run = promisify(execFile);
const layout = loadCompose('docker-compose.yml', 'docker-compose.scale.yml');
const { services } = layout;
const appServices = appServicesOf(layout);
const clusterNodes = Object.keys(services).filter((name) => /^redis-node-\d+$/.test(name));

/** The repository file mounted at `target` in a service. */
function mountedFile(service: ComposeService | undefined, target: string): string {
  const mount = bindMountsOf(service ?? {}).find(([, at]) => at === target);
  if (!mount) throw new Error(`nothing of the repository is mounted at ${target}`);
  return mount[0];
}

/** The `-c name=value` settings of a postgres command line. */
const postgresSettings = (service: ComposeService | undefined) =>
  Object.fromEntries(
    joinCommand(service?.command)
      .split(' -c ')
      .slice(1)
      .map((setting) => setting.split('=') as [string, string]),
  );

describe('docker-compose.scale.yml: the Redis Cluster', () => {
  it('runs six cluster nodes, each with its own volume, persisted and unevicted as the one Redis is', () => {
    expect(clusterNodes).toHaveLength(6);
    for (const name of clusterNodes) {
      const command = joinCommand(services[name]?.command);
      expect(command).toMatch(/^redis-server .*--cluster-enabled yes\b/);
      expect(command).toMatch(/--appendonly yes\b/);
      expect(command).toMatch(/--appendfsync always\b/);
      expect(command).toMatch(/--maxmemory-policy noeviction\b/);
      // Clients are redirected to the name a node announces: its own service name.
      expect(command).toContain(`--cluster-announce-hostname ${name} `);
      expect(command).toMatch(/--cluster-preferred-endpoint-type hostname\b/);
      expect(services[name]?.image).toBe(services.redis?.image);
      expect(services[name]?.volumes).toEqual([`${name}-data:/data`]);
    }
  });

  it('forms the cluster once every node is healthy, three masters with a replica each', () => {
    const init = services['redis-cluster-init'];
    expect(environmentOf(init ?? {}).REDIS_CLUSTER_INIT_NODES?.split(' ')).toEqual(
      clusterNodes.map((name) => `${name}:6379`),
    );
    expect(init?.depends_on).toEqual(
      Object.fromEntries(clusterNodes.map((name) => [name, { condition: 'service_healthy' }])),
    );
    const script = readRepoFile(mountedFile(init, joinCommand(init?.entrypoint).split(' ')[1]!));
    expect(script).toMatch(/redis-cli --cluster create \$addresses --cluster-replicas 1 --cluster-yes/);
  });

  it('points every app and ops at the cluster with three queue shards, once the cluster is formed', () => {
    expect(appServices.map((s) => s.name)).toEqual(expect.arrayContaining(['ops', 'ingest-gateway', 'notifier']));
    for (const { name, app, service } of appServices.filter((s) => s.name !== 'migrate')) {
      const config = configOf(app, service);
      const seeds = config.REDIS_CLUSTER_NODES as { host: string; port: number }[];
      expect(seeds.length, name).toBeGreaterThan(0);
      for (const seed of seeds) expect(clusterNodes, name).toContain(seed.host);
      expect(config.QUEUE_SHARDS, name).toBe(3);
      expect(service.depends_on, name).toMatchObject({
        'redis-cluster-init': { condition: 'service_completed_successfully' },
      });
    }
  });

  it('answers senders only once a replica holds the job (REDIS_DURABILITY=replicated)', () => {
    const gateway = appServices.find((s) => s.app === 'ingest-gateway');
    expect(gateway && configOf(gateway.app, gateway.service).REDIS_DURABILITY).toBe('replicated');
  });

  it('init script: joins six fresh redis-servers into 3 masters and 3 replicas, and leaves a formed cluster as it is', async () => {
    const script = resolve(root, 'deploy/redis/cluster-init.sh');
    const initOver = (addresses: string[]) =>
      run('sh', [script], { env: { ...process.env, REDIS_CLUSTER_INIT_NODES: addresses.join(' ') }, timeout: 60_000 });
    let formedBy = '';
    const cluster = await startRedisCluster({
      form: async (addresses) => {
        formedBy = (await initOver(addresses)).stdout;
      },
    });
    try {
      // startRedisCluster resolved: every node reports cluster_state:ok and its replication up.
      expect(formedBy).toContain('the cluster is formed');
      const { stdout: table } = await run('redis-cli', ['-p', String(cluster.nodes[0]!.port), 'cluster', 'nodes']);
      const roles = table
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[2]!);
      expect(roles.filter((flags) => /\bmaster\b/.test(flags))).toHaveLength(3);
      expect(roles.filter((flags) => /\bslave\b/.test(flags))).toHaveLength(3);
      // A second `docker compose up` runs it again over the formed cluster.
      const again = await initOver(cluster.nodes.map((node) => `127.0.0.1:${node.port}`));
      expect(again.stdout).toContain('the cluster is already formed');
    } finally {
      await cluster.stop();
    }
  }, 90_000);

  it('init script: is valid POSIX sh', async () => {
    await expect(run('sh', ['-n', resolve(root, 'deploy/redis/cluster-init.sh')])).resolves.toBeDefined();
  });
});

describe('docker-compose.scale.yml: the Postgres replica', () => {
  const primary = services.postgres;
  const replica = services['postgres-replica'];

  it('lets the replica replicate from the primary: a replication line in the pg_hba.conf the primary reads, and WAL senders and slots', () => {
    const settings = postgresSettings(primary);
    const hba = readRepoFile(mountedFile(primary, settings.hba_file!));
    expect(hba).toMatch(/^host\s+replication\s+all\s+samenet\s+trust$/m);
    expect(hba).toMatch(/^host\s+all\s+all\s+all\s+trust$/m);
    expect(settings.wal_level).toBe('replica');
    expect(Number(settings.max_wal_senders)).toBeGreaterThan(0);
    expect(Number(settings.max_replication_slots)).toBeGreaterThan(0);
    expect(settings.max_slot_wal_keep_size).toMatch(/^\d+GB$/);
  });

  it('runs the primary’s image as a hot standby made by pg_basebackup -R -X stream -S <slot> -C when its volume is empty', () => {
    expect(replica?.image).toBe(primary?.image);
    expect(replica?.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(replica?.volumes).toContain('postgres-replica-data:/var/lib/postgresql/data');
    expect(environmentOf(replica ?? {})).toMatchObject({ PRIMARY_HOST: 'postgres', REPLICATION_SLOT: 'replica_1' });
    expect(postgresSettings(replica).hot_standby).toBe('on');
    const [shell, target] = joinCommand(replica?.entrypoint).split(' ');
    expect(shell).toBe('bash');
    const script = readRepoFile(mountedFile(replica, target!));
    expect(script).toContain('if [ ! -s "$PGDATA/PG_VERSION" ]; then');
    expect(script).toMatch(/pg_basebackup -h "\$primary_host" .*\\\n\s+-R -X stream -S "\$slot" -C\b/);
    expect(script).toMatch(/^exec docker-entrypoint\.sh "\$@"$/m);
  });

  it("replica entrypoint: copies the run's Postgres into an empty directory under its own slot, and starts the copy as a standby", async () => {
    const replica = await runReplicaEntrypoint();
    try {
      expect(await replica.query('SELECT pg_is_in_recovery() AS standby')).toEqual({ standby: true });
      // The slot turns active once the standby's WAL receiver has connected, a moment after the
      // standby takes queries (CI once read it still inactive).
      const slotRows = async () =>
        (
          await onPrimary((client) =>
            client.query('SELECT active FROM pg_replication_slots WHERE slot_name = $1', [replica.slot]),
          )
        ).rows;
      await expect.poll(slotRows).toEqual([{ active: true }]);
    } finally {
      await replica.stop();
    }
  }, 120_000);

  it('reads what tolerates lag from the replica on the read API and the console only; everything writes to the primary', () => {
    for (const { name, app, service } of appServices) {
      const config = configOf(app, service);
      expect(new URL(String(config.DATABASE_URL)).hostname, name).toBe('postgres');
      const reads = config.READ_DATABASE_URL && new URL(String(config.READ_DATABASE_URL)).hostname;
      expect(reads, name).toBe(app === 'read-api' || app === 'console' ? 'postgres-replica' : undefined);
    }
  });
});

async function onPrimary<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(testEnv.DATABASE_URL);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs deploy/postgres/replica-entrypoint.sh as the container would (as root, PGDATA empty) against
 * the run's Postgres, with two stand-ins for what the image provides: `gosu` (runuser) and the
 * image's `docker-entrypoint.sh`, which here only writes the configuration Debian keeps outside the
 * data directory (a port of its own on loopback) and runs the copy's postgres in the foreground.
 */
async function runReplicaEntrypoint() {
  const dir = await mkdtemp(join(tmpdir(), 'vt-compose-replica-'));
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  await chown(dir, Number(uid), Number(gid));
  const [bin, port] = [join(dir, 'bin'), await freePort()];
  const { stdout: postgresBin } = await run('pg_config', ['--bindir']);
  await mkdir(bin);
  const shims = {
    gosu: '#!/bin/sh\nuser="$1"; shift\nexec runuser -u "$user" -- "$@"\n',
    'docker-entrypoint.sh': [
      '#!/bin/sh',
      'shift # postgres',
      `printf "port = ${port}\\nlisten_addresses = '127.0.0.1'\\nunix_socket_directories = '${dir}'\\n" > "$PGDATA/postgresql.conf"`,
      `printf "local all all trust\\nhost all all 127.0.0.1/32 trust\\n" > "$PGDATA/pg_hba.conf"`,
      'touch "$PGDATA/pg_ident.conf"',
      'chown postgres:postgres "$PGDATA"/*.conf',
      `exec runuser -u postgres -- ${postgresBin.trim()}/postgres -D "$PGDATA" "$@"`,
      '',
    ].join('\n'),
  };
  for (const [name, text] of Object.entries(shims)) {
    await writeFile(join(bin, name), text);
    await chmod(join(bin, name), 0o755);
  }
  const primary = new URL(testEnv.DATABASE_URL);
  const slot = `vt_test_replica_${process.pid}_compose`;
  const child = spawn(
    'bash',
    [resolve(root, 'deploy/postgres/replica-entrypoint.sh'), 'postgres', '-c', 'hot_standby=on'],
    {
      cwd: dir,
      stdio: 'ignore',
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        PGDATA: join(dir, 'data'),
        PRIMARY_HOST: primary.hostname,
        PRIMARY_PORT: primary.port || '5432',
        REPLICATION_SLOT: slot,
      },
    },
  );
  const exited = new Promise((done) => child.once('exit', done));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM: runuser passes it on to postgres (a smart shutdown), SIGINT it keeps for itself.
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
    await onPrimary((client) =>
      client.query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [slot]),
    );
  };
  const query = async (sql: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      return (await client.query(sql)).rows[0] as unknown;
    } finally {
      await client.end();
    }
  };
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`replica-entrypoint.sh exited with ${child.exitCode}`);
      if (
        await query('SELECT 1').then(
          () => true,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error('the replica did not answer in time');
      await new Promise((done) => setTimeout(done, 200));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { slot, query, stop };
}
