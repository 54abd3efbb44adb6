import { z } from 'zod';

/** The request header a console POST may carry so that a retry of it takes effect once. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set (to `true`) on an answer that repeats the first answer to the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** Stripe's limit. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a key's first answer is kept and replayed: Stripe's 24 hours. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** Printable ASCII, no spaces at the ends: what a header carries without surprises. */
const KEY_SHAPE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function isWellFormedIdempotencyKey(key: string): boolean {
  return key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && KEY_SHAPE.test(key);
}

export const idempotencyKeyParameter = z
  .string()
  .max(IDEMPOTENCY_KEY_MAX_LENGTH)
  .optional()
  .openapi({
    param: {
      name: IDEMPOTENCY_KEY_HEADER,
      in: 'header',
      description: [
        'Your own unique value (a UUID) for this write, sent again unchanged on a retry: for 24 hours a retry answers the first answer (status and body) with `Idempotent-Replayed: true` and does nothing again. At most 255 printable ASCII characters (400 IDEMPOTENCY_KEY_INVALID otherwise).',
        'The same key with another method, path or body: 422 IDEMPOTENCY_KEY_REUSED. While the first request with the key is still running: 409 IDEMPOTENCY_KEY_IN_USE (retry shortly). Only successes are kept: after a refusal or a failure the same key runs the request again.',
        'A key belongs to the signed-in person in the current team. An answer holding a secret shown only once (a new API key) is not replayed: the retry answers 409 SECRET_NOT_REPLAYED naming what was created.',
      ].join('\n\n'),
    },
  });
