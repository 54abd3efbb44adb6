import { z } from 'zod';

// The lead webhook channel's contract, in one place: the spec's Lead with its maximum lengths (read
// by the gateway, and carried inside the queue's lead job to the lead worker) and the Lead result
// the webhook answers with.

/** The spec's limits of one webhook delivery. */
export const LEAD_WEBHOOK_LIMITS = {
  /** The body, in bytes (64 KB). */
  maxBodyBytes: 64 * 1024,
  /** `x-webhook-id`, in characters. */
  maxEventIdLength: 128,
  /** How far `x-webhook-timestamp` may be from the service's clock, either side. */
  timestampSkewSeconds: 300,
} as const;

/** The spec's field lengths. */
const LEAD_FIELD_CAPS = {
  contact: 320,
  email: 320,
  sessionId: 128,
  landingPath: 2048,
  referrer: 2048,
  utmSource: 256,
  utmMedium: 256,
} as const;

// Postgres text cannot hold NUL: a lead carrying one could be answered but never stored.
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

/** The spec's Lead object: exactly these keys are fields (the webhook drops and lists any other). */
export const leadSchema = z.object({
  contact: text(LEAD_FIELD_CAPS.contact).pipe(z.string().trim().min(1, 'is required and must not be empty')),
  email: z.email('must be a valid email address').max(LEAD_FIELD_CAPS.email).optional(),
  sessionId: text(LEAD_FIELD_CAPS.sessionId).optional(),
  landingPath: text(LEAD_FIELD_CAPS.landingPath).optional(),
  referrer: text(LEAD_FIELD_CAPS.referrer).optional(),
  utmSource: text(LEAD_FIELD_CAPS.utmSource).optional(),
  utmMedium: text(LEAD_FIELD_CAPS.utmMedium).optional(),
});

export type Lead = z.output<typeof leadSchema>;
export type LeadField = keyof Lead;

/** A dropped key that looks like a field under another name, and the field it should have been. */
/** A type, not an interface: a plain JSON object, so it is stored as a JSON column without a cast. */
export type FieldSuggestion = {
  field: string;
  suggestion: LeadField;
};

/** The webhook's 200 body (the spec's Lead result); a type, so the delivery log stores it as JSON without a cast. */
export type LeadResult = {
  leadId: string;
  matched: boolean;
  /** An AI platform id, or `unclassified`. */
  platform: string;
  warnings: string[];
  ignoredFields: string[];
  fieldSuggestions: FieldSuggestion[];
};
