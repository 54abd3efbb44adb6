import { addUtcDays, utcDay } from '@vt/db';
import { z } from 'zod';
import type { OpsContext } from './context.ts';
import { OpsError } from './ops-error.ts';

// The ops commands' inputs, validated once by zod; the same schemas type the command functions.

export const slugSchema = z
  .string()
  .min(3)
  .max(48)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters, digits and single hyphens');

export const emailSchema = z
  .email()
  .max(320)
  .transform((v) => v.toLowerCase());

/**
 * A property's domain as stored: the bare lower-case host, no scheme, port, path or trailing dot,
 * and no leading `www.` (decided: `www.example.com` and `example.com` are one site; every
 * subdomain of the stored domain matches at ingest).
 */
export const domainSchema = z.string().transform((raw, ctx) => {
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
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(raw)} is not a domain name such as example.com` });
    return z.NEVER;
  }
  return host;
});

export const planSchema = z.enum(['free', 'starter', 'growth', 'scale']);
export const roleSchema = z.enum(['owner', 'admin', 'member']);
export const accessSchema = z.enum(['read', 'write']);
export const uuidSchema = z.uuid();

/** `--days N`: how many UTC days, ending today, a report covers (30 unless given). */
const daysSchema = z.coerce.number().int().min(1).max(365).default(30);

/** `--property <id>`: the property a command is about. */
export const propertyOption = z.object({ property: z.string() });

/** `--property <id> [--days N]`: a property's report over the last N UTC days. */
const propertyDaysOptions = propertyOption.extend({ days: daysSchema });

/** The first and last UTC day of the `days` days ending today. */
function lastUtcDays(days: number): { from: Date; to: Date } {
  const to = utcDay(new Date());
  return { from: addUtcDays(to, -(days - 1)), to };
}

/** Parse command options; a bad one fails with the option's flag in the message. */
export function parseOptions<S extends z.ZodType>(schema: S, options: unknown): z.output<S> {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const flag = issue.path.length
      ? `--${String(issue.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
      : 'input';
    return `${flag}: ${issue.message}`;
  });
  throw new OpsError('invalid_argument', problems.join('; '));
}

/** The property a `--property <id>` names; an id that is not a uuid is simply not found. */
export async function findProperty({ db }: Pick<OpsContext, 'db'>, id: string) {
  const parsed = uuidSchema.safeParse(id);
  const property = parsed.success ? await db.property.findUnique({ where: { id: parsed.data } }) : null;
  if (!property) throw new OpsError('property_not_found', `no property with id ${id}`);
  return property;
}

/** Parses `--property <id>`: the property it names. */
export async function propertyFromOptions(ctx: Pick<OpsContext, 'db'>, options: unknown) {
  return findProperty(ctx, parseOptions(propertyOption, options).property);
}

/** Parses `--property <id> [--days N]`: the property, and the first and last UTC day of the report. */
export async function propertyAndDays(ctx: Pick<OpsContext, 'db'>, options: unknown) {
  const input = parseOptions(propertyDaysOptions, options);
  const property = await findProperty(ctx, input.property);
  return { property, ...lastUtcDays(input.days) };
}
