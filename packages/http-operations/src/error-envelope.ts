import type { Response } from 'express';
import type { FieldProblem } from './refusal.ts';

/** `Extra`: what the family's envelope carries beside the code and message (field problems by default). */
export interface ErrorEnvelopeOptions<Code extends string, Extra = FieldProblem[]> {
  /** Each code's one status. */
  statuses: Record<Code, number>;
  /** The family's documented body for a code and its words. */
  body: (code: Code, message: string, extra: Extra | undefined) => unknown;
  /** The `WWW-Authenticate` challenge a code carries, if any (RFC 9110: every 401 has one). */
  challenge?: (code: Code, status: number) => string | undefined;
}

/** Sends one error of a family: its status from the code, its challenge, its envelope. */
export type ErrorSender<Code extends string, Extra = FieldProblem[]> = (
  res: Response,
  code: Code,
  message: string,
  extra?: Extra,
) => void;

/** The one way every family answers an error; the family gives its statuses and its envelope's shape. */
export function errorEnvelope<Code extends string, Extra = FieldProblem[]>(
  options: ErrorEnvelopeOptions<Code, Extra>,
): ErrorSender<Code, Extra> {
  return (res, code, message, extra) => {
    const status = options.statuses[code];
    const challenge = options.challenge?.(code, status);
    if (challenge !== undefined) res.set('WWW-Authenticate', challenge);
    res.status(status).json(options.body(code, message, extra));
  };
}
