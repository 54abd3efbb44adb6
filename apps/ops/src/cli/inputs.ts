import { uuidSchema } from '@vt/contracts/console';
import { addUtcDays, utcDay } from '@vt/db';
import { z } from 'zod';
import type { OpsContext } from './context.ts';
import { OpsError } from './ops-error.ts';

// The ops commands' inputs, validated once by zod with the console's own field schemas, so a
// slug, email or domain is held to one rule wherever it enters.

export {
  accessSchema,
  displayNameSchema,
  domainSchema,
  emailSchema,
  passwordSchema,
  planSchema,
  roleSchema,
  slugSchema,
  termListSchema,
  uuidSchema,
} from '@vt/contracts/console';

/** `--days N`: how many UTC days, ending today, a report covers (30 unless given). */
const daysSchema = z.coerce.number().int().min(1).max(365).default(30);

/** `--property <id>`: the property a command is about. */
const propertyOption = z.object({ property: z.string() });

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
