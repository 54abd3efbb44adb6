import { AKAMAI_FIELDS } from '@vt/contracts';
import type { CrawlLineFormat } from '../line-format.ts';
import { formDecoded, lineTimestamp, statusNumber } from './record-values.ts';

/**
 * Akamai DataStream 2 in JSON: every value a string (the time in seconds, the status as text),
 * the user agent and referer percent-encoded with `+` for a space, so every record is parsed.
 * `reqPath` has no query string (DataStream logs it apart, as `queryStr`).
 */
export const DATASTREAM_LINES: CrawlLineFormat = {
  rawKeys: null,
  toLine: (record) => ({
    timestamp: lineTimestamp(record[AKAMAI_FIELDS.timestamp]),
    host: record[AKAMAI_FIELDS.host],
    path: record[AKAMAI_FIELDS.path],
    userAgent: formDecoded(record[AKAMAI_FIELDS.userAgent]),
    statusCode: statusNumber(record[AKAMAI_FIELDS.statusCode]),
    method: record[AKAMAI_FIELDS.method],
    referer: formDecoded(record[AKAMAI_FIELDS.referer]),
    ip: record[AKAMAI_FIELDS.ip],
  }),
  fieldNames: { ...AKAMAI_FIELDS },
};
