import { createHash } from 'node:crypto';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface SignInLimits {
  failuresPerEmail: number;
  failuresPerClient: number;
  windowSeconds: number;
}

export interface SignInLimiter {
  /** Seconds until this email and client may try again; 0 when they may now. */
  blockedFor(email: string, client: string): Promise<number>;
  /** Counts a failed attempt against both. */
  recordFailure(email: string, client: string): Promise<void>;
  /** A success clears the email's failures (not the client's: one good password does not buy guesses at others). */
  recordSuccess(email: string): Promise<void>;
}

// Counter keys hold a SHA-256 of the email or address, never the address itself.
const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Failed sign-ins counted per email and per client address in Redis, so every console replica
 * shares one count: over either limit within the window, sign-in answers 429 until the window
 * ends, whether the password is right or not. Unknown emails count like known ones, so the limit
 * says nothing about which accounts exist. If Redis is away each replica counts in memory.
 */
export function createSignInLimiter(
  options: { redis: RedisConnection; keyPrefix: string } & SignInLimits,
): SignInLimiter {
  // Each counter is named whole by `counterOf`, under a hash tag of its own (the digest), so on a
  // Redis Cluster the counters spread over the masters rather than crowd the prefix's one slot.
  const limiter = (points: number) =>
    new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: '',
      points,
      duration: options.windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: options.windowSeconds }),
    });
  const byEmail = limiter(options.failuresPerEmail);
  const byClient = limiter(options.failuresPerClient);
  const emailKey = (email: string) => counterOf('sign-in-email', email);
  const clientKey = (client: string) => counterOf('sign-in-client', client);
  const counterOf = (name: string, text: string) => taggedRedisKey(options.keyPrefix, digest(text), name);

  const secondsLeft = async (rl: RateLimiterRedis, key: string, points: number) => {
    const res = await rl.get(key);
    return res && res.consumedPoints >= points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
  };
  const consume = async (rl: RateLimiterRedis, key: string) => {
    try {
      await rl.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection; // over the limit: already counted
    }
  };

  return {
    async blockedFor(email, client) {
      const [a, b] = await Promise.all([
        secondsLeft(byEmail, emailKey(email), options.failuresPerEmail),
        secondsLeft(byClient, clientKey(client), options.failuresPerClient),
      ]);
      return Math.max(a, b);
    },
    async recordFailure(email, client) {
      await Promise.all([consume(byEmail, emailKey(email)), consume(byClient, clientKey(client))]);
    },
    async recordSuccess(email) {
      await byEmail.delete(emailKey(email));
    },
  };
}
