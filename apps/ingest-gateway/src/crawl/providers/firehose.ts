import { CLOUDFRONT_SETUP_FIELDS } from '@vt/contracts';
import type { Request } from 'express';
import type { BatchClassifier } from '../batch-classifier.ts';
import { type BodyLimits, streamBody } from '../body-stream.ts';
import type { CrawlLineCandidate, RequiredLineField } from '../line-format.ts';
import { FirehoseEnvelopeReader } from './firehose-envelope.ts';
import { isRecord, lineTimestamp, percentDecoded, statusNumber } from './record-values.ts';

/** A field list that cannot be read (no user agent, status, path, time or host among it). */
export class FirehoseFieldsError extends Error {}

/** What a Firehose delivery's records told beyond the classifier's counts. */
export interface FirehoseReading {
  requestId: string;
  /** Log lines whose number of fields was not the field list's. */
  fieldCountMismatch: { lines: number; expected: number; found: number };
}

/**
 * The fields of the real-time log records this delivery carries, in CloudFront's order: the
 * endpoint URL's `fields` parameter, else a `fields` common attribute of the Firehose stream, else
 * the setup's selection. Names are CloudFront's; an unknown one (a field CloudFront added later)
 * only holds its place.
 */
export function firehoseFields(req: Request): string[] {
  const fromQuery = typeof req.query.fields === 'string' ? req.query.fields : undefined;
  const fromAttributes = commonAttribute(req.get('x-amz-firehose-common-attributes'), 'fields');
  const listed = fromQuery ?? fromAttributes;
  if (listed === undefined) return [...CLOUDFRONT_SETUP_FIELDS];
  const fields = listed.split(/[\s,]+/).filter((name) => name !== '');
  const has = (name: string) => fields.includes(name);
  if (
    fields.length > 100 ||
    fields.some((name) => !/^[A-Za-z0-9()_-]{1,64}$/.test(name)) ||
    !['timestamp', 'cs-uri-stem', 'cs-user-agent', 'sc-status'].every(has) ||
    !(has('cs-host') || has('x-host-header'))
  ) {
    throw new FirehoseFieldsError(listed.slice(0, 200));
  }
  return fields;
}

