import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG_SCHEMAS, parseConfig } from '@vt/config';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { enumOf, list, obj, oneOf, parseLogstashPipeline, problems, type Spec } from './documented-schema.ts';
import { SHIPPERS } from './web-servers.ts';

// Vector, Fluent Bit, Filebeat and Logstash are not among Debian's packages, so their recipes
// cannot run here: each is checked against the tool's documented configuration schema (every key
// documented, every value of the documented kind) and against what the crawl ingest needs (the
// file the web-server recipes write, gzip, the bearer token, batches under the gateway's caps).
// The option names below are copied from the documentation cited above each schema.

const read = (path: string) => readFileSync(join(SHIPPERS, path), 'utf8');
/** `${NAME}` as the recipes write it: each tool puts the environment variable's value there. */
const env = (name: string) => `\${${name}}`;
const gateway = parseConfig('ingest-gateway', APP_CONFIG_SCHEMAS['ingest-gateway'], {});
const GATEWAY_MAX_LINE_BYTES = 1024 * 1024; // body-stream.ts: a longer line is unreadable
// The file the nginx recipe's access_log lines write (the Apache recipe writes the same name).
const LOG_FILE = /access_log (\S+) ai_ingest if=/.exec(read('nginx/ai-ingest.conf'))?.[1];

describe('the recipes for agents share the web-server recipes’ log', () => {
  it('names one file, the one both web-server recipes write', () => {
    expect(LOG_FILE).toBe('/var/log/nginx/ai_ingest.ndjson');
    expect(read('apache/ai-ingest.conf')).toContain(`GlobalLog ${env('APACHE_LOG_DIR')}/ai_ingest.ndjson ai_ingest `);
  });
});

// Vector: the file source and the http sink, website/cue/reference/components/{sources,sinks}/
// generated/{file,http}.cue in vectordotdev/vector (the source of
// https://vector.dev/docs/reference/configuration/sources/file/ and .../sinks/http/).
const VECTOR_FILE_SOURCE = obj(
  {
    type: enumOf('file'),
    include: list('string'),
    exclude: list('string'),
    data_dir: 'string',
    file_key: 'string',
    host_key: 'string',
    offset_key: 'string',
    fingerprint: 'any',
    glob_minimum_cooldown_ms: 'number',
    ignore_older_secs: 'number',
    line_delimiter: 'string',
    max_line_bytes: 'number',
    max_read_bytes: 'number',
    oldest_first: 'boolean',
    read_from: enumOf('beginning', 'end'),
    remove_after_secs: 'number',
    rotate_wait_secs: 'number',
  },
  ['type', 'include'],
);
const VECTOR_HTTP_SINK = obj(
  {
    type: enumOf('http'),
    inputs: list('string'),
    uri: 'string',
    method: enumOf('delete', 'get', 'head', 'options', 'patch', 'post', 'put', 'trace'),
    auth: obj({ strategy: enumOf('basic', 'bearer', 'aws'), token: 'string', user: 'string', password: 'string' }, [
      'strategy',
    ]),
    compression: enumOf('gzip', 'none', 'snappy', 'zlib', 'zstd'),
    encoding: obj(
      {
        codec: enumOf(
          'avro',
          'cef',
          'csv',
          'gelf',
          'json',
          'logfmt',
          'native',
          'native_json',
          'otlp',
          'protobuf',
          'raw_message',
          'text',
        ),
        only_fields: list('string'),
        except_fields: list('string'),
      },
      ['codec'],
    ),
    framing: obj(
      {
        method: enumOf(
          'bytes',
          'character_delimited',
          'length_delimited',
          'newline_delimited',
          'varint_length_delimited',
        ),
      },
      ['method'],
    ),
    batch: obj({ max_bytes: 'number', max_events: 'number', timeout_secs: 'number' }),
    request: obj({
      concurrency: oneOf(enumOf('adaptive', 'none'), 'number'),
      headers: obj({ '*': 'string' }),
      rate_limit_duration_secs: 'number',
      rate_limit_num: 'number',
      retry_attempts: 'number',
      retry_initial_backoff_secs: 'number',
      retry_max_duration_secs: 'number',
      timeout_secs: 'number',
    }),
    acknowledgements: obj({ enabled: 'boolean' }),
    tls: 'any',
  },
  ['type', 'inputs', 'uri', 'encoding'],
);

