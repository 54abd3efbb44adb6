/** A failure the operator can act on; printed as `{error: {code, message}}` with exit code 1. */
export class OpsError extends Error {
  /** Output already went to stdout (an export's CSV): the error goes to stderr, never after it. */
  readonly outputBegun: boolean;

  constructor(
    readonly code: string,
    message: string,
    options: { outputBegun?: boolean } = {},
  ) {
    super(message);
    this.name = 'OpsError';
    this.outputBegun = options.outputBegun ?? false;
  }
}
