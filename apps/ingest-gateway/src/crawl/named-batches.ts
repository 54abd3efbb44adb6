import { randomUUID } from 'node:crypto';
import { nameBasedUuid } from '@vt/credentials';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';

/** The figures a named batch was accepted with, which every repeat is answered with. */
export interface NamedBatchFigures {
  kept: number;
  received: number;
}

/** What claiming a batch's Idempotency-Key found. */
export type NamedBatchClaim =
  /** This attempt is the first: read the body, enqueue, then `settle` (or `release` on a refusal). */
  | { kind: 'first'; settle: (figures: NamedBatchFigures) => Promise<void>; release: () => Promise<void> }
  /** An earlier attempt was accepted with these figures: answer them, write nothing. */
  | { kind: 'repeat'; figures: NamedBatchFigures }
  /** Another attempt is still being read and did not finish while this one waited. */
  | { kind: 'in_progress' };

export interface NamedBatchOptions {
  /** How long an accepted batch's key is remembered: repeats within it are recognised. */
  rememberSeconds: number;
  /**
   * How long a claim in progress holds the key unrenewed. The attempt renews it every third of
   * this while it reads and enqueues, so it lapses only when its gateway died (or lost Redis):
   * then, within this time, a retry may take the key over.
   */
  pendingSeconds: number;
  /** How long an overlapping attempt waits for the first one's answer before `in_progress`. */
  waitMs: number;
}

export const NAMED_BATCH_DEFAULTS: NamedBatchOptions = {
  rememberSeconds: 24 * 3600,
  pendingSeconds: 15,
  waitMs: 10_000,
};

const PENDING = 'pending:';
const POLL_MS = 50;

// Both act only while the key still holds this attempt's own pending claim, never on a claim that
// lapsed and was taken over: release frees the name for a corrected retry, renew keeps it held.
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const RENEW_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('EXPIRE', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * Claims a named crawl batch's Idempotency-Key before its body is read, in one atomic Redis
 * command (`SET NX GET`), on whichever gateway replica the attempt reaches. This closes the three
 * holes the spec's idempotency rule 4 admits for a lookup in the delivery log:
 *  - two identical attempts that overlap: the second finds the first's pending claim and waits for
 *    its answer (then repeats its figures), or, past `waitMs`, is told to retry;
 *  - a crash after enqueue but before the answer: the pending claim, no longer renewed, lapses
 *    within `pendingSeconds` and the retry enqueues the same job ids (`namedBatchId` and each chunk's index), which
 *    BullMQ and the crawl worker's processed-job markers apply once each, so the claim and the jobs are one outcome;
 *  - a key whose delivery-log row aged out of the newest 50: keys are remembered for
 *    `rememberSeconds` (24 h) whatever the log holds.
 */
export async function claimNamedBatch(
  redis: RedisConnection,
  keyPrefix: string,
  propertyId: string,
  idempotencyKey: string,
  options: NamedBatchOptions = NAMED_BATCH_DEFAULTS,
): Promise<NamedBatchClaim> {
  const key = namedBatchKey(keyPrefix, propertyId, idempotencyKey);
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const mine = `${PENDING}${randomUUID()}`;
    const found = (await redis.call('SET', key, mine, 'EX', String(options.pendingSeconds), 'NX', 'GET')) as
      | string
      | null;
    if (found === null) {
      const renew = setInterval(
        () => void redis.eval(RENEW_SCRIPT, 1, key, mine, String(options.pendingSeconds)).catch(() => {}),
        (options.pendingSeconds * 1000) / 3,
      );
      renew.unref();
      return {
        kind: 'first',
        settle: async (figures) => {
          clearInterval(renew);
          await redis.set(key, JSON.stringify(figures), 'EX', options.rememberSeconds);
        },
        release: async () => {
          clearInterval(renew);
          await redis.eval(RELEASE_SCRIPT, 1, key, mine);
        },
      };
    }
    if (!found.startsWith(PENDING)) return { kind: 'repeat', figures: JSON.parse(found) as NamedBatchFigures };
    // Another attempt holds the key: wait for its answer (or for it to give the key up).
    if (Date.now() >= deadline) return { kind: 'in_progress' };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Where a named batch's claim lives. Hashed, so a 200-character key of any bytes makes a short,
 * safe Redis key. Not under `crawl-batch:`: that is the crawl queue's own namespace, where the
 * same id names the batch's job. The id is its own hash tag, so on a Redis Cluster the claims
 * spread over the masters (and the key still names neither the property nor the key in clear).
 */
export const namedBatchKey = (keyPrefix: string, propertyId: string, idempotencyKey: string) =>
  taggedRedisKey(keyPrefix, namedBatchId(propertyId, idempotencyKey), 'named-batch');

/**
 * A named batch's id, the same on every attempt that carries its Idempotency-Key, on any replica:
 * its claim's Redis key, and what its chunks' job ids (which BullMQ dedupes) and processed_jobs
 * markers (which the crawl worker applies once, kept 14 days) are made of (`crawlBatchChunkId`).
 */
export const namedBatchId = (propertyId: string, idempotencyKey: string) =>
  nameBasedUuid(`crawl-batch:${propertyId}:${idempotencyKey}`);
