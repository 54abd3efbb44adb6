import { z } from 'zod';

/** The Lead object of the spec, with its maximum lengths: the one source of truth for validation. */
// Postgres text cannot hold NUL: a lead carrying one could be answered but never stored.
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

export const leadPayloadSchema = z.object({
  contact: text(320).pipe(z.string().trim().min(1, 'is required and must not be empty')),
  email: z.email('must be a valid email address').max(320).optional(),
  sessionId: text(128).optional(),
  landingPath: text(2048).optional(),
  referrer: text(2048).optional(),
  utmSource: text(256).optional(),
  utmMedium: text(256).optional(),
});

export type LeadPayload = z.output<typeof leadPayloadSchema>;
const FIELDS = Object.keys(leadPayloadSchema.shape) as (keyof LeadPayload)[];

/** A dropped key that looks like a field under another name, and the field it should have been. */
export interface FieldSuggestion {
  field: string;
  suggestion: keyof LeadPayload;
}

// Other names senders use for a field, compared after lower-casing and removing `_`, `-`, spaces.
const ALIASES: Record<string, keyof LeadPayload> = {
  referer: 'referrer',
  referrerurl: 'referrer',
  refererurl: 'referrer',
  ref: 'referrer',
  landingpage: 'landingPath',
  landingurl: 'landingPath',
  landing: 'landingPath',
  emailaddress: 'email',
  mail: 'email',
  session: 'sessionId',
  source: 'utmSource',
  medium: 'utmMedium',
  name: 'contact',
};
const SUGGESTION_BY_NORMALISED = new Map<string, keyof LeadPayload>([
  ...FIELDS.map((f) => [normalise(f), f] as const),
  ...Object.entries(ALIASES),
]);

function normalise(key: string): string {
  return key.toLowerCase().replace(/[\s_-]/g, '');
}

export type LeadPayloadResult =
  | { ok: true; lead: LeadPayload; ignoredFields: string[]; fieldSuggestions: FieldSuggestion[] }
  | { ok: false; details: { field: string; problem: string }[] };

/**
 * Reads a parsed JSON body as a Lead. Keys other than the fields are dropped and listed; one that
 * looks like a field (`utm_source`, `landing-page`, `Referer`, `e-mail`) is also suggested. Such a
 * key is never taken as the field: only the exact camelCase name is.
 */
export function readLeadPayload(body: unknown): LeadPayloadResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, details: [{ field: '(body)', problem: 'must be a JSON object (a Lead)' }] };
  }
  const known: Record<string, unknown> = {};
  const ignoredFields: string[] = [];
  const fieldSuggestions: FieldSuggestion[] = [];
  for (const [key, value] of Object.entries(body)) {
    if ((FIELDS as string[]).includes(key)) {
      known[key] = value;
      continue;
    }
    ignoredFields.push(key);
    const suggestion = SUGGESTION_BY_NORMALISED.get(normalise(key));
    if (suggestion) fieldSuggestions.push({ field: key, suggestion });
  }
  const parsed = leadPayloadSchema.safeParse(known);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      field: String(issue.path[0] ?? '(body)'),
      problem: issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message,
    }));
    return { ok: false, details };
  }
  // Empty optional strings carry nothing: store them as absent.
  const lead = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== '')) as LeadPayload;
  return { ok: true, lead, ignoredFields, fieldSuggestions };
}
