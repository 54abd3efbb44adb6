import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  APP_CONFIG_SCHEMAS,
  ConfigError,
  consoleConfigSchema,
  crawlWorkerConfigSchema,
  describeConfig,
  ingestGatewayConfigSchema,
  notifierConfigSchema,
  opsConfigSchema,
  parseConfig,
  readApiConfigSchema,
} from './index.ts';

describe('parseConfig', () => {
  it('reads the Redis Cluster and shard variables; one Redis and one shard by default', () => {
    const defaults = parseConfig('crawl-worker', crawlWorkerConfigSchema, {});
    expect(defaults.REDIS_CLUSTER_NODES).toBeUndefined();
    expect(defaults.QUEUE_SHARDS_CONSUMED).toBeUndefined();
    expect(defaults.QUEUE_SHARDS).toBe(1);
    expect(
      parseConfig('crawl-worker', crawlWorkerConfigSchema, {
        REDIS_CLUSTER_NODES: '127.0.0.1:7000, redis-b:7001',
        QUEUE_SHARDS: '4',
        QUEUE_SHARDS_CONSUMED: '3,1,1',
      }),
    ).toMatchObject({
      REDIS_CLUSTER_NODES: [
        { host: '127.0.0.1', port: 7000 },
        { host: 'redis-b', port: 7001 },
      ],
      QUEUE_SHARDS: 4,
      QUEUE_SHARDS_CONSUMED: [1, 3],
    });
    expect(parseConfig('ingest-gateway', ingestGatewayConfigSchema, {}).REDIS_DURABILITY).toBe('fast');
  });

  it('refuses a worker of a shard that does not exist, a bad node list and an unknown durability', () => {
    expect(() =>
      parseConfig('crawl-worker', crawlWorkerConfigSchema, { QUEUE_SHARDS: '2', QUEUE_SHARDS_CONSUMED: '0,2' }),
    ).toThrow(/QUEUE_SHARDS_CONSUMED.*shard 2, but QUEUE_SHARDS is 2/);
    expect(() => parseConfig('crawl-worker', crawlWorkerConfigSchema, { REDIS_CLUSTER_NODES: '127.0.0.1' })).toThrow(
      /REDIS_CLUSTER_NODES/,
    );
    expect(() => parseConfig('ingest-gateway', ingestGatewayConfigSchema, { REDIS_DURABILITY: 'maybe' })).toThrow(
      /REDIS_DURABILITY/,
    );
  });

  it('applies the documented defaults when nothing is set', () => {
    const config = parseConfig('read-api', readApiConfigSchema, {});
    expect(config.READ_API_PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/visibility');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.QUEUE_PREFIX).toBe('{vt}');
    expect(config.DATABASE_POOL_MAX).toBe(10);
  });

  it('names every bad variable in the message', () => {
    try {
      parseConfig('read-api', readApiConfigSchema, { READ_API_PORT: 'eighty', DATABASE_POOL_MAX: '-1' });
      expect.unreachable('should have thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as ConfigError).message;
      expect(message).toContain('read-api: invalid configuration');
      expect(message).toContain('READ_API_PORT');
      expect(message).toContain('"eighty"');
      expect(message).toContain('DATABASE_POOL_MAX');
      expect((err as ConfigError).issues.map((i) => i.variable).sort()).toEqual(['DATABASE_POOL_MAX', 'READ_API_PORT']);
    }
  });

  it('[LEAD-17] keeps webhook secret rotation deployment-wide unless the console and ops opt in to property', () => {
    expect(parseConfig('console', consoleConfigSchema, {}).WEBHOOK_SECRET_ROTATION).toBe('deployment');
    expect(parseConfig('ops', opsConfigSchema, {}).WEBHOOK_SECRET_ROTATION).toBe('deployment');
    expect(
      parseConfig('console', consoleConfigSchema, { WEBHOOK_SECRET_ROTATION: 'property' }).WEBHOOK_SECRET_ROTATION,
    ).toBe('property');
    expect(() => parseConfig('ops', opsConfigSchema, { WEBHOOK_SECRET_ROTATION: 'per-property' })).toThrow(
      /WEBHOOK_SECRET_ROTATION.*must be deployment or property/,
    );
    // The gateway verifies whatever rotation a property's row holds: it has no such setting.
    expect(ingestGatewayConfigSchema.shape).not.toHaveProperty('WEBHOOK_SECRET_ROTATION');
  });

  it('takes a signing key rotation’s overlap only whole: the previous key with when it stops verifying', () => {
    const previous = 'p'.repeat(32);
    const config = parseConfig('ingest-gateway', ingestGatewayConfigSchema, {
      WEBHOOK_SIGNING_KEY: 'n'.repeat(32),
      WEBHOOK_SIGNING_KEY_PREVIOUS: previous,
      WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL: '2026-12-01T00:00:00Z',
    });
    expect(config.WEBHOOK_SIGNING_KEY_PREVIOUS).toBe(previous);
    expect(config.WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL).toEqual(new Date('2026-12-01T00:00:00Z'));
    const refused = (env: Record<string, string>) => {
      try {
        parseConfig('ingest-gateway', ingestGatewayConfigSchema, env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        expect((err as ConfigError).message).not.toContain(previous);
        return (err as ConfigError).issues.map((issue) => issue.variable);
      }
      return expect.unreachable('should have thrown');
    };
    expect(refused({ WEBHOOK_SIGNING_KEY_PREVIOUS: previous })).toEqual(['WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL']);
    expect(refused({ WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL: '2026-12-01T00:00:00Z' })).toEqual([
      'WEBHOOK_SIGNING_KEY_PREVIOUS',
    ]);
    expect(
      refused({ WEBHOOK_SIGNING_KEY_PREVIOUS: previous, WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL: 'next tuesday' }),
    ).toEqual(['WEBHOOK_SIGNING_KEY_PREVIOUS_UNTIL']);
  });

  it('never echoes a secret or a URL that may hold a password', () => {
    const run = () =>
      parseConfig('ingest-gateway', ingestGatewayConfigSchema, {
        CRAWL_TOKEN_SECRET: 'short-secret',
        DATABASE_URL: 'mysql://root:hunter2@db/x',
      });
    expect(run).toThrow(/CRAWL_TOKEN_SECRET/);
    expect(run).toThrow(/DATABASE_URL/);
    expect(run).not.toThrow(/short-secret/);
    expect(run).not.toThrow(/hunter2/);
  });

  it('treats an empty value as unset, so `PORT=` in a .env file falls back to the default', () => {
    const config = parseConfig('read-api', readApiConfigSchema, { READ_API_PORT: '' });
    expect(config.READ_API_PORT).toBe(3000);
  });

  it('takes READ_DATABASE_URL only as a postgresql:// URL, unset (or empty) meaning no replica', () => {
    expect(parseConfig('read-api', readApiConfigSchema, {}).READ_DATABASE_URL).toBeUndefined();
    expect(parseConfig('console', consoleConfigSchema, { READ_DATABASE_URL: '' }).READ_DATABASE_URL).toBeUndefined();
    const url = 'postgresql://reader@10.0.0.2:5432/visibility';
    expect(parseConfig('read-api', readApiConfigSchema, { READ_DATABASE_URL: url }).READ_DATABASE_URL).toBe(url);
    for (const bad of ['mysql://replica/visibility', 'replica:5432', 'not a url']) {
      expect(() => parseConfig('read-api', readApiConfigSchema, { READ_DATABASE_URL: bad })).toThrow(
        /READ_DATABASE_URL/,
      );
    }
  });

  it('refuses a queue prefix that is not a Redis Cluster hash tag', () => {
    expect(() => parseConfig('read-api', readApiConfigSchema, { QUEUE_PREFIX: 'vt' })).toThrow(/QUEUE_PREFIX/);
  });

  it('reports a required variable that is missing as not set', () => {
    const schema = z.object({ NEEDED: z.string() });
    expect(() => parseConfig('x', schema, {})).toThrow(/NEEDED: is required but not set/);
  });
});

describe('the notifier’s mail settings', () => {
  const refused = (schema: z.ZodObject, env: Record<string, string>) => {
    try {
      parseConfig('notifier', schema, env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).message;
    }
    return expect.unreachable('should have thrown');
  };

  it('takes an smtp:// or smtps:// URL with credentials, and a From with or without a name', () => {
    const config = parseConfig('notifier', notifierConfigSchema, {
      SMTP_URL: 'smtps://mailer:p%40ss@smtp.example.com:465',
      MAIL_FROM: 'Acme Alerts <alerts@acme.example>',
    });
    expect(config.SMTP_URL).toBe('smtps://mailer:p%40ss@smtp.example.com:465');
    expect(config.NOTIFIER_PORT).toBe(9104);
    expect(parseConfig('notifier', notifierConfigSchema, { MAIL_FROM: 'alerts@acme.example' }).MAIL_FROM).toBe(
      'alerts@acme.example',
    );
  });

  it('refuses another scheme or no host, naming SMTP_URL and never echoing its password', () => {
    for (const url of ['http://mail.example.com', 'smtp://', 'mail.example.com:25', 'smtp://user:hunter2@']) {
      const message = refused(notifierConfigSchema, { SMTP_URL: url });
      expect(message).toContain('SMTP_URL: must be an smtp:// or smtps:// URL with a host');
      expect(message).not.toContain('hunter2');
    }
  });

  it('refuses a From that is not an address, or that would add a header', () => {
    for (const from of ['alerts', 'Acme <alerts>', 'alerts@acme.example\r\nBcc: all@example.com']) {
      expect(refused(notifierConfigSchema, { MAIL_FROM: from })).toContain('MAIL_FROM: must be an address');
    }
  });

  it('lets the console read a mail catcher on this machine only', () => {
    const config = parseConfig('console', consoleConfigSchema, { MAIL_CATCHER_URL: 'http://127.0.0.1:8025/' });
    expect(config.MAIL_CATCHER_URL).toBe('http://127.0.0.1:8025');
    expect(parseConfig('console', consoleConfigSchema, {}).MAIL_CATCHER_URL).toBeUndefined();
    for (const url of ['http://10.0.0.5:8025', 'http://mailpit:8025', 'https://127.0.0.1:8025', 'file:///etc']) {
      expect(refused(consoleConfigSchema, { MAIL_CATCHER_URL: url })).toContain('MAIL_CATCHER_URL');
    }
  });
});

describe('describeConfig', () => {
  it('lists every variable of every app with its default and a description', () => {
    for (const schema of Object.values(APP_CONFIG_SCHEMAS)) {
      const variables = describeConfig(schema);
      expect(variables.map((v) => v.name).sort()).toEqual(Object.keys(schema.shape).sort());
      for (const v of variables) expect(v.description, v.name).not.toBe('');
    }
    const gateway = describeConfig(ingestGatewayConfigSchema);
    expect(gateway.find((v) => v.name === 'INGEST_GATEWAY_PORT')?.default).toBe('3001');
    expect(gateway.find((v) => v.name === 'CRAWL_TOKEN_SECRET')?.default).toBeUndefined();
  });
});
