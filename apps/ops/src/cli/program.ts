import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ConfigError, opsConfigSchema, parseConfig } from '@vt/config';
import { OperationError } from '@vt/contracts/console';
import { createPrismaClient } from '@vt/db';
import { EXPORT_KINDS } from '@vt/exports';
import { CRAWL_CONNECTION_STATUSES } from '@vt/properties';
import { Command, CommanderError } from 'commander';
import { seedDemo } from '../demo/seed.ts';
import { withEnvFile } from '../env-file.ts';
import { importAnswersFile, requestCollection } from './commands/answers.ts';
import { createApiKey, revokeApiKey } from './commands/api-keys.ts';
import { crawlActivity, crawlLog, crawlStatus } from './commands/crawl-activity.ts';
import { disconnectCrawl, reconnectCrawl, rotateCrawlToken } from './commands/crawl-connection.ts';
import { crawlConnectionList } from './commands/crawl-connections.ts';
import { refreshCrawlerRanges } from './commands/crawler-ranges.ts';
import { maintainPartitions, migrateDatabase } from './commands/database.ts';
import { configReference, writeConfigReference } from './commands/docs-config.ts';
import { exportCsv } from './commands/export-csv.ts';
import { recentLeads, webhookLog, webhookStatus } from './commands/lead-webhook.ts';
import { createProperty, setPropertyLocation, setPropertyPlan, showProperty } from './commands/properties.ts';
import { addTeamMember, createTeam, createUser } from './commands/teams.ts';
import { rotateWebhookSecret } from './commands/webhook-secret-rotation.ts';
import type { OpsContext } from './context.ts';
import { OpsError } from './ops-error.ts';
import { type Progress, silentProgress, terminalProgress } from './progress.ts';

