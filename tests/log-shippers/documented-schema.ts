// A small description of a tool's documented configuration, enough to check a recipe for a tool
// these tests cannot run: every key must be one the tool documents, with a value of the documented
// kind (a misspelt key is ignored by some tools and refused by others; either way the recipe breaks).

export type Spec =
  | 'string'
  | 'number'
  | 'boolean'
  | 'any'
  | { enum: readonly (string | number | boolean)[] }
  | { list: Spec }
  | { oneOf: readonly Spec[] }
  | { keys: Record<string, Spec>; required?: readonly string[] };

export const obj = (keys: Record<string, Spec>, required: readonly string[] = []): Spec => ({ keys, required });
export const list = (of: Spec): Spec => ({ list: of });
export const oneOf = (...specs: Spec[]): Spec => ({ oneOf: specs });
export const enumOf = (...values: (string | number | boolean)[]): Spec => ({ enum: values });

/** `${NAME}`: the environment variable every one of these tools substitutes when it loads its config. */
const ENV_REFERENCE = /^\$\{[A-Z_][A-Z0-9_]*\}$/;

/** Each place where `value` departs from `spec`, as `path: problem`; empty when it conforms. */
export function problems(value: unknown, spec: Spec, path = '$'): string[] {
  if (spec === 'any') return [];
  if (spec === 'string') return typeof value === 'string' ? [] : [`${path}: not a string`];
  if (spec === 'number') {
    const ok = typeof value === 'number' || (typeof value === 'string' && ENV_REFERENCE.test(value));
    return ok ? [] : [`${path}: not a number`];
  }
  if (spec === 'boolean') {
    // Fluent Bit and Beats read on/off and yes/no as booleans too.
    const ok = typeof value === 'boolean' || (typeof value === 'string' && /^(on|off|true|false|yes|no)$/i.test(value));
    return ok ? [] : [`${path}: not a boolean`];
  }
  if ('enum' in spec) {
    return spec.enum.includes(value as string) ? [] : [`${path}: ${JSON.stringify(value)} is not one of ${spec.enum}`];
  }
  if ('oneOf' in spec) {
    const each = spec.oneOf.map((s) => problems(value, s, path));
    return each.some((p) => p.length === 0) ? [] : each.flat();
  }
  if ('list' in spec) {
    if (!Array.isArray(value)) return [`${path}: not a list`];
    return value.flatMap((item, i) => problems(item, spec.list, `${path}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: not a map`];
  const found: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const itemSpec = spec.keys[key] ?? spec.keys['*'];
    if (itemSpec === undefined) found.push(`${path}.${key}: not a documented key`);
    else found.push(...problems(item, itemSpec, `${path}.${key}`));
  }
  for (const key of spec.required ?? []) if (!(key in value)) found.push(`${path}.${key}: required, missing`);
  return found;
}

/**
 * A Logstash pipeline file read into sections → plugins → options: `input { beats { port => 5044 } }`
 * gives `{ input: [{ name: 'beats', options: { port: 5044 } }] }`. Values: strings, numbers,
 * booleans, [lists] and { hashes } (string keys, `=>`). Comments run from `#` to the end of a line.
 */
export function parseLogstashPipeline(
  text: string,
): Record<string, { name: string; options: Record<string, unknown> }[]> {
  const tokens = [...text.replace(/#[^\n]*/g, '').matchAll(/"(?:[^"\\]|\\.)*"|=>|[{}[\],]|[^\s{}[\],"]+/g)].map(
    (m) => m[0],
  );
  let at = 0;
  const next = () => {
    const token = tokens[at++];
    if (token === undefined) throw new Error('unexpected end of the pipeline file');
    return token;
  };
  const expect = (wanted: string) => {
    const token = next();
    if (token !== wanted) throw new Error(`expected ${wanted}, found ${token}`);
  };
  const value = (): unknown => {
    const token = next();
    if (token === '[') {
      const items: unknown[] = [];
      while (tokens[at] !== ']') {
        items.push(value());
        if (tokens[at] === ',') at++;
      }
      at++;
      return items;
    }
    if (token === '{') {
      const hash: Record<string, unknown> = {};
      while (tokens[at] !== '}') {
        const key = String(scalar(next()));
        expect('=>');
        hash[key] = value();
        if (tokens[at] === ',') at++;
      }
      at++;
      return hash;
    }
    return scalar(token);
  };
  const sections: Record<string, { name: string; options: Record<string, unknown> }[]> = {};
  while (at < tokens.length) {
    const section = next();
    expect('{');
    const plugins: { name: string; options: Record<string, unknown> }[] = [];
    while (tokens[at] !== '}') {
      const name = next();
      expect('{');
      const options: Record<string, unknown> = {};
      while (tokens[at] !== '}') {
        const key = next();
        expect('=>');
        options[key] = value();
      }
      at++;
      plugins.push({ name, options });
    }
    at++;
    sections[section] = plugins;
  }
  return sections;
}

function scalar(token: string): unknown {
  if (token.startsWith('"')) return JSON.parse(token);
  if (token === 'true' || token === 'false') return token === 'true';
  if (/^-?\d+(\.\d+)?$/.test(token)) return Number(token);
  return token;
}
