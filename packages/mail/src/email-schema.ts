import { z } from 'zod';

/** What an email is about; the console shows it, and metrics are labelled by it. */
export const EMAIL_KINDS = ['invitation', 'alert', 'weekly-report', 'test'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** The limits of one email: well over what the service writes, well under what a row or SMTP server minds. */
export const EMAIL_LIMITS = {
  recipientMax: 320,
  subjectMax: 300,
  textMax: 200_000,
  htmlMax: 1_000_000,
  dedupeKeyMax: 300,
  listUnsubscribeMax: 2000,
} as const;

// Postgres text cannot hold NUL, and a header with a line break would be two headers.
const noNul = (v: string) => !v.includes('\u0000');
const oneLine = (v: string) => !/[\r\n]/.test(v);

/**
 * One email as a producer hands it over: validated before anything is written, so a bad address
 * is refused with a message naming it, never stored to fail later.
 */
export const outgoingEmailSchema = z.strictObject({
  /** The team the email is about (its console list shows it); null for mail of no team. */
  teamId: z.uuid().nullable().default(null),
  kind: z.enum(EMAIL_KINDS),
  to: z.email('must be a valid email address').max(EMAIL_LIMITS.recipientMax),
  subject: z
    .string()
    .min(1)
    .max(EMAIL_LIMITS.subjectMax)
    .refine(oneLine, 'must be one line')
    .refine(noNul, 'must not hold NUL'),
  text: z.string().min(1).max(EMAIL_LIMITS.textMax).refine(noNul, 'must not hold NUL'),
  html: z.string().max(EMAIL_LIMITS.htmlMax).refine(noNul, 'must not hold NUL').optional(),
  /**
   * The producer's own name for this email (`invitation:<id>:1`, `alert:<id>:<state>`): a
   * producer that runs again hands over the same key, and nothing more is stored or sent.
   */
  dedupeKey: z.string().min(1).max(EMAIL_LIMITS.dedupeKeyMax).refine(noNul, 'must not hold NUL'),
  /**
   * RFC 8058 one-click unsubscribe (the weekly report): an http(s) URL that unsubscribes on a POST
   * with no session, sent as `List-Unsubscribe` beside `List-Unsubscribe-Post`. A URL only, never a
   * header of the producer's: nothing else can reach the message's headers.
   */
  listUnsubscribe: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(EMAIL_LIMITS.listUnsubscribeMax)
    .refine((v) => !/[\s<>]/.test(v), 'must hold no spaces or angle brackets')
    .optional(),
});

export type OutgoingEmailInput = z.input<typeof outgoingEmailSchema>;
export type OutgoingEmail = z.output<typeof outgoingEmailSchema>;

/** An email refused before it was stored; `problems` names each field (`to: must be a valid email address`). */
export class InvalidEmailError extends Error {
  override name = 'InvalidEmailError';
  readonly problems: { path: string; message: string }[];

  constructor(error: z.ZodError) {
    const problems = error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
    super(`The email was not queued: ${problems.map((p) => `${p.path || '(email)'}: ${p.message}`).join('; ')}`);
    this.problems = problems;
  }
}