describe('deploy/shippers/vector/vector.yaml (checked against the documented schema, not run here)', () => {
  const config = parse(read('vector/vector.yaml'));

  it('uses only documented keys and values', () => {
    const spec: Spec = obj({
      data_dir: 'string',
      sources: obj({ '*': VECTOR_FILE_SOURCE }),
      sinks: obj({ '*': VECTOR_HTTP_SINK }),
    });
    expect(problems(config, spec)).toEqual([]);
  });

  it('posts the lines unchanged, gzipped, in batches under the gateway’s caps, with the bearer token', () => {
    const source = config.sources.ai_ingest_log;
    const sink = config.sinks.ai_ingest;
    expect(source.include).toEqual([LOG_FILE]);
    expect(source.max_line_bytes).toBeGreaterThanOrEqual(GATEWAY_MAX_LINE_BYTES);
    expect(sink.inputs).toEqual(['ai_ingest_log']);
    expect(sink).toMatchObject({
      uri: env('INGEST_URL'),
      method: 'post',
      auth: { strategy: 'bearer', token: env('CRAWL_TOKEN') },
      encoding: { codec: 'text' },
      framing: { method: 'newline_delimited' },
      compression: 'gzip',
      acknowledgements: { enabled: true },
    });
    expect(sink.batch.max_bytes).toBeLessThan(gateway.CRAWL_MAX_INFLATED_BYTES);
    expect(sink.batch.timeout_secs).toBeLessThanOrEqual(60);
  });
});

// Fluent Bit: the YAML sections (administration/configuring-fluent-bit/yaml/ in fluent/fluent-bit-docs,
// https://docs.fluentbit.io/manual/administration/configuring-fluent-bit/yaml), the tail input
// (pipeline/inputs/tail.md), the http output (pipeline/outputs/http.md) and the options every
// output has (match, retry_limit, tls, tls.verify: administration/configuring-fluent-bit and
// administration/transport-security.md).
const FLUENT_BIT_TAIL = obj(
  {
    name: enumOf('tail'),
    tag: 'string',
    path: 'string',
    path_key: 'string',
    exclude_path: 'string',
    parser: 'string',
    db: 'string',
    'db.sync': enumOf('extra', 'full', 'normal', 'off'),
    buffer_chunk_size: 'string',
    buffer_max_size: 'string',
    skip_long_lines: 'boolean',
    skip_empty_lines: 'boolean',
    read_from_head: 'boolean',
    refresh_interval: 'number',
    rotate_wait: 'number',
    mem_buf_limit: 'string',
    'storage.type': enumOf('memory', 'filesystem'),
  },
  ['name', 'path'],
);
const FLUENT_BIT_HTTP = obj(
  {
    name: enumOf('http'),
    match: 'string',
    host: 'string',
    port: 'number',
    uri: 'string',
    tls: 'boolean',
    'tls.verify': 'boolean',
    format: enumOf('gelf', 'json', 'json_stream', 'json_lines', 'msgpack'),
    compress: enumOf('gzip', 'snappy', 'zstd'),
    header: oneOf('string', list('string')),
    http_method: enumOf('POST', 'PUT'),
    json_date_key: oneOf('string', enumOf(false)),
    json_date_format: enumOf('double', 'epoch', 'epoch_ms', 'iso8601', 'java_sql_timestamp'),
    log_response_payload: 'boolean',
    'http.response_timeout': 'string',
    workers: 'number',
    retry_limit: oneOf('number', enumOf('no_limits', false)),
    'storage.total_limit_size': 'string',
  },
  ['name', 'match'],
);