function commonAttribute(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  try {
    const parsed: unknown = JSON.parse(header);
    const attributes = isRecord(parsed) ? parsed.commonAttributes : undefined;
    const value = isRecord(attributes) ? attributes[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a Firehose delivery as it streams in (FirehoseEnvelopeReader), then each record's log
 * lines: CloudFront real-time lines (tab-separated, the fields `fields` names), CloudFront
 * standard lines under their own `#Fields:` header, or the spec's own JSON lines. A record that is
 * not base64 is one unreadable line; the batch goes on.
 */
export async function readFirehose(
  req: Request,
  fields: string[],
  limits: BodyLimits,
  classifier: BatchClassifier,
): Promise<FirehoseReading> {
  const lines = new RecordLines(fields, classifier);
  const envelope = new FirehoseEnvelopeReader((text) => (text === null ? classifier.record(null) : lines.read(text)));
  await streamBody(req, limits, envelope);
  return { requestId: envelope.requestId, fieldCountMismatch: lines.mismatch };
}

/** Lines of a delivery decided on raw text that are checked for the fields they lack. */
const LINES_CHECKED = 1000;

/** Distinct encoded referers remembered decoded, before the memo starts over. */
const MAX_DECODED = 10_000;

/**
 * The log lines of Firehose records, read against one field list (or a `#Fields:` header). A
 * line whose user agent and referer are plainly not an AI agent's or platform's is decided on
 * its raw text, as the JSON lines are: no value of it is copied but its host.
 */
class RecordLines {
  private columns: Columns;
  private readonly decoded = new Map<string, string>();
  /** Each column's [start, end) in the current line. */
  private spans = new Int32Array(0);
  /** Lines decided on raw text that were checked for missing fields. */
  private checked = 0;
  readonly mismatch: FirehoseReading['fieldCountMismatch'];

  constructor(
    fields: string[],
    private readonly classifier: BatchClassifier,
  ) {
    this.columns = realtimeColumns(fields);
    this.mismatch = { lines: 0, expected: fields.length, found: 0 };
  }

  read(text: string) {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const next = end + 1;
      if (text.charCodeAt(end - 1) === 0x0d) end--;
      if (end > start) this.line(text, start, end);
      start = next;
    }
  }

  private line(text: string, start: number, end: number) {
    const first = text.charCodeAt(start);
    if (first === 0x23) return this.header(text.slice(start, end)); // #
    if (first === 0x7b) return this.classifier.record(jsonLine(text.slice(start, end))); // {
    if ((first === 0x20 || first === 0x09) && text.slice(start, end).trim() === '') return;
    const c = this.columns;
    if (this.spans.length < 2 * c.count) this.spans = new Int32Array(2 * c.count);
    const spans = this.spans;
    let found = 0;
    for (let from = start; ; found++) {
      const tab = text.indexOf('\t', from);
      const stop = tab === -1 || tab > end ? end : tab;
      if (found < c.count) {
        spans[2 * found] = from;
        spans[2 * found + 1] = stop;
      }
      if (stop === end) {
        found++;
        break;
      }
      from = stop + 1;
    }
    if (found !== c.count) {
      this.mismatch.lines++;
      this.mismatch.found = found;
      return this.classifier.record(null);
    }
    if (this.plainlyDropped(text, c)) return;
    this.classifier.record(this.candidate(text, c));
  }

  /** A line with a user agent that is no AI agent's and a referer that names no AI platform: decided now. */
  private plainlyDropped(text: string, c: Columns): boolean {
    const spans = this.spans;
    if (!this.has(text, c.userAgent)) return false;
    const agent = 2 * c.userAgent;
    if (
      this.classifier.encodedAgentMayMatch(text, spans[agent] as number, spans[agent + 1] as number, percentDecoded)
    ) {
      return false;
    }
    if (this.has(text, c.referer)) {
      const referer = 2 * c.referer;
      if (this.classifier.refererMayMatch(text, spans[referer] as number, spans[referer + 1] as number)) return false;
    }
    const hostColumn = this.has(text, c.host) ? c.host : this.has(text, c.otherHost) ? c.otherHost : -1;
    const host = hostColumn === -1 ? undefined : text.slice(spans[2 * hostColumn], spans[2 * hostColumn + 1]);
    // A stream writes the same fields on every record: its first lines tell what it lacks.
    let lacking: RequiredLineField[] | undefined;
    if (this.checked < LINES_CHECKED) {
      this.checked++;
      lacking = [];
      if (!this.has(text, c.timestamp === -1 ? c.date : c.timestamp)) lacking.push('timestamp');
      if (!this.has(text, c.path)) lacking.push('path');
      if (!this.has(text, c.status)) lacking.push('statusCode');
      if (host === undefined) lacking.push('host');
    }
    this.classifier.droppedLine(host, lacking);
    return true;
  }

  /** Whether a column is logged and its value is neither empty nor `-`. */
  private has(text: string, column: number): boolean {
    if (column === -1) return false;
    const start = this.spans[2 * column] as number;
    const end = this.spans[2 * column + 1] as number;
    return end > start && !(end === start + 1 && text.charCodeAt(start) === 0x2d);
  }

  private value(text: string, column: number): string | undefined {
    return this.has(text, column) ? text.slice(this.spans[2 * column], this.spans[2 * column + 1]) : undefined;
  }

  /** `#Fields: date time …` starts CloudFront standard log lines; other `#` lines say nothing read. */
  private header(line: string) {
    if (!line.startsWith('#Fields:')) return;
    const names = line.slice('#Fields:'.length).trim().split(/\s+/);
    this.columns = standardColumns(names);
    this.mismatch.expected = names.length;
  }

  private candidate(text: string, c: Columns): CrawlLineCandidate {
    const value = (column: number) => this.value(text, column);
    const timestamp = c.date === -1 ? lineTimestamp(value(c.timestamp)) : `${value(c.date)}T${value(c.time)}Z`;
    return {
      timestamp,
      host: value(c.host) ?? value(c.otherHost),
      path: value(c.path),
      userAgent: this.decode(value(c.userAgent)),
      statusCode: statusNumber(value(c.status)),
      method: value(c.method),
      referer: this.decode(value(c.referer)),
      ip: value(c.ip),
    };
  }

  /** CloudFront percent-encodes user agents and referers; a site has few distinct ones. */
  private decode(value: string | undefined): string | undefined {
    if (value === undefined || !value.includes('%')) return value;
    const known = this.decoded.get(value);
    if (known !== undefined) return known;
    const text = percentDecoded(value);
    if (this.decoded.size >= MAX_DECODED) this.decoded.clear();
    if (value.length <= 512) this.decoded.set(value, text);
    return text;
  }
}

/** Where each value a crawl line needs stands in a record; -1 where it is not logged. */
interface Columns {
  count: number;
  timestamp: number;
  date: number;
  time: number;
  /** The viewer's Host header, and the distribution's domain when that is all there is. */
  host: number;
  otherHost: number;
  path: number;
  userAgent: number;
  status: number;
  method: number;
  referer: number;
  ip: number;
}

/** Real-time logs: `cs-host` is the viewer's Host header, `x-host-header` the distribution's domain. */
function realtimeColumns(fields: string[]): Columns {
  const at = (name: string) => fields.indexOf(name);
  return {
    count: fields.length,
    timestamp: at('timestamp'),
    date: -1,
    time: -1,
    host: at('cs-host'),
    otherHost: at('x-host-header'),
    path: at('cs-uri-stem'),
    userAgent: at('cs-user-agent'),
    status: at('sc-status'),
    method: at('cs-method'),
    referer: at('cs-referer'),
    ip: at('c-ip'),
  };
}

/** Standard logs name the two hosts the other way round: `x-host-header` is the viewer's Host. */
function standardColumns(fields: string[]): Columns {
  const at = (name: string) => fields.indexOf(name);
  return {
    count: fields.length,
    timestamp: -1,
    date: at('date'),
    time: at('time'),
    host: at('x-host-header'),
    otherHost: at('cs(Host)'),
    path: at('cs-uri-stem'),
    userAgent: at('cs(User-Agent)'),
    status: at('sc-status'),
    method: at('cs-method'),
    referer: at('cs(Referer)'),
    ip: at('c-ip'),
  };
}

/** A record holding the spec's own JSON line. */
function jsonLine(line: string): CrawlLineCandidate | null {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
