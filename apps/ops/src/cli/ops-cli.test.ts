import { verifyPassword } from '@vt/accounts';
import {
  deriveCrawlToken,
  deriveWebhookSecret,
  hashApiKey,
  isWellFormedApiKey,
  verifyCrawlToken,
} from '@vt/credentials';
import { runScript, testDb, testEnv, uniqueSlug } from '@vt/test-support';
import { describe, expect, it } from 'vitest';
import { ops, opsWithStdin } from './testing/run-ops.ts';

async function newTeam() {
  const slug = uniqueSlug('team');
  const { json } = await ops(
    'team',
    'create',
    '--name',
    'Acme',
    '--slug',
    slug,
    '--owner-email',
    `${slug}@Example.com`,
  );
  return { slug, team: json.team, owner: json.owner };
}

describe('ops team and user commands', () => {
  const db = testDb();

  it('team create makes the owner (created if missing, email lower-cased) the team owner', async () => {
    const { slug, team, owner } = await newTeam();
    expect(team.slug).toBe(slug);
    expect(owner.email).toBe(`${slug}@example.com`);
    const membership = await db.membership.findUniqueOrThrow({
      where: { teamId_userId: { teamId: team.id, userId: owner.id } },
    });
    expect(membership.role).toBe('owner');
  });

  it('team create refuses a taken slug and a slug that is not URL-safe', async () => {
    const { slug } = await newTeam();
    const taken = await ops('team', 'create', '--name', 'Other', '--slug', slug, '--owner-email', 'x@example.com');
    expect(taken.code).toBe(1);
    expect(taken.json.error.code).toBe('slug_taken');
    const bad = await ops('team', 'create', '--name', 'Bad', '--slug', 'Not A Slug', '--owner-email', 'x@example.com');
    expect(bad.json.error).toMatchObject({ code: 'invalid_argument' });
    expect(bad.json.error.message).toContain('--slug');
  });

  it('user create and team add-member set and change a role', async () => {
    const { slug, team } = await newTeam();
    const email = `${uniqueSlug('member')}@example.com`;
    const created = await ops('user', 'create', '--email', email, '--name', 'Mia Member');
    expect(created.json).toMatchObject({ created: true, user: { email, name: 'Mia Member' } });
    expect((await ops('user', 'create', '--email', email, '--name', 'Again')).json.created).toBe(false);

    expect((await ops('team', 'add-member', '--team', slug, '--email', email, '--role', 'member')).json.role).toBe(
      'member',
    );
    expect((await ops('team', 'add-member', '--team', slug, '--email', email, '--role', 'admin')).json.role).toBe(
      'admin',
    );
    expect(await db.membership.count({ where: { teamId: team.id } })).toBe(2);

    const unknown = await ops('team', 'add-member', '--team', slug, '--email', 'nobody@example.com', '--role', 'admin');
    expect(unknown.json.error.code).toBe('user_not_found');
    const badRole = await ops('team', 'add-member', '--team', slug, '--email', email, '--role', 'boss');
    expect(badRole.json.error.message).toContain('--role');
  });
});

describe('ops user create --password-stdin', () => {
  const db = testDb();
  const hashOf = async (email: string) => (await db.user.findUniqueOrThrow({ where: { email } })).passwordHash;
  /** `ops user create` for `email` with `--password-stdin`, `piped` on stdin, and any other arguments. */
  const createWithStdin = (piped: string, email: string, ...more: string[]) =>
    opsWithStdin(piped, 'user', 'create', '--email', email, '--name', 'Pia', '--password-stdin', ...more);

  it('sets the password from the first line piped in, never from an argument', async () => {
    const email = `${uniqueSlug('stdin')}@example.com`;
    expect((await createWithStdin('correct horse battery\nignored line\n', email)).code).toBe(0);
    expect(await verifyPassword(await hashOf(email), 'correct horse battery')).toBe(true);
    // Run again with another password: the operator's reset, as with --password.
    expect((await createWithStdin('another long password\r\n', email)).code).toBe(0);
    expect(await verifyPassword(await hashOf(email), 'another long password')).toBe(true);
  });

  it('refuses both ways at once, and nothing piped in, as usage errors that change nothing', async () => {
    const email = `${uniqueSlug('stdin')}@example.com`;
    const both = await createWithStdin('correct horse battery\n', email, '--password', 'another long password');
    expect(both.code).toBe(2);
    expect(both.json.error.code).toBe('usage_error');
    const empty = await createWithStdin('', email);
    expect(empty.code).toBe(2);
    expect(empty.json.error.message).toContain('--password-stdin');
    expect(await db.user.findUnique({ where: { email } })).toBeNull();
  });
});