describe('deploy/shippers/fluent-bit/fluent-bit.yaml (checked against the documented schema, not run here)', () => {
  const config = parse(read('fluent-bit/fluent-bit.yaml'));

  it('uses only documented keys and values', () => {
    const spec: Spec = obj({
      service: obj({
        flush: 'number',
        grace: 'number',
        log_level: enumOf('off', 'error', 'warn', 'info', 'debug', 'trace'),
        'storage.path': 'string',
        'storage.sync': enumOf('normal', 'full'),
      }),
      parsers: list(obj({ name: 'string', format: enumOf('json', 'regex', 'ltsv', 'logfmt') }, ['name', 'format'])),
      pipeline: obj({ inputs: list(FLUENT_BIT_TAIL), outputs: list(FLUENT_BIT_HTTP) }),
    });
    expect(problems(config, spec)).toEqual([]);
  });

  it('sends each line’s own fields and nothing else, as gzipped JSON lines with the bearer token, to the property’s endpoint', () => {
    const [input] = config.pipeline.inputs;
    const [output] = config.pipeline.outputs;
    expect(input.path).toBe(LOG_FILE);
    expect(input.skip_long_lines).toBe('on');
    // The parser the tail input names: JSON, and no time key that would take a field out of the record.
    expect(config.parsers).toEqual([{ name: input.parser, format: 'json' }]);
    expect(output.match).toBe(input.tag);
    expect(output).toMatchObject({
      uri: `/api/ingest/crawl/${env('PROPERTY_ID')}`,
      format: 'json_lines',
      json_date_key: false,
      compress: 'gzip',
      header: [`Authorization Bearer ${env('CRAWL_TOKEN')}`],
      tls: 'on',
    });
    expect(output.retry_limit).toBeGreaterThan(0);
  });
});

// Filebeat: the filestream input and the Logstash output (https://www.elastic.co/docs/reference/beats/filebeat/
// filebeat-input-filestream, .../logstash-output, .../configuring-internal-queue). Logstash: the
// beats input, json and mutate filters and http output (https://www.elastic.co/docs/reference/logstash/
// plugins/plugins-inputs-beats, -filters-json, -filters-mutate, -outputs-http).
describe('deploy/shippers/filebeat (checked against the documented schema, not run here)', () => {
  const filebeat = parse(read('filebeat/filebeat.yml'));
  const pipeline = parseLogstashPipeline(read('filebeat/logstash-ai-ingest.conf'));

  it('filebeat.yml uses only documented keys and values', () => {
    const spec: Spec = obj({
      'filebeat.inputs': list(
        obj({ type: enumOf('filestream'), id: 'string', paths: list('string'), enabled: 'boolean', parsers: 'any' }, [
          'type',
          'id',
          'paths',
        ]),
      ),
      'output.logstash': obj(
        {
          hosts: list('string'),
          bulk_max_size: 'number',
          compression_level: 'number',
          loadbalance: 'boolean',
          worker: 'number',
        },
        ['hosts'],
      ),
      'queue.mem': obj({ events: 'number', 'flush.min_events': 'number', 'flush.timeout': 'string' }),
    });
    expect(problems(filebeat, spec)).toEqual([]);
  });

  it('the Logstash pipeline uses only documented plugins, options and values', () => {
    const spec: Spec = obj({
      input: list(obj({ name: enumOf('beats'), options: obj({ host: 'string', port: 'number' }, ['port']) })),
      filter: list(
        oneOf(
          obj({ name: enumOf('json'), options: obj({ source: 'string', target: 'string' }, ['source']) }),
          obj({ name: enumOf('mutate'), options: obj({ remove_field: list('string') }) }),
        ),
      ),
      output: list(
        obj({
          name: enumOf('http'),
          options: obj(
            {
              url: 'string',
              http_method: enumOf('put', 'post', 'patch', 'delete', 'get', 'head'),
              format: enumOf('json', 'json_batch', 'form', 'message'),
              content_type: 'string',
              headers: obj({ '*': 'string' }),
              http_compression: 'boolean',
              retry_failed: 'boolean',
              retryable_codes: list('number'),
              automatic_retries: 'number',
              pool_max: 'number',
            },
            ['url', 'http_method'],
          ),
        }),
      ),
    });
    expect(problems(pipeline, spec)).toEqual([]);
  });

  it('hands the log to Logstash, which posts gzipped JSON-array batches with the bearer token', () => {
    const [input] = filebeat['filebeat.inputs'];
    expect(input.paths).toEqual([LOG_FILE]);
    const beats = pipeline.input?.[0]?.options;
    expect(filebeat['output.logstash'].hosts).toEqual([`${beats?.host}:${beats?.port}`]);
    expect(pipeline.filter?.[0]).toEqual({ name: 'json', options: { source: 'message' } });
    const http = pipeline.output?.[0]?.options;
    expect(http).toMatchObject({
      url: env('INGEST_URL'),
      http_method: 'post',
      format: 'json_batch',
      content_type: 'application/json',
      http_compression: true,
      headers: { Authorization: `Bearer ${env('CRAWL_TOKEN')}` },
    });
    // Retried: what the spec says to retry, and nothing it says not to.
    expect(http?.retryable_codes).toEqual([429, 500, 502, 503, 504]);
  });
});
