/** A failure the operator can act on; printed as `{error: {code, message}}` with exit code 1. */
export class OpsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OpsError';
  }
}
