import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
  isWellFormedIdempotencyKey,
  OperationError,
} from '@vt/contracts/console';
import type { PrismaClient } from '@vt/db';
import { RecordedAnswer } from '@vt/http-operations';
import type { Logger } from '@vt/logger';
import type { ConsoleOperation } from '../http/console-operation.ts';
import {
  claimIdempotencyKey,
  idempotencyScope,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
  requestFingerprint,
} from './idempotent-requests.ts';

export interface IdempotencyDeps {
  db: PrismaClient;
  now: () => Date;
  logger: Logger;
}

/** The id of what an answer created: its own `id`, or that of its first object field (`{key: {id}}`). */
function createdIdOf(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const record = answer as Record<string, unknown>;
  if (typeof record.id === 'string') return record.id;
  for (const value of Object.values(record)) {
    const id = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).id : undefined;
    if (typeof id === 'string') return id;
  }
  return undefined;
}

const withoutField = (answer: unknown, field: string) => {
  if (typeof answer !== 'object' || answer === null) return answer;
  const { [field]: _secret, ...rest } = answer as Record<string, unknown>;
  return rest;
};

/**
 * The operation with Stripe's Idempotency-Key semantics (docs/console.md, "Retrying a write"):
 * without the header it runs as it is. With it, the key is claimed before the handler runs (a
 * concurrent retry answers 409 IDEMPOTENCY_KEY_IN_USE instead of writing twice); a success is
 * kept, parsed by the response schema, and a retry within 24 hours gets it again with
 * `Idempotent-Replayed: true`; a refusal or a failure lets the key go. A secret shown once is
 * never kept: a retry of such a write answers 409 SECRET_NOT_REPLAYED.
 */
export function idempotentOperation(operation: ConsoleOperation, deps: IdempotencyDeps): ConsoleOperation {
  if (!operation.meta.idempotent || operation.streams) return operation;
  const { shownOnceField } = operation.meta;
  const status = operation.status ?? 200;
  return {
    ...operation,
    handle: async (input) => {
      const { req, session, team } = input;
      const key = req.get(IDEMPOTENCY_KEY_HEADER);
      if (key === undefined || !session) return operation.handle(input);
      if (!isWellFormedIdempotencyKey(key)) {
        throw new OperationError(
          'IDEMPOTENCY_KEY_INVALID',
          `The ${IDEMPOTENCY_KEY_HEADER} header must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters (a UUID is a good one).`,
        );
      }
      const scope = idempotencyScope(session.user.id, team?.teamId);
      const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body);
      const claim = await claimIdempotencyKey(deps.db, scope, key, fingerprint, deps.now());
      if (claim.kind === 'reused') {
        throw new OperationError(
          'IDEMPOTENCY_KEY_REUSED',
          `This ${IDEMPOTENCY_KEY_HEADER} was used in the last 24 hours for another request (method, path or body): use a new key for a new request.`,
        );
      }
      if (claim.kind === 'in_progress') {
        throw new OperationError(
          'IDEMPOTENCY_KEY_IN_USE',
          `The first request with this ${IDEMPOTENCY_KEY_HEADER} has not answered yet: retry shortly with the same key.`,
        );
      }
      if (claim.kind === 'answered') {
        if (shownOnceField) {
          const id = createdIdOf(claim.answer);
          throw new OperationError(
            'SECRET_NOT_REPLAYED',
            `The first request with this ${IDEMPOTENCY_KEY_HEADER} succeeded${id ? ` and created ${id}` : ''}; its answer held a secret shown only once, which is not kept and cannot be shown again. If you did not receive it, revoke what was created and create another with a new key.`,
          );
        }
        return new RecordedAnswer(claim.status, claim.answer ?? undefined, { [IDEMPOTENT_REPLAYED_HEADER]: 'true' });
      }

      let answer: unknown;
      try {
        answer = await operation.handle(input);
      } catch (err) {
        await releaseIdempotencyKey(deps.db, scope, key).catch((releaseErr: unknown) =>
          deps.logger.warn(
            { err: releaseErr },
            'could not release an idempotency key; it answers 409 until it expires',
          ),
        );
        throw err;
      }
      // Parsed here, as the router would, so what is kept is exactly what is sent.
      const body = status === 204 || !operation.response ? undefined : operation.response.parse(answer);
      const kept = shownOnceField ? withoutField(body, shownOnceField) : body;
      // The write is done: a failure to keep its answer must not turn it into an error (the
      // client would retry and meet 409 IDEMPOTENCY_KEY_IN_USE until the key expires, but no
      // second write).
      await recordIdempotentAnswer(deps.db, scope, key, status, kept).catch((err: unknown) =>
        deps.logger.error({ err, operationId: operation.operationId }, 'could not keep an idempotent answer'),
      );
      return new RecordedAnswer(status, body);
    },
  };
}
