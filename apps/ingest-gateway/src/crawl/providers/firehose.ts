import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { CLOUDFRONT_SETUP_FIELDS } from '@vt/contracts';
import type { Request } from 'express';
import { z } from 'zod';
import { readCappedBody } from '../../leads/read-capped-body.ts';
import type { BatchClassifier } from '../batch-classifier.ts';
import { type BodyLimits, BodyTooLargeError, CorruptGzipError } from '../body-stream.ts';
import type { CrawlLineCandidate } from '../line-format.ts';
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

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
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
  let envelope: z.output<typeof firehoseEnvelope>;
  try {
    envelope = firehoseEnvelope.parse(JSON.parse(body.toString('utf8')));
  } catch {
    throw new NotFirehoseError();
  }
  const lines = new RecordLines(fields, classifier);
  for (const { data } of envelope.records) {
    if (data.length % 4 !== 0 || !BASE64.test(data)) {
      classifier.record(null);
      continue;
    }
    lines.read(Buffer.from(data, 'base64').toString('utf8'));
  }
  return { requestId: envelope.requestId, fieldCountMismatch: lines.mismatch };
}

/** Distinct encoded user agents and referers remembered decoded, before the memo starts over. */
const MAX_DECODED = 10_000;

/** The log lines of Firehose records, read against one field list (or a `#Fields:` header). */
class RecordLines {
  private columns: Columns;
  private readonly decoded = new Map<string, string>();
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
      const line = text.charCodeAt(end - 1) === 0x0d ? text.slice(start, end - 1) : text.slice(start, end);
      start = end + 1;
      if (line.trim() === '') continue;
      if (line.charCodeAt(0) === 0x23) {
        this.header(line);
        continue;
      }
      this.classifier.record(line.charCodeAt(0) === 0x7b ? jsonLine(line) : this.tabSeparated(line));
    }
  }

  /** `#Fields: date time …` starts CloudFront standard log lines; other `#` lines say nothing read. */
  private header(line: string) {
    if (!line.startsWith('#Fields:')) return;
    const names = line.slice('#Fields:'.length).trim().split(/\s+/);
    this.columns = standardColumns(names);
    this.mismatch.expected = names.length;
  }

  private tabSeparated(line: string): CrawlLineCandidate | null {
    const values = line.split('\t');
    const c = this.columns;
    if (values.length !== c.count) {
      this.mismatch.lines++;
      this.mismatch.found = values.length;
      return null;
    }
    const at = (index: number) => {
      const value = index === -1 ? undefined : values[index];
      return value === '-' || value === '' ? undefined : value;
    };
    const timestamp = c.date === -1 ? lineTimestamp(at(c.timestamp)) : `${at(c.date)}T${at(c.time)}Z`;
    return {
      timestamp,
      host: at(c.host) ?? at(c.otherHost),
      path: at(c.path),
      userAgent: this.decode(at(c.userAgent)),
      statusCode: statusNumber(at(c.status)),
      method: at(c.method),
      referer: this.decode(at(c.referer)),
      ip: at(c.ip),
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
