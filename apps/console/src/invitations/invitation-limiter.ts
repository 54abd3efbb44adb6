import { INVITATION_LIMIT } from '@vt/contracts/console';
import { type RedisConnection, taggedRedisKey } from '@vt/redis';
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
  // Each counter is named whole by `invitationCounterKey`, under a hash tag of its own (the team's
  // or the person's id), so on a Redis Cluster the counters spread over the masters rather than
  // crowd the prefix's one slot.
  const limiter = (points: number) =>
    new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: '',
      points,
      duration: windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: windowSeconds }),
    });
  const byTeam = limiter(options.perTeam ?? INVITATION_LIMIT.perTeam);
  const byActor = limiter(options.perActor ?? INVITATION_LIMIT.perActor);
  const teamKey = (teamId: string) => invitationCounterKey(options.keyPrefix, 'team', teamId);
  const actorKey = (actorId: string) => invitationCounterKey(options.keyPrefix, 'actor', actorId);

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
      const teamWait = await attempt(byTeam, teamKey(teamId));
      if (teamWait > 0) return teamWait;
      const actorWait = await attempt(byActor, actorKey(actorId));
      if (actorWait > 0) await byTeam.reward(teamKey(teamId), 1);
      return actorWait;
    },
    async giveBack(teamId, actorId) {
      await Promise.all([byTeam.reward(teamKey(teamId), 1), byActor.reward(actorKey(actorId), 1)]);
    },
  };
}

/** The Redis key of a team's or a person's invitation count, under that id's own hash tag. */
export function invitationCounterKey(prefix: string, counter: 'team' | 'actor', id: string): string {
  return taggedRedisKey(prefix, id, `invitations-${counter}`);
}
