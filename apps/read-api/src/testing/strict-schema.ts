import { expect } from 'vitest';
import { z } from 'zod';

/**
 * A strict copy of a contracts schema: no key beyond the schema's, at any depth (the published
 * schemas strip unknown keys, which would hide an extra field).
 */
export function strictDeep(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, strictDeep(v)]),
    );
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodArray) return z.array(strictDeep(schema.element as z.ZodType));
  if (schema instanceof z.ZodNullable) return strictDeep(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return strictDeep(schema.unwrap() as z.ZodType).optional();
  return schema;
}

export function expectRowsMatch(schema: z.ZodType, rows: unknown[]) {
  const strict = strictDeep(schema);
  for (const row of rows) {
    const parsed = strict.safeParse(row);
    expect(parsed.success, `${JSON.stringify(row)}: ${parsed.error?.message}`).toBe(true);
  }
}
