import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';

const run = promisify(execFile);

/** One redis-server of a cluster this test started, on a loopback port. */
export interface ClusterNodeProcess {
  port: number;
  child: ChildProcess;
}

export interface RunningRedisCluster {
  /** Every node, masters first as created (`redis-cli --cluster create` makes the first N masters). */
  nodes: ClusterNodeProcess[];
  /** `127.0.0.1:port,…` of every node: the value of REDIS_CLUSTER_NODES. */
  nodesEnv: string;
  /** `host:port` seed list for ioredis, as the config parses REDIS_CLUSTER_NODES. */
  seeds: { host: string; port: number }[];
  /**
   * Starts a node that was killed again, on its port and with its cluster config: it rejoins, as
   * a replica of whoever took over its slots.
   */
  restart(port: number): Promise<void>;
  /** The port of the master that serves `slot` now (after a failover, the promoted replica). */
  masterOf(slot: number): Promise<number>;
  /** Ends every node and removes its files. */
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster on loopback: `masters` masters with `replicasPerMaster` replicas each, from
 * `redis-server --cluster-enabled yes` in a temp dir, joined by `redis-cli --cluster create`, and
 * resolved once every node reports `cluster_state:ok`. For the cluster tests and the fault
 * suite's failover (SIGKILL a node's `child`).
 */
export async function startRedisCluster(
  options: {
    masters?: number;
    replicasPerMaster?: number;
    /**
     * Joins the started nodes (`127.0.0.1:port` each, in order) into the cluster instead of the
     * harness's own `redis-cli --cluster create`: the compose file's init script is tried this way.
     */
    form?: (addresses: string[]) => Promise<void>;
  } = {},
): Promise<RunningRedisCluster> {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 1;
  const dir = await mkdtemp(join(tmpdir(), 'vt-redis-cluster-'));
  const nodes: ClusterNodeProcess[] = [];
  const spawnNode = (port: number) =>
    spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'],
        ...['--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '2000'],
        ...['--dir', dir, '--dbfilename', `dump-${port}.rdb`, '--save', '', '--appendonly', 'no'],
      ],
      { stdio: 'ignore' },
    );
  const stop = async () => {
    await Promise.all(nodes.map((node) => stopNode(node.child)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * (1 + replicasPerMaster); i += 1) {
      const port = await freePort();
      nodes.push({ port, child: spawnNode(port) });
    }
    for (const node of nodes) await waitForPing(node.port);
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    if (options.form) await options.form(addresses);
    else
      await run('redis-cli', [
        '--cluster',
        'create',
        ...addresses,
        '--cluster-replicas',
        String(replicasPerMaster),
        '--cluster-yes',
      ]);
    for (const node of nodes) await waitForClusterOk(node.port);
    // The cluster answers before its replicas finished their first sync; a WAIT would count none.
    for (const node of nodes) {
      await waitFor(async () => {
        const info = await redisCli(node.port, 'info', 'replication');
        return /role:slave/.test(info)
          ? /master_link_status:up/.test(info)
          : new RegExp(`connected_slaves:${replicasPerMaster}\\b`).test(info);
      });
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    nodes,
    nodesEnv: nodes.map((node) => `127.0.0.1:${node.port}`).join(','),
    seeds: nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
    async restart(port) {
      const node = nodes.find((n) => n.port === port);
      if (!node) throw new Error(`no node on port ${port}`);
      node.child = spawnNode(port);
      await waitForPing(port);
    },
    async masterOf(slot) {
      for (const node of nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null)) {
        const table = await redisCli(node.port, 'cluster', 'nodes').catch(() => '');
        // CLUSTER NODES: id ip:port@bus flags master-id ping pong epoch link slot-ranges…
        for (const line of table.trim().split('\n')) {
          const [, address, flags, , , , , link, ...ranges] = line.split(' ');
          if (!flags?.includes('master') || flags.includes('fail') || link !== 'connected') continue;
          const owns = ranges.some((range) => {
            const [from, to = from] = range.split('-').map(Number);
            return slot >= from! && slot <= to!;
          });
          if (owns) return Number(address!.split('@')[0]!.split(':')[1]);
        }
      }
      throw new Error(`no master found for slot ${slot}`);
    },
    stop,
  };
}

/**
 * One standalone redis-server of its own on loopback, without persistence: for a benchmark whose
 * Redis figures (INFO's CPU and command counts) must hold its own traffic only, not a shared Redis's.
 */
export async function startRedis(): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'vt-redis-'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    await stopNode(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPing(port);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}

/** A standalone master and one replica of it (`--replicaof`), for the replicated durability mode. */
export async function startRedisWithReplica(): Promise<{ masterUrl: string; stop: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'vt-redis-replica-'));
  const [masterPort, replicaPort] = [await freePort(), await freePort()];
  const common = ['--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  const master = spawn('redis-server', ['--port', String(masterPort), ...common, '--dbfilename', 'm.rdb'], {
    stdio: 'ignore',
  });
  const replica = spawn(
    'redis-server',
    ['--port', String(replicaPort), ...common, '--dbfilename', 'r.rdb', '--replicaof', '127.0.0.1', String(masterPort)],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    await Promise.all([stopNode(master), stopNode(replica)]);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPing(masterPort);
    await waitFor(async () => /master_link_status:up/.test(await redisCli(replicaPort, 'info', 'replication')));
  } catch (err) {
    await stop();
    throw err;
  }
  return { masterUrl: `redis://127.0.0.1:${masterPort}`, stop };
}

async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-p', String(port), ...args], { timeout: 5000 });
  return stdout;
}

const waitForPing = (port: number) => waitFor(async () => (await redisCli(port, 'ping')).trim() === 'PONG');
const waitForClusterOk = (port: number) =>
  waitFor(async () => /cluster_state:ok/.test(await redisCli(port, 'cluster', 'info')));

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error('redis did not come up in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopNode(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
