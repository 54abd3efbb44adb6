import { z } from 'zod';
import '../errors.ts'; // extends zod with .openapi()
import {
  DOMAIN_INPUT_MAX,
  EMAIL_MAX,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  SLUG_MAX,
  SLUG_MIN,
  TERMS_MAX,
  URL_MAX,
} from './limits.ts';
import { weakPasswordReason } from './password-rules.ts';

// The console's input fields, shared by the console's request schemas and the ops CLI, so a slug,
// an email or a domain is checked the same way wherever it enters.

/**
 * Slugs a team may not take: they name, or may one day name, the console's own pages and hosts.
 */
const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'about',
  'account',
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'console',
  'dashboard',
  'docs',
  'help',
  'ingest',
  'login',
  'logout',
  'me',
  'new',
  'settings',
  'sign-in',
  'sign-out',
  'sign-up',
  'signin',
  'signup',
  'static',
  'status',
  'support',
  'team',
  'teams',
  'v1',
  'webhooks',
  'www',
]);

/** Why a slug cannot be used (before asking whether another team has it). */
export type SlugProblem = 'too_short' | 'too_long' | 'invalid_characters' | 'hyphen_at_edge' | 'reserved';
export type SlugUnavailableReason = SlugProblem | 'taken';

const SLUG_PROBLEM_MESSAGES: Record<SlugUnavailableReason, string> = {
  too_short: `must be at least ${SLUG_MIN} characters`,
  too_long: `must be at most ${SLUG_MAX} characters`,
  invalid_characters: 'may hold only lower-case letters a-z, digits and hyphens',
  hyphen_at_edge: 'may not start or end with a hyphen',
  reserved: 'is reserved',
  taken: 'is taken by another team',
};

export const slugProblemMessage = (reason: SlugUnavailableReason) => SLUG_PROBLEM_MESSAGES[reason];

/** The first rule a slug breaks, or null when it is well-formed and not reserved. */
export function slugProblem(slug: string): SlugProblem | null {
  if (slug.length < SLUG_MIN) return 'too_short';
  if (slug.length > SLUG_MAX) return 'too_long';
  if (!/^[a-z0-9-]+$/.test(slug)) return 'invalid_characters';
  if (slug.startsWith('-') || slug.endsWith('-')) return 'hyphen_at_edge';
  if (RESERVED_SLUGS.has(slug)) return 'reserved';
  return null;
}

export const slugSchema = z
  .string()
  .superRefine((slug, ctx) => {
    const problem = slugProblem(slug);
    if (problem) ctx.addIssue({ code: 'custom', message: `slug ${slugProblemMessage(problem)}` });
  })
  .openapi({
    description: `Lower-case letters, digits and hyphens, ${SLUG_MIN}–${SLUG_MAX} characters, not starting or ending with a hyphen, unique, not reserved (api, admin, app, www, …).`,
    example: 'acme-inc',
  });

export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX)
  .pipe(z.email())
  .transform((v) => v.toLowerCase())
  .openapi({ description: 'An email address; compared case-insensitively.', example: 'ada@example.com' });

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`)
  .superRefine((password, ctx) => {
    // A password of the wrong length is told only that.
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return;
    const reason = weakPasswordReason(password);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  })
  .openapi({
    description: `${PASSWORD_MIN}–${PASSWORD_MAX} characters, not one of the ~49,000 most common breached passwords (case and spaces ignored), not one character or short pattern repeated, not a run such as 1234567890.`,
    format: 'password',
  });

/** Said of a name, a term or a prompt that is empty or only spaces (it is trimmed first). */
export const BLANK_MESSAGE = 'must not be blank';

/**
 * A person's, team's, property's, competitor's or key's name: trimmed, so spaces alone are
 * refused as blank rather than stored as a name nobody can see.
 */
export const displayNameSchema = z
  .string()
  .trim()
  .min(1, BLANK_MESSAGE)
  .max(NAME_MAX)
  .openapi({ description: `Trimmed; empty or only spaces is refused. At most ${NAME_MAX} characters.` });

export const roleSchema = z.enum(['owner', 'admin', 'member']).openapi({
  description:
    'owner: everything, roles included; admin: everything but granting or removing owners; member: reads, without tokens, secrets or keys.',
});
export type TeamRole = z.infer<typeof roleSchema>;

export const planSchema = z.enum(['free', 'starter', 'growth', 'scale']).openapi({
  description: 'Only paid plans (starter, growth, scale) ingest crawl activity and appear under /v1.',
});
export const accessSchema = z.enum(['read', 'write']).openapi({
  description: 'Read and Write keys both read /v1 today; Write is reserved for future write endpoints.',
});
export type ApiKeyAccess = z.infer<typeof accessSchema>;
export const uuidSchema = z.uuid();

/**
 * A property's domain as stored: the bare lower-case host, no scheme, port, path or trailing dot,
 * and no leading `www.` (decided: `www.example.com` and `example.com` are one site; every
 * subdomain of the stored domain matches at ingest).
 */
export const domainSchema = z
  .string()
  .max(DOMAIN_INPUT_MAX)
  .transform((raw, ctx) => {
    const text = raw.trim().toLowerCase();
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `https://${text}`;
    let host = '';
    try {
      host = new URL(withScheme).hostname.replace(/\.$/, '');
    } catch {
      // falls through to the check below
    }
    host = host.replace(/^www\./, '');
    if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(host)) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(raw.slice(0, 100))} is not a domain name such as example.com`,
      });
      return z.NEVER;
    }
    return host;
  })
  .openapi({
    type: 'string',
    description: 'The site’s host (example.com); a scheme, path or leading www. is dropped.',
    example: 'example.com',
  });

/** Brand terms, competitor terms, prompt tags: short trimmed words, no duplicates kept. */
export const termListSchema = z
  .array(z.string().trim().min(1, BLANK_MESSAGE).max(NAME_MAX))
  .max(TERMS_MAX)
  .transform((terms) => [...new Set(terms)]);

/** IANA time zone names the runtime knows (Europe/Paris, UTC). */
const timeZoneSchema = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as Europe/Paris');

/** Team-wide preferences the dashboard reads. Replaced whole by PATCH /api/team. */
export const teamSettingsSchema = z
  .strictObject({
    timeZone: timeZoneSchema.optional().openapi({ description: 'Shown times; counts stay in UTC days.' }),
    weekStartsOn: z.enum(['monday', 'sunday']).optional(),
    defaultDayRange: z
      .union([z.literal(7), z.literal(30), z.literal(90)])
      .optional()
      .openapi({ description: 'Days the activity views open with.' }),
  })
  .openapi('TeamSettings');

/** How the dashboard presents the team. Replaced whole by PATCH /api/team. */
export const teamBrandingSchema = z
  .strictObject({
    displayName: displayNameSchema.optional(),
    logoUrl: z
      .url({ protocol: /^https$/, error: 'must be an https URL' })
      .max(URL_MAX)
      .optional(),
    accentColor: z
      .string()
      // Both cases spelled out, not /i: the pattern is also the OpenAPI document's, which has no flags.
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour such as #1a2b3c')
      .optional(),
  })
  .openapi('TeamBranding');
