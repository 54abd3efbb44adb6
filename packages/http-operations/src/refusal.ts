/** A field that failed validation: its dotted path (`settings.timeZone`, `propertyIds.2`) and why. */
export interface FieldProblem {
  /** Empty for the whole input. */
  path: string;
  message: string;
}

/**
 * An answer other than success, thrown by any step of an operation (authentication, validation,
 * the handler itself) and sent by the router in its family's envelope, with the code's status.
 */
export class Refusal<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details?: FieldProblem[],
  ) {
    super(message);
    this.name = 'Refusal';
  }
}
