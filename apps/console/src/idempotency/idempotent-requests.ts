import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_TTL_MS } from '@vt/contracts/console';
import { Prisma, type PrismaClient } from '@vt/db';

/** What a key's row says about a request made under it. */
export type IdempotencyClaim =
  /** The key is new (or its earlier use expired): this request runs, and its row is held for it. */
  | { kind: 'claimed' }
  /** The first request with the key answered this; a retry gets it again. */
  | { kind: 'answered'; status: number; answer: unknown }
  /** The first request with the key is still running (or died without an answer). */
  | { kind: 'in_progress' }
  /** The key was used for another request. */
  | { kind: 'reused' };

/** `<user id>:<team id or ->`: keys are one person's within one team. */
export const idempotencyScope = (userId: string, teamId: string | undefined) => `${userId}:${teamId ?? '-'}`;

/**
 * What a request asks, hashed: method, path (query included) and body as JSON. Two retries of one
 * write send the same; a body with one field changed is another request.
 */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * Claims `key` for a request, insert first: the row is written, marked running, before the
 * request's effect, so a concurrent retry finds it and is told the first is running (409) rather
 * than running the write twice. Rows of the scope older than 24 hours are deleted first: an
 * expired key is a new key (and the table does not grow with what nobody can replay).
 */
export async function claimIdempotencyKey(
  db: PrismaClient,
  scope: string,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<IdempotencyClaim> {
  const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
  await db.idempotentRequest.deleteMany({ where: { scope, createdAt: { lt: expiredBefore } } });
  const inserted = await db.$executeRaw`
    INSERT INTO idempotent_requests (scope, key, fingerprint, created_at)
    VALUES (${scope}, ${key}, ${fingerprint}, ${now})
    ON CONFLICT (scope, key) DO NOTHING`;
  if (inserted === 1) return { kind: 'claimed' };
  const row = await db.idempotentRequest.findUnique({ where: { scope_key: { scope, key } } });
  // Gone between the insert and the read: the first request failed and let the key go just now.
  if (!row) return { kind: 'in_progress' };
  if (row.fingerprint !== fingerprint) return { kind: 'reused' };
  if (row.status === null) return { kind: 'in_progress' };
  return { kind: 'answered', status: row.status, answer: row.answer };
}

/** Keeps the first answer under the key (its body as JSON; null for a 204). */
export async function recordIdempotentAnswer(
  db: PrismaClient,
  scope: string,
  key: string,
  status: number,
  answer: unknown,
): Promise<void> {
  await db.idempotentRequest.update({
    where: { scope_key: { scope, key } },
    data: {
      status,
      answer: answer === undefined || answer === null ? Prisma.JsonNull : (answer as Prisma.InputJsonValue),
    },
  });
}

/**
 * Lets the key go after a refusal or a failure (nothing was done, or Postgres rolled it back): a
 * retry under it runs the request again, as Stripe does for requests that did not complete.
 */
export async function releaseIdempotencyKey(db: PrismaClient, scope: string, key: string): Promise<void> {
  await db.idempotentRequest.deleteMany({ where: { scope, key, status: null } });
}
