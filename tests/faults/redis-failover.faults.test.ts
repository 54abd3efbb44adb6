import { shardOfProperty, shardPrefix } from '@vt/queue';
import { keySlot } from '@vt/redis';
import { type RunningRedisCluster, startRedisCluster, testEnv } from '@vt/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  faultEnv,
  faultSuite,
  faultTraffic,
  SHORT,
  sleep,
  startCrawlWorker,
  startGateway,
  startLeadWorker,
  storedFigures,
} from './fault-kit.ts';

// A Redis Cluster of three masters and three replicas on loopback, with the gateways in the
// replicated durability mode: the master holding the traffic's queue shard is SIGKILLed mid-run,
// its replica takes over, and what the retrying senders were answered 2xx must all be stored,
// exactly once.

const SHARDS = 3;
const suite = faultSuite({ ownRedis: false });
const { db, track } = suite;
let cluster: RunningRedisCluster;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  suite.onStop(() => cluster.stop());
}, 60_000);

describe('a Redis Cluster master killed under load', () => {
  it('replicated mode: after the failover the stored counts equal what was acknowledged, exactly', async () => {
    const env = faultEnv(testEnv.REDIS_URL, {
      REDIS_CLUSTER_NODES: cluster.nodesEnv,
      QUEUE_SHARDS: String(SHARDS),
      REDIS_DURABILITY: 'replicated',
      REDIS_WAIT_TIMEOUT_MS: '1000',
    });
    const gateways = await Promise.all([startGateway(env), startGateway(env)]);
    for (const app of gateways) track(app);
    track(await startCrawlWorker(env));
    track(await startLeadWorker(env));

    const traffic = await faultTraffic(db, 'failover', 31);
    const shard = shardOfProperty(traffic.property.id, SHARDS);
    const victimPort = await cluster.masterOf(keySlot(shardPrefix(env.QUEUE_PREFIX, shard, SHARDS)));
    const victim = cluster.nodes.find((node) => node.port === victimPort)!;

    const sending = traffic.send(() => gateways);
    await sleep(SHORT ? 1500 : 3000); // mid-run: batches and leads in flight
    victim.child.kill('SIGKILL');
    // The replica takes over the shard's slots (cluster-node-timeout 2 s). Until a replica of its
    // own is back the shard's enqueues cannot be confirmed, so the gateways answer 503
    // not_replicated and the senders retry; the old master, restarted as an operator would,
    // rejoins as that replica.
    const slot = keySlot(shardPrefix(env.QUEUE_PREFIX, shard, SHARDS));
    let promoted = victimPort;
    for (const deadline = Date.now() + 30_000; promoted === victimPort && Date.now() < deadline; await sleep(250)) {
      promoted = await cluster.masterOf(slot).catch(() => victimPort);
    }
    expect(promoted).not.toBe(victimPort);
    await cluster.restart(victimPort);
    const stats = await sending;
    expect(stats.wrong).toEqual([]);
    // The senders met the failover (5xx or broken connections), and retried until acknowledged.
    expect(Object.keys(stats.answers).some((status) => status === 'network' || status.startsWith('5'))).toBe(true);

    const expected = comparable(traffic.expected);
    const deadline = Date.now() + 90_000;
    while (comparable(await storedFigures(db, traffic.property.id)) !== expected && Date.now() < deadline) {
      await sleep(500);
    }
    await sleep(3000); // then nothing late, nothing twice
    expect(JSON.parse(comparable(await storedFigures(db, traffic.property.id)))).toEqual(JSON.parse(expected));
  }, 300_000);
});

const comparable = (figures: Awaited<ReturnType<typeof storedFigures>>) =>
  JSON.stringify({ ...figures, leadsByPlatform: Object.fromEntries(Object.entries(figures.leadsByPlatform).sort()) });
