import { createHash } from 'node:crypto';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { type BackoffCounter, createBackoffCounter } from './backoff-counter.ts';

export interface SignInLimits {
  /** Failures per email and address (or known device) that cost nothing; each further one doubles the wait. */
  freeFailures: number;
  /** The longest wait the doubling reaches. */
  maxBackoffSeconds: number;
  /** Failures per address, whatever the emails, within the window: then that address waits out the window. */
  failuresPerClient: number;
  /** Failures per account from everywhere within the window: then only its known devices may try. */
  failuresPerEmail: number;
  windowSeconds: number;
}

/** One sign-in attempt as the limiter sees it. */
export interface SignInAttempt {
  email: string;
  /** The client's address (req.ip). */
  client: string;
  /** The device token when it is a known device of this email (checked by KnownDevices), else undefined. */
  knownDevice?: string;
  /**
   * A fingerprint of the account's current password (empty for an unknown email or no password):
   * the account's ceiling counts failures against this password, so a reset opens it at once.
   */
  passwordVersion: string;
}

export interface SignInLimiter {
  /** Seconds until this attempt may be made; 0 when it may now. */
  blockedFor(attempt: SignInAttempt): Promise<number>;
  /** Counts a failed attempt: its pair's backoff, its address, its account. */
  recordFailure(attempt: SignInAttempt): Promise<void>;
  /** A success forgets its pair's failures (not the address's, not the account's: one right password buys no guesses at others). */
  recordSuccess(attempt: SignInAttempt): Promise<void>;
  /** Seconds until this address may try anything that tells accounts apart (sign-up); 0 when it may now. */
  clientBlockedFor(client: string): Promise<number>;
  /** Counts an answer that told something about an account (sign-up's EMAIL_TAKEN) as a failure of the address. */
  recordClientFailure(client: string): Promise<void>;
}

/** A pair's failures are forgotten a day after its last one. */
const PAIR_MEMORY_MS = 86_400_000;

// Counter keys hold a SHA-256 of the email, address or device, never the thing itself.
const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
const seconds = (ms: number) => (ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0);

/**
 * Failed sign-ins, counted in Redis so every console replica shares one count, in three ways
 * (issue 33: ten wrong passwords from anywhere used to lock the owner out everywhere):
 * - per email and address (or, from a known device, per email and device): past a few free
 *   failures each one doubles the wait, up to a cap. This slows a guesser at one account and
 *   does not touch the owner elsewhere;
 * - per address over all emails in a window: a sprayer or an enumerator from one place stops;
 * - per account over all addresses in a window (a ceiling): a guesser spread over many addresses
 *   stops too, and while the account is over it only its known devices may try; an operator's
 *   password reset opens it at once (the ceiling counts against the password it was set with).
 * Unknown emails count like known ones, so nothing here tells which accounts exist.
 */
export function createSignInLimiter(
  options: { redis: RedisConnection; keyPrefix: string; now?: () => number } & SignInLimits,
): SignInLimiter {
  // Each counter is named whole by `counterOf`, under a hash tag of its own (the digest), so on a
  // Redis Cluster the counters spread over the masters rather than crowd the prefix's one slot.
  const counterOf = (name: string, text: string) => taggedRedisKey(options.keyPrefix, digest(text), name);
  const windowed = (points: number) =>
    new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: '',
      points,
      duration: options.windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: options.windowSeconds }),
    });
  const byClient = windowed(options.failuresPerClient);
  const byAccount = windowed(options.failuresPerEmail);
  const pairs: BackoffCounter = createBackoffCounter({
    redis: options.redis,
    settings: { free: options.freeFailures, maxWaitMs: options.maxBackoffSeconds * 1000, memoryMs: PAIR_MEMORY_MS },
    ...(options.now ? { now: options.now } : {}),
  });

  const clientKey = (client: string) => counterOf('sign-in-client', client);
  const accountKey = (a: SignInAttempt) => counterOf('sign-in-account', `${a.email}\n${a.passwordVersion}`);
  const pairKey = (a: SignInAttempt) =>
    counterOf('sign-in-pair', a.knownDevice ? `${a.email}\ndevice\n${a.knownDevice}` : `${a.email}\nip\n${a.client}`);

  const secondsOver = async (rl: RateLimiterRedis, key: string, points: number) => {
    const res = await rl.get(key);
    return res && res.consumedPoints >= points ? seconds(res.msBeforeNext) : 0;
  };
  const consume = async (rl: RateLimiterRedis, key: string) => {
    try {
      await rl.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection; // over the limit: already counted
    }
  };
  const clientBlockedFor = (client: string) => secondsOver(byClient, clientKey(client), options.failuresPerClient);

  return {
    async blockedFor(attempt) {
      const waits = await Promise.all([
        pairs.waitFor(pairKey(attempt)).then(seconds),
        // A known device is the owner's own browser: neither a busy shared address nor a
        // distributed attack on the account keeps it out (its own pair's backoff still holds).
        attempt.knownDevice ? 0 : clientBlockedFor(attempt.client),
        attempt.knownDevice ? 0 : secondsOver(byAccount, accountKey(attempt), options.failuresPerEmail),
      ]);
      return Math.max(...waits);
    },
    async recordFailure(attempt) {
      await Promise.all([
        pairs.fail(pairKey(attempt)),
        consume(byClient, clientKey(attempt.client)),
        consume(byAccount, accountKey(attempt)),
      ]);
    },
    async recordSuccess(attempt) {
      await pairs.clear(pairKey(attempt));
    },
    clientBlockedFor,
    async recordClientFailure(client) {
      await consume(byClient, clientKey(client));
    },
  };
}
