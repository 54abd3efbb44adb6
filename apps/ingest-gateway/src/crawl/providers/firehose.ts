import { isAscii } from 'node:buffer';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { CLOUDFRONT_SETUP_FIELDS } from '@vt/contracts';
import type { Request } from 'express';
import { z } from 'zod';
import { readCappedBody } from '../../leads/read-capped-body.ts';
import type { BatchClassifier } from '../batch-classifier.ts';
import { type BodyLimits, BodyTooLargeError, CorruptGzipError } from '../body-stream.ts';
import type { CrawlLineCandidate, RequiredLineField } from '../line-format.ts';
import { isRecord, lineTimestamp, percentDecoded, statusNumber } from './record-values.ts';

const inflate = promisify(gunzip);

/** Amazon Data Firehose's HTTP endpoint delivery: at most 10,000 records a request. */
export const FIREHOSE_MAX_RECORDS = 10_000;

const firehoseEnvelope = z.object({
  requestId: z.string().min(1).max(256),
  timestamp: z.number(),
  records: z.array(z.object({ data: z.string() })).max(FIREHOSE_MAX_RECORDS),
});

/** The body is not a Firehose delivery (`{requestId, timestamp, records: [{data}]}`). */
export class NotFirehoseError extends Error {}

/** A field list that cannot be read (no user agent, status, path, time or host among it). */
export class FirehoseFieldsError extends Error {}

/** What a Firehose delivery's records told beyond the classifier's counts. */
export interface FirehoseReading {
  requestId: string;
  /** Log lines whose number of fields was not the field list's. */
  fieldCountMismatch: { lines: number; expected: number; found: number };
}

const GZIP = [0x1f, 0x8b];

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
 * Reads a Firehose delivery whole (its records are base64 inside one JSON document, so it cannot
 * be split as it streams; Firehose caps it at 64 MiB before compression), then each record's log
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
  const wire = await readCappedBody(req, limits.maxWireBytes);
  if (wire === 'too_large') throw new BodyTooLargeError('wire');
  let body = wire;
  if (wire[0] === GZIP[0] && wire[1] === GZIP[1]) {
    try {
      body = await inflate(wire, { maxOutputLength: limits.maxInflatedBytes });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyTooLargeError('inflated');
      throw new CorruptGzipError((err as Error).message);
    }
  }
  if (body.length > limits.maxInflatedBytes) throw new BodyTooLargeError('inflated');
  const delivery = plainDelivery(body) ?? parsedDelivery(body);
  const { text, unreadable } = decodeRecords(body, delivery.records);
  for (let i = 0; i < unreadable; i++) classifier.record(null);
  const lines = new RecordLines(fields, classifier);
  lines.read(text);
  return { requestId: delivery.requestId, fieldCountMismatch: lines.mismatch };
}

/** Where each record's base64 stands in the body: [start, end) byte pairs, or the strings themselves. */
type RecordSpans = { body: 'spans'; spans: number[] } | { body: 'strings'; data: string[] };

interface Delivery {
  requestId: string;
  records: RecordSpans;
}

/**
 * The delivery read without parsing its records: Firehose writes each as `{"data":"<base64>"}`,
 * so the records array is walked byte by byte and only the rest of the envelope is JSON-parsed
 * (parsing 10,000 records' strings measured most of a delivery's cost). Null when the body is not
 * in that plain shape, and the whole body is then parsed (`parsedDelivery`).
 */
