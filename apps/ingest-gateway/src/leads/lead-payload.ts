import { type FieldSuggestion, type Lead, type LeadField, leadSchema } from '@vt/contracts';

const FIELDS = Object.keys(leadSchema.shape) as LeadField[];

// Other names senders use for a field, compared after lower-casing and removing `_`, `-`, spaces.
const ALIASES: Record<string, LeadField> = {
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
const SUGGESTION_BY_NORMALISED = new Map<string, LeadField>([
  ...FIELDS.map((f) => [normalise(f), f] as const),
  ...Object.entries(ALIASES),
]);

function normalise(key: string): string {
  return key.toLowerCase().replace(/[\s_-]/g, '');
}

export type LeadPayloadResult =
  | { ok: true; lead: Lead; ignoredFields: string[]; fieldSuggestions: FieldSuggestion[] }
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
  const parsed = leadSchema.safeParse(known);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      field: String(issue.path[0] ?? '(body)'),
      problem: issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message,
    }));
    return { ok: false, details };
  }
  // Empty optional strings carry nothing: store them as absent.
  const lead = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== '')) as Lead;
  return { ok: true, lead, ignoredFields, fieldSuggestions };
}
