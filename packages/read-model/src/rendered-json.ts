/**
 * JSON text that Postgres rendered from the read model's stored fragments, to be placed in an
 * answer as it is. Parsing it into objects only to serialize the same bytes again was most of what
 * an uncached /v1/responses page cost the read API (issue 31).
 */
export class RenderedJson<Value = unknown> {
  constructor(readonly text: string) {}

  /** The value, for a caller that works on it (the console adds to each row) rather than sending it. */
  parse(): Value {
    return JSON.parse(this.text) as Value;
  }
}

/**
 * An answer's body: what `JSON.stringify` makes of it, except that a `data` holding RenderedJson
 * goes in as its text. `data` is every envelope's first key, so the rest follows it in the order
 * JSON.stringify would write it, and the bytes are the same as for the parsed rows.
 */
export function serializeAnswer(body: unknown): string {
  if (typeof body !== 'object' || body === null || !('data' in body) || !(body.data instanceof RenderedJson)) {
    return JSON.stringify(body);
  }
  const { data, ...rest } = body;
  const after = JSON.stringify(rest);
  return `{"data":${data.text}${after === '{}' ? '}' : `,${after.slice(1)}`}`;
}