describe('ops property commands', () => {
  const db = testDb();

  it('property create prints the id, the crawl ingest URL and token, the webhook URL and signing secret', async () => {
    const { slug } = await newTeam();
    const { code, json } = await ops(
      'property',
      'create',
      '--team',
      slug,
      '--name',
      'Acme',
      '--domain',
      'https://WWW.Acme.Example:8443/about',
      '--plan',
      'growth',
    );
    expect(code).toBe(0);
    const id = json.property.id;
    expect(json.property).toMatchObject({
      domain: 'acme.example',
      plan: 'growth',
      subscriptionStatus: 'active',
      brandTerms: ['Acme'],
    });
    expect(json.crawl.ingestUrl).toBe(`https://ingest.example.test/api/ingest/crawl/${id}`);
    expect(json.crawl.token).toBe(deriveCrawlToken(testEnv.CRAWL_TOKEN_SECRET, id, 1));
    expect(json.webhook.url).toBe(`https://ingest.example.test/api/webhooks/leads/${id}`);
    expect(json.webhook.signingSecret).toBe(deriveWebhookSecret(testEnv.WEBHOOK_SIGNING_KEY, id));
    // Derived, not stored: no column of the property holds either credential.
    const row = JSON.stringify(await db.property.findUniqueOrThrow({ where: { id } }));
    expect(row).not.toContain(json.crawl.token);
    expect(row).not.toContain(json.webhook.signingSecret);
  });

  it('property create and set-location keep where the buyers are, canonical; a bad code is refused naming the option, changing nothing', async () => {
    const { slug } = await newTeam();
    const created = await ops(
      ...['property', 'create', '--team', slug, '--name', 'Acme', '--domain', 'acme-de.example', '--plan', 'growth'],
      ...['--country', 'de', '--language', 'de-at'],
    );
    expect(created.code).toBe(0);
    expect(created.json.property).toMatchObject({ country: 'DE', language: 'de-AT' });
    const id = created.json.property.id as string;
    const bad = await ops('property', 'set-location', '--property', id, '--country', 'UK', '--language', 'en');
    expect(bad.code).not.toBe(0);
    expect(bad.json.error.message).toContain('--country');
    expect(await db.property.findUniqueOrThrow({ where: { id } })).toMatchObject({ country: 'DE', language: 'de-AT' });
    const cleared = await ops('property', 'set-location', '--property', id, '--country', 'none', '--language', 'pt-br');
    expect(cleared.json.property).toMatchObject({ country: null, language: 'pt-BR' });
    expect(await db.property.findUniqueOrThrow({ where: { id } })).toMatchObject({ country: null, language: 'pt-BR' });
  });

  it('property create refuses an unknown plan, a bad domain and an unknown team, naming the option', async () => {
    const { slug } = await newTeam();
    const plan = await ops(
      'property',
      'create',
      '--team',
      slug,
      '--name',
      'A',
      '--domain',
      'a.example',
      '--plan',
      'gold',
    );
    expect(plan.json.error.message).toContain('--plan');
    const domain = await ops(
      'property',
      'create',
      '--team',
      slug,
      '--name',
      'A',
      '--domain',
      'not a domain',
      '--plan',
      'free',
    );
    expect(domain.json.error.message).toContain('--domain');
    const team = await ops(
      'property',
      'create',
      '--team',
      'no-such-team',
      '--name',
      'A',
      '--domain',
      'a.example',
      '--plan',
      'free',
    );
    expect(team.json.error.code).toBe('team_not_found');
  });

  it('property set-plan changes the plan and marks the subscription lapsed or active', async () => {
    const { slug } = await newTeam();
    const { json } = await ops(
      'property',
      'create',
      '--team',
      slug,
      '--name',
      'A',
      '--domain',
      'a.example',
      '--plan',
      'free',
    );
    const id = json.property.id;
    const lapsed = await ops('property', 'set-plan', '--property', id, '--plan', 'scale', '--lapsed');
    expect(lapsed.json.property).toMatchObject({ plan: 'scale', subscriptionStatus: 'lapsed' });
    const active = await ops('property', 'set-plan', '--property', id, '--plan', 'starter');
    expect(active.json.property).toMatchObject({ plan: 'starter', subscriptionStatus: 'active' });
    expect((await ops('property', 'set-plan', '--property', 'nope', '--plan', 'starter')).json.error.code).toBe(
      'property_not_found',
    );
  });

  it('[CRAWL-3] crawl rotate-token issues a new token and the old one stops verifying at once', async () => {
    const { slug } = await newTeam();
    const { json } = await ops(
      'property',
      'create',
      '--team',
      slug,
      '--name',
      'A',
      '--domain',
      'a.example',
      '--plan',
      'growth',
    );
    const rotated = await ops('crawl', 'rotate-token', '--property', json.property.id);
    expect(rotated.json.tokenVersion).toBe(2);
    expect(rotated.json.token).not.toBe(json.crawl.token);
    const stored = await db.property.findUniqueOrThrow({ where: { id: json.property.id } });
    expect(verifyCrawlToken(testEnv.CRAWL_TOKEN_SECRET, stored.id, stored.crawlTokenVersion, json.crawl.token)).toBe(
      false,
    );
    expect(verifyCrawlToken(testEnv.CRAWL_TOKEN_SECRET, stored.id, stored.crawlTokenVersion, rotated.json.token)).toBe(
      true,
    );
  });

  it('[CRAWL-30] crawl disconnect switches ingestion off; reconnect switches it on and restarts verification', async () => {
    const { slug } = await newTeam();
    const { json } = await ops(
      'property',
      'create',
      '--team',
      slug,
      '--name',
      'A',
      '--domain',
      'a.example',
      '--plan',
      'growth',
    );
    const id = json.property.id;
    expect((await ops('crawl', 'disconnect', '--property', id)).json.ingestionEnabled).toBe(false);
    expect((await db.property.findUniqueOrThrow({ where: { id } })).crawlIngestionEnabled).toBe(false);
    const before = Date.now();
    expect((await ops('crawl', 'reconnect', '--property', id)).json.ingestionEnabled).toBe(true);
    const after = await db.property.findUniqueOrThrow({ where: { id } });
    expect(after.crawlIngestionEnabled).toBe(true);
    expect(after.crawlStatusSince!.getTime()).toBeGreaterThanOrEqual(before - 5);
  });
});

