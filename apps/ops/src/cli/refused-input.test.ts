import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerScheduleJob, createQueue } from '@vt/queue';
import { apiKeyRevocationVersion, closeRedisConnection, createProducerConnection } from '@vt/redis';
import { isolatedQueuePrefix, scratchDatabase, testEnv, writeFixtureRanges } from '@vt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDatabaseUnchanged } from './testing/database-unchanged.ts';
import { opsWith } from './testing/run-ops.ts';

// Issue 33: "every operator command that refuses its input changes nothing". Each command that
// writes is run with inputs it refuses, and every table of the database is compared before and
// after (row counts and a checksum of every row), beside the documented {error: {code, message}}
// and exit code (2 for a usage error or a refused option value, 1 for anything else). The
// database is this file's own, so no other file's writes show in the comparison.

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
const queuePrefix = isolatedQueuePrefix();
const dir = mkdtempSync(join(tmpdir(), 'vt-refused-'));
let ranges = '';
const fixture = { team: '', ownerEmail: '', propertyId: '', keyId: '', memberEmail: '' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const run = (args: string[], env: Record<string, string> = {}, stdin?: string) =>
  opsWith({ env: { DATABASE_URL: scratch.url, QUEUE_PREFIX: queuePrefix, ...env }, stdin }, ...args);

/** Runs a command the CLI must refuse: its exit code and error code, and every table unchanged. */
async function refused(
  args: string[],
  expected: { exit: 1 | 2; error: string; mentions?: string },
  env: Record<string, string> = {},
  stdin?: string,
) {
  const result = await expectDatabaseUnchanged(scratch.db, undefined, () => run(args, env, stdin));
  expect(result.code, args.join(' ')).toBe(expected.exit);
  expect(result.json, args.join(' ')).toEqual({ error: { code: expected.error, message: expect.any(String) } });
  if (expected.mentions) expect(result.json.error.message).toContain(expected.mentions);
  return result.json.error.message as string;
}

beforeAll(async () => {
  scratch = await scratchDatabase('ops_refusals');
  ranges = writeFixtureRanges();
  fixture.team = 'refusals';
  fixture.ownerEmail = 'owner@refusals.example';
  fixture.memberEmail = 'member@refusals.example';
  const team = await run([
    'team',
    'create',
    '--name',
    'Refusals',
    '--slug',
    fixture.team,
    '--owner-email',
    fixture.ownerEmail,
  ]);
  expect(team.code).toBe(0);
  const member = await run(
    ['user', 'create', '--email', fixture.memberEmail, '--name', 'Mia', '--password-stdin'],
    {},
    'a long enough passphrase\n',
  );
  expect(member.code).toBe(0);
  const property = await run([
    'property',
    'create',
    '--team',
    fixture.team,
    '--name',
    'Acme',
    '--domain',
    'acme.example',
    '--plan',
    'growth',
  ]);
  fixture.propertyId = property.json.property.id;
  fixture.keyId = (await run(['key', 'create', '--team', fixture.team])).json.id;
}, 60_000);

afterAll(() => scratch?.drop());

describe('ops commands that refuse their input change nothing (issue 33)', () => {
  it('user create: a malformed email, a short or blocklisted password (an existing user keeps theirs), both password options', async () => {
    await refused(['user', 'create', '--email', 'not-an-email', '--name', 'X'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--email',
    });
    await refused(['user', 'create', '--email', fixture.memberEmail, '--name', 'Mia', '--password', 'short'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--password',
    });
    await refused(['user', 'create', '--email', fixture.memberEmail, '--name', 'Mia', '--password', '1234567890'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--password',
    });
    await refused(
      [
        'user',
        'create',
        '--email',
        'new@refusals.example',
        '--name',
        'N',
        '--password-stdin',
        '--password',
        'another long one',
      ],
      { exit: 2, error: 'usage_error' },
      {},
      'a long enough passphrase\n',
    );
  });

  it('team create: a taken slug leaves no new owner behind; a slug that is not URL-safe', async () => {
    // Before the fix the owner was created, then the slug refused: a user left over.
    await refused(
      ['team', 'create', '--name', 'Again', '--slug', fixture.team, '--owner-email', 'newcomer@refusals.example'],
      {
        exit: 1,
        error: 'slug_taken',
      },
    );
    await refused(['team', 'create', '--name', 'Bad', '--slug', 'Not A Slug', '--owner-email', 'x@refusals.example'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--slug',
    });
  });

  it('team add-member: an unknown team, an email without an account, a bad role, the last owner demoted', async () => {
    const add = (team: string, email: string, role: string) => [
      'team',
      'add-member',
      '--team',
      team,
      '--email',
      email,
      '--role',
      role,
    ];
    await refused(add('no-such-team', fixture.memberEmail, 'member'), { exit: 1, error: 'team_not_found' });
    await refused(add(fixture.team, 'nobody@refusals.example', 'member'), { exit: 1, error: 'user_not_found' });
    await refused(add(fixture.team, fixture.memberEmail, 'boss'), {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--role',
    });
    await refused(add(fixture.team, fixture.ownerEmail, 'member'), { exit: 1, error: 'last_owner' });
  });

  it('property create and set-plan: an unknown team or property, a bad plan or domain', async () => {
    const create = (team: string, domain: string, plan: string) => [
      'property',
      'create',
      '--team',
      team,
      '--name',
      'B',
      '--domain',
      domain,
      '--plan',
      plan,
    ];
    await refused(create('no-such-team', 'b.example', 'free'), { exit: 1, error: 'team_not_found' });
    await refused(create(fixture.team, 'b.example', 'gold'), {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--plan',
    });
    await refused(create(fixture.team, 'not a domain', 'free'), {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--domain',
    });
    await refused(['property', 'set-plan', '--property', UNKNOWN, '--plan', 'scale'], {
      exit: 1,
      error: 'property_not_found',
    });
    await refused(['property', 'set-plan', '--property', fixture.propertyId, '--plan', 'gold', '--lapsed'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--plan',
    });
  });

  it('key create and revoke: an unknown team, another team’s or no property, an id that is not a key; no revocation announced', async () => {
    await refused(['key', 'create', '--team', 'no-such-team'], { exit: 1, error: 'team_not_found' });
    await refused(['key', 'create', '--team', fixture.team, '--property', UNKNOWN], { exit: 1, error: 'invalid_body' });
    await refused(['key', 'create', '--team', fixture.team, '--property', 'not-a-uuid'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--property',
    });
    await refused(['key', 'create', '--team', fixture.team, '--access', 'admin'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--access',
    });
    const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    try {
      // A producer connection fails fast instead of queueing commands: wait until it is up.
      if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
      const version = await apiKeyRevocationVersion(redis, queuePrefix);
      await refused(['key', 'revoke', '--id', 'not-a-uuid'], { exit: 2, error: 'invalid_argument', mentions: '--id' });
      await refused(['key', 'revoke', '--id', UNKNOWN], { exit: 1, error: 'not_found' });
      // Read APIs are not told to drop their caches for a revocation that did not happen.
      expect(await apiKeyRevocationVersion(redis, queuePrefix)).toBe(version);
    } finally {
      await closeRedisConnection(redis);
    }
  });

  it('crawl rotate-token, disconnect, reconnect: an unknown property; rotate-token without CRAWL_TOKEN_SECRET', async () => {
    for (const command of ['rotate-token', 'disconnect', 'reconnect']) {
      await refused(['crawl', command, '--property', UNKNOWN], { exit: 1, error: 'property_not_found' });
      await refused(['crawl', command, '--property', 'nope'], { exit: 1, error: 'property_not_found' });
    }
    await refused(
      ['crawl', 'rotate-token', '--property', fixture.propertyId],
      { exit: 1, error: 'not_configured' },
      { CRAWL_TOKEN_SECRET: '' },
    );
  });

  it('answers import: a missing file, a directory, and a file whose every line is refused store nothing', async () => {
    await refused(['answers', 'import', '--file', join(dir, 'missing.ndjson')], { exit: 1, error: 'file_unreadable' });
    await refused(['answers', 'import', '--file', dir], { exit: 1, error: 'file_unreadable' });
    // Refused lines are refused one by one (docs/operators.md): the command succeeds, and a
    // refused line leaves nothing behind, not even the prompt it named.
    const lines = join(dir, 'all-refused.ndjson');
    const line = {
      propertyId: fixture.propertyId,
      prompt: 'refused prompt?',
      model: 'chatgpt',
      date: '2026-01-01',
      answer: 'Acme.',
    };
    writeFileSync(
      lines,
      [
        '{ not json',
        JSON.stringify({ ...line, model: 'grok' }),
        JSON.stringify({ ...line, date: '2999-01-01' }),
        JSON.stringify({ ...line, propertyId: UNKNOWN }),
        JSON.stringify({ ...line, answer: '' }),
        JSON.stringify({ ...line, __proto__: { polluted: true }, extra: 1 }),
      ].join('\n'),
    );
    const result = await expectDatabaseUnchanged(scratch.db, undefined, () =>
      run(['answers', 'import', '--file', lines]),
    );
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ imported: 0, replaced: 0 });
    expect(result.json.rejected.map((r: { line: number }) => r.line)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('answers collect: a day that is not a day asks the collector nothing', async () => {
    await refused(['answers', 'collect', '--day', 'tomorrow'], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--day',
    });
    const redis = createProducerConnection({ redisUrl: testEnv.REDIS_URL, onError: () => {} });
    const queue = createQueue(answerScheduleJob, redis, queuePrefix);
    try {
      expect(await queue.getJobCountByTypes('waiting', 'delayed', 'active', 'completed', 'failed')).toBe(0);
    } finally {
      await queue.close();
      await closeRedisConnection(redis);
    }
  });

  it('demo seed: without CRAWL_TOKEN_SECRET (the demo key and password derive from it), or with an unknown option', async () => {
    await refused(
      ['demo', 'seed'],
      { exit: 1, error: 'not_configured', mentions: 'CRAWL_TOKEN_SECRET' },
      { CRAWL_TOKEN_SECRET: '' },
    );
    await refused(['demo', 'seed', '--days', '3'], { exit: 2, error: 'usage_error' });
  });

  it('db partitions and db migrate: a retention that is not a whole number of hours, a database URL that is not one', async () => {
    await refused(
      ['db', 'partitions'],
      { exit: 1, error: 'invalid_config', mentions: 'CRAWL_EVENT_RETENTION_HOURS' },
      {
        CRAWL_EVENT_RETENTION_HOURS: '1.5',
      },
    );
    await refused(
      ['db', 'migrate'],
      { exit: 1, error: 'invalid_config', mentions: 'DATABASE_URL' },
      { DATABASE_URL: 'mysql://x' },
    );
  });

  it('export --out: a refused range or property leaves the file there as it was, and no partial file', async () => {
    const out = join(dir, 'kept.csv');
    writeFileSync(out, 'the operator’s earlier export\n');
    const exportTo = (property: string, from: string, to: string) => [
      'export',
      'leads',
      '--property',
      property,
      '--from',
      from,
      '--to',
      to,
      '--out',
      out,
    ];
    await refused(exportTo(fixture.propertyId, '2026-04-02', '2026-04-01'), {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--from',
    });
    await refused(exportTo(UNKNOWN, '2026-04-01', '2026-04-02'), { exit: 1, error: 'property_not_found' });
    expect(readFileSync(out, 'utf8')).toBe('the operator’s earlier export\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('docs config --write: a page without the config markers, or no page, is refused in the envelope and left as it was', async () => {
    const page = join(dir, 'no-markers.md');
    writeFileSync(page, '# Operators\n\nNo markers here.\n');
    const message = await refused(['docs', 'config', '--write', page], {
      exit: 2,
      error: 'invalid_argument',
      mentions: 'markers',
    });
    expect(message).not.toMatch(/\n\s+at /);
    expect(readFileSync(page, 'utf8')).toBe('# Operators\n\nNo markers here.\n');
    await refused(['docs', 'config', '--write', join(dir, 'missing.md')], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--write',
    });
    expect(existsSync(join(dir, 'missing.md'))).toBe(false);
  });

  /** A --from directory: the fixture IP ranges, and what `extra` writes into it. */
  function fromDir(extra: (root: string) => void) {
    const root = mkdtempSync(join(tmpdir(), 'vt-refused-from-'));
    cpSync(ranges, root, { recursive: true });
    extra(root);
    return root;
  }

  it('crawlers refresh --from: a catalogue list or a key directory that does not parse stores nothing, the ranges included', async () => {
    const badList = fromDir((root) => {
      mkdirSync(join(root, 'catalogue'));
      writeFileSync(join(root, 'catalogue', 'robots.json'), '{ not json');
      writeFileSync(
        join(root, 'catalogue', 'crawler-user-agents.json'),
        JSON.stringify([{ pattern: 'RefusedAIBot\\/', tags: ['ai-crawler'] }]),
      );
    });
    await refused(['crawlers', 'refresh', '--from', badList], {
      exit: 1,
      error: 'invalid_catalogue_file',
      mentions: 'robots.json',
    });

    const badKeys = fromDir((root) => {
      mkdirSync(join(root, 'keys'));
      writeFileSync(join(root, 'keys', 'openai.json'), JSON.stringify({ keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }] }));
      mkdirSync(join(root, 'catalogue'));
      writeFileSync(
        join(root, 'catalogue', 'crawler-user-agents.json'),
        JSON.stringify([{ pattern: 'RefusedAIBot\\/', tags: ['ai-crawler'] }]),
      );
    });
    await refused(['crawlers', 'refresh', '--from', badKeys], {
      exit: 1,
      error: 'invalid_key_directory',
      mentions: 'openai.json',
    });

    const noRanges = fromDir((root) => {
      for (const name of readdirSync(root)) if (name.endsWith('.json')) writeFileSync(join(root, name), '[]');
    });
    await refused(['crawlers', 'refresh', '--from', noRanges], { exit: 1, error: 'invalid_ranges_file' });
    await refused(['crawlers', 'refresh', '--from', join(dir, 'no-such-dir')], {
      exit: 2,
      error: 'invalid_argument',
      mentions: '--from',
    });

    // The same directory without the bad file is taken whole: the refusals were the files', not the command's.
    const { publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(
      join(badKeys, 'keys', 'openai.json'),
      JSON.stringify({ keys: [publicKey.export({ format: 'jwk' })] }),
    );
    const ok = await run(['crawlers', 'refresh', '--from', badKeys]);
    expect(ok.code, JSON.stringify(ok.json)).toBe(0);
    expect(ok.json.catalogue.added.map((a: { name: string }) => a.name)).toEqual(['RefusedAIBot']);
    expect(await scratch.db.signatureKeyDirectory.count()).toBe(1);
  });
});