export interface ProgramIo {
  env: Record<string, string | undefined>;
  /** A .env file read under `env` (`env` wins), as `pnpm start` reads it; none when absent. */
  envFile?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Where bytes meant for stdout go with backpressure (`ops export`'s CSV): process.stdout. Without
   * it they go to `stdout` as text.
   */
  stdoutStream?: Writable;
  /** stdout and stderr are a terminal: long commands show progress on stderr (never under --json). */
  isTerminal?: boolean;
  /** The terminal's width, so the progress line never wraps. */
  columns?: number;
  /** Everything piped to the CLI, for options read from stdin (`--password-stdin`). */
  readStdin?: () => Promise<string>;
}

/**
 * Failures that are the command line's, not the operation's: exit code 2, as commander's own
 * (an unknown command or option, a missing option) are.
 */
const USAGE_ERRORS = new Set(['usage_error', 'invalid_argument']);

type CommandFn = (ctx: OpsContext, options: Record<string, unknown>) => Promise<unknown>;

/**
 * The operator CLI. Every command prints one JSON object: compact with --json (for scripts),
 * indented without. A failure prints `{error: {code, message}}` (on stdout with --json, as text on
 * stderr without) and sets exit code 1, or 2 for a usage error.
 */
function buildOpsProgram(io: ProgramIo, json: boolean): { program: Command; exitCode: () => number } {
  let exitCode = 0;
  const program = new Command('ops')
    .description('Operator CLI of the AI visibility tracking service')
    .exitOverride()
    // Under --json, commander's own messages (usage errors, the help it shows for a missing
    // command) are left to runOpsProgram, which prints them as one JSON object.
    .configureOutput({ writeOut: io.stdout, writeErr: json ? () => {} : io.stderr });

  const print = (value: unknown) => io.stdout(`${JSON.stringify(value, null, json ? 0 : 2)}\n`);
  /** `toStderr`: stdout already carries a command's output (a CSV), which the error must not follow. */
  const fail = (code: string, message: string, toStderr = false) => {
    exitCode = USAGE_ERRORS.has(code) ? 2 : 1;
    if (json && !toStderr) print({ error: { code, message } });
    else if (json) io.stderr(`${JSON.stringify({ error: { code, message } })}\n`);
    else io.stderr(`error (${code}): ${message}\n`);
  };
  /** stdout as a stream: the process's own, or one that hands its text to `io.stdout`. */
  const stdoutStream = () => io.stdoutStream ?? textWriter(io.stdout);
  /** The environment, over ./.env when the CLI reads one (read once, when a command needs it). */
  let env: Record<string, string | undefined> | undefined;
  const environment = () => {
    try {
      env ??= io.envFile ? withEnvFile(io.env, io.envFile) : io.env;
    } catch (err) {
      throw new OpsError('invalid_config', `cannot read ${io.envFile}: ${(err as Error).message}`);
    }
    return env;
  };
  const progressFor = (): Progress =>
    io.isTerminal && !json ? terminalProgress(io.stderr, { columns: io.columns }) : silentProgress;

  /** `--password-stdin`: the password is the first line piped in, never an argument. */
  const withPasswordFromStdin =
    (fn: CommandFn): CommandFn =>
    async (ctx, options) => {
      if (!options.passwordStdin) return fn(ctx, options);
      if (options.password !== undefined) {
        throw new OpsError('usage_error', 'give the password with --password or --password-stdin, not both');
      }
      const piped = io.readStdin ? await io.readStdin() : '';
      const password = piped.split(/\r?\n/)[0] ?? '';
      if (password === '') throw new OpsError('invalid_argument', '--password-stdin read no password from stdin');
      const { passwordStdin: _, ...rest } = options;
      return fn(ctx, { ...rest, password });
    };

  /** Runs a command function with a database connection, printing its result or its error. */
  const action = (fn: CommandFn) => async (options: Record<string, unknown>) => {
    const progress = progressFor();
    let ctx: OpsContext | undefined;
    try {
      const config = parseConfig('ops', opsConfigSchema, environment());
      ctx = { config, db: createPrismaClient({ ...config, DATABASE_POOL_MAX: 2 }, 'ops'), progress };
      const result = await fn(ctx, options);
      progress.done();
      // A command that wrote its output itself (`ops export` to stdout) returns nothing to print.
      if (result !== undefined) print(result);
    } catch (err) {
      progress.done();
      if (err instanceof OpsError) fail(err.code, err.message, err.outputBegun);
      // The shared operations' refusals, in the CLI's snake_case codes (SLUG_TAKEN → slug_taken).
      else if (err instanceof OperationError) fail(err.code.toLowerCase(), operationMessage(err));
      else if (err instanceof ConfigError) fail('invalid_config', err.message);
      else fail('internal_error', (err as Error).message);
    } finally {
      await ctx?.db.$disconnect();
    }
  };

  const sub = (parent: Command, name: string, description: string) =>
    parent.command(name).description(description).option('--json', 'print one compact JSON object');

  const user = program.command('user').description('users');
  sub(user, 'create', 'create a user (or return the existing one); --password sets their console password')
    .requiredOption('--email <email>')
    .requiredOption('--name <name>')
    .option(
      '--password <password>',
      'console sign-in password (at least 10 characters); resets it for an existing user. Shown by ps and kept in shell history: prefer --password-stdin',
    )
    .option(
      '--password-stdin',
      'read the password from stdin (its first line), where ps and shell history do not see it',
    )
    .action(action(withPasswordFromStdin(createUser)));

  const team = program.command('team').description('teams and members');
  sub(team, 'create', 'create a team; its owner is created if missing')
    .requiredOption('--name <name>')
    .requiredOption('--slug <slug>')
    .requiredOption('--owner-email <email>')
    .action(action(createTeam));
  sub(team, 'add-member', 'add a user to a team, or change their role')
    .requiredOption('--team <slug>')
    .requiredOption('--email <email>')
    .requiredOption('--role <role>', 'owner | admin | member')
    .action(action(addTeamMember));

  const property = program.command('property').description('properties (tracked brands)');
  sub(property, 'create', 'create a property; prints its crawl ingest and lead webhook credentials')
    .requiredOption('--team <slug>')
    .requiredOption('--name <name>')
    .requiredOption('--domain <domain>')
    .requiredOption('--plan <plan>', 'free | starter | growth | scale')
    .option('--brand-term <term...>', 'brand terms to match in answers (default: the name)')
    .option('--country <code>', 'ISO 3166-1 alpha-2 country its prompts are asked from (default: none)')
    .option('--language <tag>', 'BCP 47 language its prompts are asked in (default: none)')
    .action(action(createProperty));
  sub(property, 'set-location', 'where the buyers are: the country and language its prompts are asked in')
    .requiredOption('--property <id>')
    .option('--country <code>', 'ISO 3166-1 alpha-2 country (US, DE); none clears it')
    .option('--language <tag>', 'BCP 47 language (en, de, pt-BR); none clears it')
    .action(action(setPropertyLocation));
  sub(property, 'set-plan', 'change the plan; --lapsed marks the subscription lapsed')
    .requiredOption('--property <id>')
    .requiredOption('--plan <plan>', 'free | starter | growth | scale')
    .option('--lapsed', 'the subscription has lapsed')
    .action(action(setPropertyPlan));
  sub(property, 'show', 'show a property and its connection details (setup dialog)')
    .requiredOption('--property <id>')
    .action(action(showProperty));

  const key = program.command('key').description('read API keys');
  sub(key, 'create', 'create a key; the full key is printed this once')
    .requiredOption('--team <slug>')
    .option('--name <name>')
    .option('--access <access>', 'read | write')
    .option('--property <id...>', 'scope the key to these properties (default: all of the team)')
    .action(action(createApiKey));
  sub(key, 'revoke', 'revoke a key').requiredOption('--id <id>').action(action(revokeApiKey));

  const crawl = program.command('crawl').description('crawl ingest connection');
  sub(crawl, 'rotate-token', 'issue a new crawl token; the old one stops working at once')
    .requiredOption('--property <id>')
    .action(action(rotateCrawlToken));
  sub(crawl, 'disconnect', 'switch crawl ingestion off')
    .requiredOption('--property <id>')
    .action(action(disconnectCrawl));
  sub(crawl, 'reconnect', 'switch crawl ingestion back on')
    .requiredOption('--property <id>')
    .action(action(reconnectCrawl));
  sub(crawl, 'status', 'the crawl connection status, derived from the delivery log')
    .requiredOption('--property <id>')
    .action(action(crawlStatus));
  sub(crawl, 'log', 'the crawl delivery log: the 50 newest attempts')
    .requiredOption('--property <id>')
    .action(action(crawlLog));
  sub(
    crawl,
    'connections',
    "every property's crawl connection status; --status keeps one (nothing_arriving: the alert's)",
  )
    .option('--status <status>', CRAWL_CONNECTION_STATUSES.join(' | '))
    .action(action(crawlConnectionList));
  sub(crawl, 'activity', 'daily crawler hits (verified or not), crawlers, top pages, AI referrals')
    .requiredOption('--property <id>')
    .option('--days <n>', 'UTC days ending today (default: 30)')
    .action(action(crawlActivity));

  const webhook = program.command('webhook').description('lead webhook');
  sub(webhook, 'status', 'the lead webhook status, derived from the delivery log')
    .requiredOption('--property <id>')
    .action(action(webhookStatus));
  sub(webhook, 'log', 'the webhook delivery log: the 20 newest of the 50 kept')
    .requiredOption('--property <id>')
    .action(action(webhookLog));
  sub(
    webhook,
    'rotate-secret',
    "roll one property's signing secret (WEBHOOK_SECRET_ROTATION=property only); the previous one verifies through the overlap",
  )
    .requiredOption('--property <id>')
    .option('--overlap-hours <n>', 'hours the previous secret keeps verifying, 0 to 168 (default: 24)')
    .action(action(rotateWebhookSecret));
  sub(program, 'leads', 'recent leads (50 newest) and AI-attributed leads per day and platform')
    .requiredOption('--property <id>')
    .option('--days <n>', 'UTC days ending today (default: 30)')
    .action(action(recentLeads));

  const answers = program.command('answers').description('collected AI answers and their verdicts');
  sub(answers, 'import', 'import answers (one JSON object per line), judged like collected ones')
    .requiredOption('--file <file>', 'the answers file (NDJSON)')
    .action(action(importAnswersFile));

  sub(answers, 'collect', 'ask the answer collector for the questions of a UTC day now (default: today)')
    .option('--day <day>', 'YYYY-MM-DD')
    .action(action(requestCollection));

  const exports = program
    .command('export')
    .description("a property's data over UTC days as CSV, as the console exports it (stdout, or --out)");
  const exportKinds = {
    answers: 'every answer with its verdict, rank, competitors named and cited sources',
    crawlers: 'AI crawler hits per day and crawler, by verification',
    referrals: 'AI-referred visits per day, platform and landing path',
    leads: 'every lead received, with all its fields (personal data: contacts and emails)',
  } satisfies Record<(typeof EXPORT_KINDS)[number], string>;
  for (const kind of EXPORT_KINDS) {
    sub(exports, kind, exportKinds[kind])
      .requiredOption('--property <id>')
      .requiredOption('--from <day>', 'first UTC day, YYYY-MM-DD')
      .requiredOption('--to <day>', 'last UTC day, YYYY-MM-DD (at most 366 days in all)')
      .option('--out <file>', 'write the CSV to this file (whole, or not at all) and print a summary')
      .action(action((ctx, options) => exportCsv(ctx, kind, options, stdoutStream)));
  }

  const crawlers = program.command('crawlers').description('the AI crawler catalogue and IP ranges');
  sub(
    crawlers,
    'refresh',
    "merge the community AI agent lists into the catalogue and store the operators' IP ranges (fetched, or from a directory)",
  )
    .option('--from <dir>', 'read <operator>.json files from this directory instead of fetching (air-gapped)')
    .action(action(refreshCrawlerRanges));

  const demo = program.command('demo').description('demo data');
  sub(demo, 'seed', 'create the demo team and data (idempotent); prints the demo API key').action(action(seedDemo));

  const db = program.command('db').description('database');
  sub(db, 'migrate', 'create the database if missing and apply pending migrations').action(async () => {
    try {
      const config = parseConfig('ops', opsConfigSchema, environment());
      print(await migrateDatabase(config.DATABASE_URL));
    } catch (err) {
      fail(err instanceof ConfigError ? 'invalid_config' : 'migration_failed', (err as Error).message);
    }
  });
  sub(
    db,
    'partitions',
    "make the raw crawl events' day partitions of today and the week ahead; drop the days past CRAWL_EVENT_RETENTION_HOURS",
  ).action(action(maintainPartitions));

  const docs = program.command('docs').description('generated documentation');
  sub(docs, 'config', 'the configuration reference (markdown), from the config schemas')
    .option('--write <readme>', 'replace the reference between the config markers of this file')
    .action((options) => {
      try {
        if (options.write) print(writeConfigReference(options.write));
        else if (json) print({ markdown: configReference() });
        else io.stdout(configReference());
      } catch (err) {
        // The documented envelope, never a stack trace: a page without markers, one not there.
        if (err instanceof OpsError) fail(err.code, err.message);
        else fail('internal_error', (err as Error).message);
      }
    });

  return {
    program,
    exitCode: () => exitCode,
  };
}

/** A stream whose bytes reach `write` as text, split only between whole characters. */
function textWriter(write: (text: string) => void): Writable {
  const decoder = new StringDecoder('utf8');
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(decoder.write(chunk));
      done();
    },
    final(done) {
      write(decoder.end());
      done();
    },
  });
}

