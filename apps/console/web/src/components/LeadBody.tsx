import { Fragment } from 'react';

/** The lead's fields in words, in the order the spec lists them; any other key keeps its own name. */
const FIELD_LABELS: Record<string, string> = {
  contact: 'Contact',
  email: 'Email',
  sessionId: 'Session',
  landingPath: 'Landing page',
  referrer: 'Referrer',
  utmSource: 'UTM source',
  utmMedium: 'UTM medium',
};

/** A value as one line: text as it is, anything else as its JSON. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * A logged lead body, readable: its fields as a small list, the raw JSON behind a toggle (as it
 * was sent and signed). A body that is not a JSON object is shown as it is.
 */
export function LeadBody({ body }: { body: string }) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return <pre>{body}</pre>;
  const entries = Object.entries(parsed as Record<string, unknown>);
  const known = Object.keys(FIELD_LABELS);
  entries.sort(([a], [b]) => rank(known, a) - rank(known, b));
  return (
    <div data-testid="lead-body">
      {entries.length ? (
        <dl className="fields">
          {entries.map(([key, value]) => (
            <Fragment key={key}>
              <dt>{FIELD_LABELS[key] ?? key}</dt>
              <dd>{shown(value)}</dd>
            </Fragment>
          ))}
        </dl>
      ) : (
        <span className="hint">No fields</span>
      )}
      <details>
        <summary>Raw JSON</summary>
        <pre>{body}</pre>
      </details>
    </div>
  );
}

const rank = (known: string[], key: string) => {
  const at = known.indexOf(key);
  return at === -1 ? known.length : at;
};
