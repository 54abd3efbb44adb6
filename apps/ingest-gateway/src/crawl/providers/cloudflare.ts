import { LOGPUSH_FIELDS } from '@vt/contracts';
import { type CrawlLineFormat, NOT_A_REQUEST } from '../line-format.ts';
import { lineTimestamp } from './record-values.ts';

/**
 * Cloudflare Logpush (`http_requests`): flat JSON lines whose user agent, host and referer are
 * strings, so the raw-text decision reads them under Logpush's names. `EdgeStartTimestamp` comes
 * in the job's `timestamp_format` (unixnano, unix or rfc3339); `ClientRequestPath` stands in for a
 * job that logs it instead of `ClientRequestURI`. Logpush's test upload (`{"content":"tests"}`,
 * sent when a job is created) is not a request; any other record is one, and a record without the
 * job's fields (another provider's, sent here by mistake) is unusable, its missing fields named.
 */
export const LOGPUSH_LINES: CrawlLineFormat = {
  rawKeys: {
    agentNeedle: `${LOGPUSH_FIELDS.userAgent}"`,
    userAgentHead: '"',
    signatureAgentHead: null,
    hostNeedle: `${LOGPUSH_FIELDS.host}"`,
    refererNeedle: `${LOGPUSH_FIELDS.referer}"`,
    requiredKeys: [
      { field: 'timestamp', keys: [`"${LOGPUSH_FIELDS.timestamp}"`] },
      { field: 'path', keys: [`"${LOGPUSH_FIELDS.path}"`, '"ClientRequestPath"'] },
      { field: 'statusCode', keys: [`"${LOGPUSH_FIELDS.statusCode}"`] },
    ],
  },
  toLine(record) {
    if (isTestUpload(record)) return NOT_A_REQUEST;
    return {
      timestamp: lineTimestamp(record[LOGPUSH_FIELDS.timestamp]),
      host: record[LOGPUSH_FIELDS.host],
      path: record[LOGPUSH_FIELDS.path] ?? record.ClientRequestPath,
      userAgent: record[LOGPUSH_FIELDS.userAgent],
      statusCode: record[LOGPUSH_FIELDS.statusCode],
      method: record[LOGPUSH_FIELDS.method],
      referer: record[LOGPUSH_FIELDS.referer],
      ip: record[LOGPUSH_FIELDS.ip],
    };
  },
  fieldNames: {
    timestamp: LOGPUSH_FIELDS.timestamp,
    host: LOGPUSH_FIELDS.host,
    path: LOGPUSH_FIELDS.path,
    userAgent: LOGPUSH_FIELDS.userAgent,
    statusCode: LOGPUSH_FIELDS.statusCode,
  },
};

/** `{"content":"tests"}` and nothing else. */
function isTestUpload(record: Record<string, unknown>): boolean {
  for (const key in record) if (key !== 'content') return false;
  return 'content' in record;
}
