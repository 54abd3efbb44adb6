import type { CurrentTeam } from '@vt/accounts';
import { OperationError } from '@vt/contracts/console';
import type { Response } from 'express';
import type { HandlerDeps } from '../handler-deps.ts';

/**
 * Runs one invitation send within the hourly limits (429 with Retry-After over either), gives the
 * send back when the invitation is refused, and wakes the mail sender once it is stored.
 */
export async function withinInvitationLimit<T extends { emailId: string }>(
  deps: HandlerDeps,
  ctx: { team: CurrentTeam; session: { user: { id: string } }; res: Response },
  send: () => Promise<T>,
): Promise<T> {
  const { limiter } = deps.invitations;
  const { teamId } = ctx.team;
  const actorId = ctx.session.user.id;
  const wait = await limiter.take(teamId, actorId);
  if (wait > 0) {
    ctx.res.set('Retry-After', String(wait));
    throw new OperationError(
      'RATE_LIMIT_EXCEEDED',
      `Too many invitations sent within the hour; the next can go in ${Math.ceil(wait / 60)} min.`,
    );
  }
  let sent: T;
  try {
    sent = await send();
  } catch (err) {
    await limiter.giveBack(teamId, actorId).catch(() => undefined);
    throw err;
  }
  // Stored already: if Redis is away, the notifier's sweep sends it all the same.
  await deps.wakeEmailSender(sent.emailId).catch(() => undefined);
  return sent;
}
