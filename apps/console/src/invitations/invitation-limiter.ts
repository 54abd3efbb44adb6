import { INVITATION_LIMIT } from '@vt/contracts/console';
import { type RedisConnection, redisKey } from '@vt/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface InvitationLimits {
  perTeam: number;
  perActor: number;
  windowSeconds: number;
}

export interface InvitationLimiter {
  /**
   * Takes one send for this team and person: 0 when taken, else the seconds until one may be
   * (nothing counted then). Taken before the invitation is written, so two requests at once
   * cannot both slip under the limit.
   */
  take(teamId: string, actorId: string): Promise<number>;
  /** Gives a taken send back: the invitation was refused (already a member, a role not theirs to give). */
  giveBack(teamId: string, actorId: string): Promise<void>;
}

/**
 * Invitation emails counted per team and per person in Redis, so every console replica shares
 * one count (an in-memory count per replica while Redis is away). Each send is an email to
 * someone who did not ask for it: the limit keeps a careless or stolen account from making the
 * deployment a spam relay.
 */
export function createInvitationLimiter(
  options: { redis: RedisConnection; keyPrefix: string } & Partial<InvitationLimits>,
): InvitationLimiter {
  const windowSeconds = options.windowSeconds ?? INVITATION_LIMIT.windowSeconds;
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: redisKey(options.keyPrefix, name),
      points,
      duration: windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: windowSeconds }),
    });
  const byTeam = limiter('invitations-team', options.perTeam ?? INVITATION_LIMIT.perTeam);
  const byActor = limiter('invitations-actor', options.perActor ?? INVITATION_LIMIT.perActor);

  /** 0 when the point was taken; the seconds to wait when over the limit. */
  const attempt = async (rl: RateLimiterRedis, key: string) => {
    try {
      await rl.consume(key);
      return 0;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    }
  };

  return {
    async take(teamId, actorId) {
      const teamWait = await attempt(byTeam, teamId);
      if (teamWait > 0) return teamWait;
      const actorWait = await attempt(byActor, actorId);
      if (actorWait > 0) await byTeam.reward(teamId, 1);
      return actorWait;
    },
    async giveBack(teamId, actorId) {
      await Promise.all([byTeam.reward(teamId, 1), byActor.reward(actorId, 1)]);
    },
  };
}
