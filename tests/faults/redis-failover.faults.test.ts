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

/** SIGKILLs the master of the traffic's shard mid-run, waits for its replica to take over, restarts it. */
async function killShardMaster(prefix: string, propertyId: string, sending: Promise<unknown>) {
  const slot = keySlot(shardPrefix(prefix, shardOfProperty(propertyId, SHARDS), SHARDS));
  const victimPort = await cluster.masterOf(slot);
  await sleep(SHORT ? 1500 : 3000); // mid-run: batches and leads in flight
  cluster.nodes.find((node) => node.port === victimPort)!.child.kill('SIGKILL');
  let promoted = victimPort;
  for (const deadline = Date.now() + 30_000; promoted === victimPort && Date.now() < deadline; await sleep(250)) {
    promoted = await cluster.masterOf(slot).catch(() => victimPort);
  }
  expect(promoted).not.toBe(victimPort);
  await cluster.restart(victimPort);
  return sending;
}

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
    // Until the shard's master has a replica again its enqueues cannot be confirmed: the gateways
    // answer 503 not_replicated and the senders retry; the old master, restarted as an operator
    // would, rejoins as that replica.
    const stats = (await killShardMaster(
      env.QUEUE_PREFIX,
      traffic.property.id,
      traffic.send(() => gateways),
    )) as Awaited<ReturnType<typeof traffic.send>>;
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

  it('fast mode: nothing is counted twice, and what the failover lost is stated', async ({ annotate }) => {
    const env = faultEnv(testEnv.REDIS_URL, {
      REDIS_CLUSTER_NODES: cluster.nodesEnv,
      QUEUE_SHARDS: String(SHARDS),
      REDIS_DURABILITY: 'fast',
    });
    const gateways = await Promise.all([startGateway(env), startGateway(env)]);
    for (const app of gateways) track(app);
    track(await startCrawlWorker(env));
    track(await startLeadWorker(env));
    const traffic = await faultTraffic(db, 'failover-fast', 32);
    const stats = (await killShardMaster(
      env.QUEUE_PREFIX,
      traffic.property.id,
      traffic.send(() => gateways),
    )) as Awaited<ReturnType<typeof traffic.send>>;
    expect(stats.wrong).toEqual([]);

    // Settled: the figures unchanged over 3 s, after the workers had time for every job left.
    let before = '';
    let now = comparable(await storedFigures(db, traffic.property.id));
    for (const deadline = Date.now() + 90_000; now !== before && Date.now() < deadline; ) {
      before = now;
      await sleep(3000);
      now = comparable(await storedFigures(db, traffic.property.id));
    }
    const stored = await storedFigures(db, traffic.property.id);
    // Every delivery was acknowledged in the end: what is missing was lost after its 2xx.
    const lost = { gptHits: traffic.expected.gptHits - stored.gptHits, leads: traffic.expected.leads - stored.leads };
    const statement = `fast mode, shard master SIGKILLed: lost ${lost.gptHits} of ${traffic.expected.gptHits} GPTBot hits and ${lost.leads} of ${traffic.expected.leads} leads after their 2xx`;
    console.info(statement); // in the run's output as well as the report
    await annotate(statement);
    expect(lost.gptHits).toBeGreaterThanOrEqual(0); // never more than was sent: nothing twice
    expect(lost.leads).toBeGreaterThanOrEqual(0);
    for (const [platform, leads] of Object.entries(stored.leadsByPlatform)) {
      expect(leads).toBeLessThanOrEqual(traffic.expected.leadsByPlatform[platform] ?? 0);
    }
  }, 300_000);
});

const comparable = (figures: Awaited<ReturnType<typeof storedFigures>>) =>
  JSON.stringify({ ...figures, leadsByPlatform: Object.fromEntries(Object.entries(figures.leadsByPlatform).sort()) });
