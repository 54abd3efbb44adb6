import type { Response } from 'express';

/**
 * An answer written out as it is, past the operation's status and response schema: one already
 * parsed by that schema when it was first given (a replay under an Idempotency-Key) or an answer
 * of the family's own making. The router sends it instead of parsing it again.
 */
export class RecordedAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  send(res: Response): void {
    res.set(this.headers).status(this.status);
    if (this.status === 204 || this.body === undefined || this.body === null) res.end();
    else res.json(this.body);
  }
}
