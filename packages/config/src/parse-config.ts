import { z } from 'zod';

/** Thrown when the environment does not satisfy an app's config schema. The message names every bad variable. */
export class ConfigError extends Error {
  readonly issues: { variable: string; problem: string }[];

  constructor(appName: string, issues: { variable: string; problem: string }[]) {
    const lines = issues.map((i) => `  ${i.variable}: ${i.problem}`);
    super(`${appName}: invalid configuration\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/**
 * Parse an app's environment once, at start. Nothing else in an app reads process.env.
 * Empty strings count as unset, so `PORT=` in a .env file falls back to the default
 * instead of failing as "not a number".
 */
export function parseConfig<S extends z.ZodObject>(
  appName: string,
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? '(environment)');
    const received = cleaned[variable];
    const problem =
      received === undefined
        ? `is required but not set (${issue.message})`
        : `${issue.message} (got ${JSON.stringify(redactIfSecret(variable, received))})`;
    return { variable, problem };
  });
  throw new ConfigError(appName, issues);
}

function redactIfSecret(variable: string, value: string): string {
  return /SECRET|KEY|PASSWORD|TOKEN|_URL$/.test(variable) ? '[redacted]' : value;
}

export interface ConfigVariable {
  name: string;
  required: boolean;
  default: string | undefined;
  description: string;
}

/** The variables of a config schema, for the configuration table of docs/operators.md and `pnpm docs:config`. */
export function describeConfig(schema: z.ZodObject): ConfigVariable[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { default?: unknown; description?: string }>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, prop]) => ({
    name,
    required: required.has(name) && prop.default === undefined,
    default: prop.default === undefined ? undefined : String(prop.default),
    description: prop.description ?? '',
  }));
}