function plainDelivery(body: Buffer): Delivery | null {
  const key = body.indexOf('"records"');
  if (key === -1) return null;
  let i = skipSpace(body, key + 9);
  if (body[i] !== 0x3a) return null; // :
  i = skipSpace(body, i + 1);
  if (body[i] !== 0x5b) return null; // [
  const arrayStart = i;
  const spans: number[] = [];
  // Where the next backslash is, searched again only once passed (a search per record from its
  // start would scan the rest of the body each time).
  let backslash = body.indexOf(0x5c, i);
  i = skipSpace(body, i + 1);
  if (body[i] === 0x5d)
    i++; // ]: no records
  else {
    for (;;) {
      if (body[i] !== 0x7b) return null; // {
      i = skipSpace(body, i + 1);
      if (!isDataKey(body, i)) return null;
      i = skipSpace(body, i + 6);
      if (body[i] !== 0x3a) return null;
      i = skipSpace(body, i + 1);
      if (body[i] !== 0x22) return null; // "
      const close = body.indexOf(0x22, i + 1);
      if (close === -1) return null;
      // An escape inside would make the text mean something else than its bytes.
      if (backslash !== -1 && backslash < i) backslash = body.indexOf(0x5c, i);
      if (backslash !== -1 && backslash < close) return null;
      spans.push(i + 1, close);
      i = skipSpace(body, close + 1);
      if (body[i] !== 0x7d) return null; // }
      i = skipSpace(body, i + 1);
      if (body[i] === 0x2c)
        i = skipSpace(body, i + 1); // ,
      else if (body[i] === 0x5d) {
        i++;
        break;
      } else return null;
    }
  }
  let rest: unknown;
  try {
    rest = JSON.parse(`${body.toString('utf8', 0, arrayStart)}[]${body.toString('utf8', i)}`);
  } catch {
    return null;
  }
  const envelope = firehoseEnvelope.safeParse(rest);
  // The records found must be the envelope's own (not a key of the same name nested or repeated).
  if (!envelope.success || envelope.data.records.length !== 0) return null;
  if (spans.length / 2 > FIREHOSE_MAX_RECORDS) throw new NotFirehoseError();
  return { requestId: envelope.data.requestId, records: { body: 'spans', spans } };
}

/** Any other body: parsed whole, and checked to be a Firehose delivery. */
function parsedDelivery(body: Buffer): Delivery {
  try {
    const envelope = firehoseEnvelope.parse(JSON.parse(body.toString('utf8')));
    return { requestId: envelope.requestId, records: { body: 'strings', data: envelope.records.map((r) => r.data) } };
  } catch {
    throw new NotFirehoseError();
  }
}

const DATA_KEY = Buffer.from('"data"');

function isDataKey(body: Buffer, i: number): boolean {
  for (let k = 0; k < DATA_KEY.length; k++) if (body[i + k] !== DATA_KEY[k]) return false;
  return true;
}

function skipSpace(body: Buffer, i: number): number {
  while (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09) i++;
  return i;
}

/**
 * Every record decoded into one text, each ending in a newline, and how many were not base64.
 * Decoded into one buffer and turned into text once: a buffer and a string per record cost more
 * than the rest of a record's reading.
 */
function decodeRecords(body: Buffer, records: RecordSpans): { text: string; unreadable: number } {
  // The body as latin1 text once: each record's base64 is then a slice of it (V8 shares the
  // characters), where a string copied per record measured a seventh of the reading.
  const latin1 = records.body === 'spans' ? body.toString('latin1') : '';
  const count = records.body === 'spans' ? records.spans.length / 2 : records.data.length;
  const base64 = (k: number) =>
    records.body === 'spans'
      ? latin1.slice(records.spans[2 * k], records.spans[2 * k + 1])
      : (records.data[k] as string);
  let capacity = count;
  for (let k = 0; k < count; k++) {
    const length =
      records.body === 'spans'
        ? (records.spans[2 * k + 1] as number) - (records.spans[2 * k] as number)
        : (records.data[k] as string).length;
    capacity += Math.ceil(length / 4) * 3;
  }
  const out = Buffer.allocUnsafe(capacity);
  let used = 0;
  let unreadable = 0;
  for (let k = 0; k < count; k++) {
    const data = base64(k);
    const decoded = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
    // Node's decoder skips what is not base64: fewer bytes than the length promises is not base64.
    const written = data.length % 4 === 0 ? out.write(data, used, 'base64') : -1;
    if (written !== decoded) {
      unreadable++;
      continue;
    }
    used += written;
    out[used++] = 0x0a;
  }
  // CloudFront's lines are ASCII (it percent-encodes the rest): read as latin1, a copy, they need
  // none of UTF-8's decoding, which measured a tenth of the reading.
  const bytes = out.subarray(0, used);
  return { text: bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8'), unreadable };
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
