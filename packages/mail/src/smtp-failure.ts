/** What a failed attempt means for the email, and what the console shows of it. */
export interface SmtpFailure {
  /** The server refused this email for good (a 5xx to its recipient or its content). */
  permanent: boolean;
  /** Short, for last_error: the error's code and the server's reply, never credentials. */
  summary: string;
}

const SUMMARY_MAX = 300;

/**
 * A nodemailer error as a failure of the email. Permanent only when the server answered 5xx to
 * this email's envelope or data: a connection refused, a timeout, a 4xx, and a refused login
 * (the deployment's credentials, not the email's fault, and fixed by the operator) are retried.
 */
export function smtpFailureOf(err: unknown, secrets: readonly string[] = []): SmtpFailure {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown; response?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const permanent = responseCode !== undefined && responseCode >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE');
  const said = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : 'failed';
  let summary = [code, said].filter(Boolean).join(': ').replace(/\s+/g, ' ').trim();
  for (const secret of secrets) if (secret) summary = summary.split(secret).join('[redacted]');
  if (summary.length > SUMMARY_MAX) summary = `${summary.slice(0, SUMMARY_MAX - 1)}…`;
  return { permanent, summary };
}