/** Every command's words (`crawl status`, `leads`): what the operators' table of commands lists (docs/operators.md, "Operator CLI"). */
export function opsCommandPaths(): string[] {
  const { program } = buildOpsProgram({ env: {}, stdout: () => {}, stderr: () => {} }, false);
  const walk = (command: Command, path: string[]): string[] =>
    command.commands.length === 0
      ? [path.join(' ')]
      : command.commands.flatMap((sub) => walk(sub, [...path, sub.name()]));
  return walk(program, []);
}

/** An operation's message, with the fields it names: `Some propertyIds … (propertyIds.0: not a property of this team)`. */
function operationMessage(err: OperationError): string {
  const fields = err.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
  return fields ? `${err.message} (${fields})` : err.message;
}

/**
 * Parses argv and runs; resolves with the process exit code: 0, 1 when the operation failed, 2 for
 * a usage error (commander's, or an option value the command refused). With --json every failure,
 * usage errors included, is one `{error: {code, message}}` object on stdout.
 */
export async function runOpsProgram(argv: string[], io: ProgramIo): Promise<number> {
  // --json is the whole run's mode, wherever it is written: taken out before commander parses,
  // so `ops team --json` (a group without its command) is the usage error it is, in JSON.
  const json = argv.includes('--json');
  const { program, exitCode } = buildOpsProgram(io, json);
  try {
    await program.parseAsync(
      argv.filter((arg) => arg !== '--json'),
      { from: 'user' },
    );
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.exitCode === 0) return 0; // --help, --version
    if (json) io.stdout(`${JSON.stringify({ error: { code: 'usage_error', message: usageMessage(err) } })}\n`);
    return 2;
  }
  return exitCode();
}

/** Commander's message without its `error: ` prefix; for the help shown in place of a missing command, what is missing. */
function usageMessage(err: CommanderError): string {
  if (err.code === 'commander.help') return 'a command is missing here; run it with --help to see the commands';
  return err.message.replace(/^error: /, '');
}
