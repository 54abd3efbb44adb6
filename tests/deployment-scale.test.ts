import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { startRedisCluster } from '@vt/test-support';
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
// scale layout's own. The cluster's init script runs for real against redis-servers on loopback.

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

  it('replica entrypoint: is valid bash', async () => {
    await expect(run('bash', ['-n', resolve(root, 'deploy/postgres/replica-entrypoint.sh')])).resolves.toBeDefined();
  });

  it('reads what tolerates lag from the replica on the read API and the console only; everything writes to the primary', () => {
    for (const { name, app, service } of appServices) {
      const config = configOf(app, service);
      expect(new URL(String(config.DATABASE_URL)).hostname, name).toBe('postgres');
      const reads = config.READ_DATABASE_URL && new URL(String(config.READ_DATABASE_URL)).hostname;
      expect(reads, name).toBe(app === 'read-api' || app === 'console' ? 'postgres-replica' : undefined);
    }
  });
});