describe('ops key commands', () => {
  const db = testDb();

  it('[READ-13] key create prints the full key once and stores only its hash and visible prefix', async () => {
    const { slug, team } = await newTeam();
    const { json } = await ops('key', 'create', '--team', slug, '--name', 'BI tool');
    expect(isWellFormedApiKey(json.key)).toBe(true);
    expect(json).toMatchObject({ access: 'read', allProperties: true, propertyIds: [], name: 'BI tool' });
    const stored = await db.apiKey.findUniqueOrThrow({ where: { id: json.id } });
    expect(stored.teamId).toBe(team.id);
    expect(stored.keyHash).toBe(hashApiKey(json.key));
    expect(json.key.startsWith(stored.prefix)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(json.key);
  });

  it('key create scopes a key to the given properties of the team, and refuses another team’s property', async () => {
    const { slug } = await newTeam();
    const mine = await ops(
      'property',
      'create',
      '--team',
      slug,
      '--name',
      'A',
      '--domain',
      'a.example',
      '--plan',
      'growth',
    );
    const other = await newTeam();
    const theirs = await ops(
      'property',
      'create',
      '--team',
      other.slug,
      '--name',
      'B',
      '--domain',
      'b.example',
      '--plan',
      'growth',
    );

    const scoped = await ops('key', 'create', '--team', slug, '--access', 'write', '--property', mine.json.property.id);
    expect(scoped.json).toMatchObject({ access: 'write', allProperties: false, propertyIds: [mine.json.property.id] });
    const scopes = await db.apiKeyProperty.findMany({ where: { apiKeyId: scoped.json.id } });
    expect(scopes.map((s) => s.propertyId)).toEqual([mine.json.property.id]);

    const foreign = await ops('key', 'create', '--team', slug, '--property', theirs.json.property.id);
    expect(foreign.json.error.code).toBe('invalid_body');
    expect(foreign.json.error.message).toContain(': not a property of this team');
    expect(await db.apiKey.count({ where: { team: { slug } } })).toBe(1);
  });

  it('key revoke sets revokedAt, and revoking again keeps the first time', async () => {
    const { slug } = await newTeam();
    const { json } = await ops('key', 'create', '--team', slug);
    const first = await ops('key', 'revoke', '--id', json.id);
    expect(first.json.revokedAt).toEqual(expect.any(String));
    const second = await ops('key', 'revoke', '--id', json.id);
    expect(second.json.revokedAt).toBe(first.json.revokedAt);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: json.id } })).revokedAt?.toISOString()).toBe(
      first.json.revokedAt,
    );
  });
});

describe('ops as a process', () => {
  it('prints exactly one JSON object with --json, and an error object with exit code 1 on failure', async () => {
    const slug = uniqueSlug('proc');
    const ok = runScript('apps/ops/src/main.ts', [
      'team',
      'create',
      '--name',
      'P',
      '--slug',
      slug,
      '--owner-email',
      'p@example.com',
      '--json',
    ]);
    expect(await ok.exited).toBe(0);
    const lines = ok.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).team.slug).toBe(slug);

    const dup = runScript('apps/ops/src/main.ts', [
      'team',
      'create',
      '--name',
      'P',
      '--slug',
      slug,
      '--owner-email',
      'p@example.com',
      '--json',
    ]);
    expect(await dup.exited).toBe(1);
    expect(JSON.parse(dup.stdout())).toEqual({ error: { code: 'slug_taken', message: expect.any(String) } });
  });

  it('a missing required option exits 2 with commander’s message', async () => {
    const proc = runScript('apps/ops/src/main.ts', ['team', 'create', '--name', 'P']);
    expect(await proc.exited).toBe(2);
    expect(proc.stderr()).toContain("required option '--slug <slug>' not specified");
  });
});
