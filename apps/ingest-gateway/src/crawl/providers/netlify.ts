import { type CrawlLineFormat, NOT_A_REQUEST } from '../line-format.ts';
import { lineTimestamp } from './record-values.ts';

/**
 * Netlify Log Drains: traffic records (`log_type` "traffic") are requests; function, edge
 * function, deploy and WAF records are not. A drain belongs to one site, and a traffic record's
 * `url` may be a path with no host: such a record is the property's own domain's. An absolute
 * `url` names its host, which is then checked like any other line's.
 */
export function netlifyLines(domain: string): CrawlLineFormat {
  return {
    rawKeys: null,
    toLine(record) {
      if (record.log_type !== undefined && record.log_type !== 'traffic') return NOT_A_REQUEST;
      const { host, path } = hostAndPath(record.url, record.host, domain);
      return {
        timestamp: lineTimestamp(record.timestamp),
        host,
        path,
        userAgent: record.user_agent,
        statusCode: record.status_code,
        method: record.method,
        referer: record.referrer ?? record.referer,
        ip: record.client_ip,
      };
    },
    fieldNames: {
      timestamp: 'timestamp',
      host: 'url',
      path: 'url',
      userAgent: 'user_agent',
      statusCode: 'status_code',
    },
  };
}

function hostAndPath(url: unknown, host: unknown, domain: string): { host: unknown; path: unknown } {
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      return { host: parsed.host, path: `${parsed.pathname}${parsed.search}` };
    } catch {
      return { host: undefined, path: url };
    }
  }
  return { host: typeof host === 'string' ? host : domain, path: url };
}
