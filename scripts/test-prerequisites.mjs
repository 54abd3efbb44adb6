// What `pnpm test` needs on the machine, checked before anything slow starts: Postgres and Redis
// answering, and the programs the suites run as real peers (redis-server for the fault suite's own
// Redis, Chromium for the console's browser tests, nginx and apache2 for the log-shipper recipes,
// prometheus and promtool for the monitoring tests, util-linux's `script` for the CLI's terminal
// test), and Postgres letting replication connections in from loopback (the read replica tests).
// A missing one used to fail its test after a time-out, in the middle of a 10-minute run.
//
// As root on Debian (CI, a fresh machine) it installs the missing programs and starts a stopped
// local Postgres or Redis, as `.ci/run` always did; elsewhere it stops in a second with the one
// command that installs the rest.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';

const databaseUrl = new URL(process.env.TEST_DATABASE_BASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/**
 * The programs, where the tests look for them, and the Debian package that has each. Prometheus
 * comes without its recommended packages (a node exporter and more the tests do not use), the
 * rest with theirs (Chromium's fonts: the browser tests take screenshots), as `.ci/run` had them.
 */
const PROGRAMS = [
  { name: 'redis-server', path: 'redis-server', pkg: 'redis-server' },
  { name: 'Chromium', path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium' },
  { name: 'nginx', path: '/usr/sbin/nginx', pkg: 'nginx' },
  { name: 'apache2', path: '/usr/sbin/apache2', pkg: 'apache2' },
  { name: 'prometheus', path: 'prometheus', pkg: 'prometheus', withoutRecommends: true },
  { name: 'promtool', path: 'promtool', pkg: 'prometheus', withoutRecommends: true },
  { name: 'script (util-linux)', path: 'script', pkg: 'util-linux' },
];

const isExecutable = (path) => {
  const candidates = path.includes('/') ? [path] : (process.env.PATH ?? '').split(':').map((dir) => `${dir}/${path}`);
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
};

/** Whether something accepts TCP connections at host:port within a second. */
const answers = (host, port) =>
  new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port), host, () => done(true));
  });

const isLocal = (url) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
/** Root where apt-get is (CI, a fresh machine): installs and starts what is missing, as .ci/run did. */
const asMachineAdmin = process.getuid?.() === 0 && isExecutable('apt-get');
const say = (line) => process.stdout.write(`[test prerequisites] ${line}\n`);

/** A server just started takes a moment to listen; 10 s is ample for either. */
async function waitFor(host, port) {
  for (let i = 0; i < 50; i++) {
    if (await answers(host, port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Starts a stopped local Postgres or Redis as `.ci/run` does, where that is possible. */
async function startServices() {
  const problems = [];
  const pg = { host: databaseUrl.hostname, port: databaseUrl.port || '5432' };
  if (!(await answers(pg.host, pg.port))) {
    const clusters = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
    const start = ['pg_ctlcluster', '--skip-systemctl-redirect', clusters[0] ?? '<version>', 'main', 'start'];
    let started = false;
    if (isLocal(databaseUrl) && asMachineAdmin && clusters.length > 0 && isExecutable('pg_ctlcluster')) {
      say('starting Postgres');
      started = spawnSync(start[0], start.slice(1), { stdio: 'inherit' }).status === 0;
    }
    if (!(started && (await waitFor(pg.host, pg.port)))) {
      problems.push(
        `Postgres does not answer at ${pg.host}:${pg.port} (TEST_DATABASE_BASE_URL); start it: sudo ${start.join(' ')}`,
      );
    }
  }
  const redis = { host: redisUrl.hostname, port: redisUrl.port || '6379' };
  if (!(await answers(redis.host, redis.port))) {
    const start = ['redis-server', '--daemonize', 'yes', '--bind', '127.0.0.1', '--port', redis.port];
    let started = false;
    if (isLocal(redisUrl) && asMachineAdmin && isExecutable('redis-server')) {
      say('starting Redis');
      const args = [...start.slice(1), '--save', '', '--appendonly', 'no'];
      started = spawnSync(start[0], args, { stdio: 'inherit' }).status === 0;
    }
    if (!(started && (await waitFor(redis.host, redis.port)))) {
      problems.push(
        `Redis does not answer at ${redis.host}:${redis.port} (TEST_REDIS_URL); start it: ${start.join(' ')}`,
      );
    }
  }
  return problems;
}

/**
 * The read replica tests (`startStreamingReplica` in packages/test-support) copy the local Postgres
 * with pg_basebackup over loopback, which Postgres refuses unless pg_hba.conf lets replication
 * connections in: Debian's default file has such lines, trimmed ones often lack them. As root
 * with a local cluster, the loopback line is added (trust, as the cluster's loopback `all` line)
 * and the configuration reloaded; elsewhere the line to add is named.
 */
function allowLoopbackReplication() {
  if (!isLocal(databaseUrl) || !isExecutable('psql')) return [];
  const psql = (sql) =>
    spawnSync('psql', ['-h', databaseUrl.hostname, '-p', databaseUrl.port || '5432', '-U', 'postgres', '-Atc', sql], {
      encoding: 'utf8',
    });
  const rules = psql(
    "SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database) AND (type = 'local' OR address = '127.0.0.1')",
  );
  if (rules.status !== 0 || Number(rules.stdout.trim()) > 0) return [];
  const hbaFile = psql('SHOW hba_file').stdout.trim();
  const line = 'host replication postgres 127.0.0.1/32 trust';
  if (asMachineAdmin && hbaFile !== '') {
    say(`letting loopback replication connections into Postgres (${hbaFile})`);
    writeFileSync(hbaFile, `\n# The read replica tests (pg_basebackup over loopback).\n${line}\n`, { flag: 'a' });
    if (psql('SELECT pg_reload_conf()').status === 0) return [];
  }
  return [`Postgres refuses replication connections from 127.0.0.1; add to ${hbaFile || 'pg_hba.conf'}: ${line}`];
}

/**
 * apt-get install, with the packages' own services kept from starting (nginx and apache2 would
 * both want port 80, and the tests run their own instances of each).
 */
function aptInstall(programs) {
  const packages = (recommends) => [
    ...new Set(programs.filter((p) => !p.withoutRecommends === recommends).map((p) => p.pkg)),
  ];
  say(`installing ${[...packages(true), ...packages(false)].join(', ')} (Debian packages)`);
  const policy = '/usr/sbin/policy-rc.d';
  const addedPolicy = !existsSync(policy);
  if (addedPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const install = (args) =>
      execFileSync('apt-get', ['install', '-y', '-qq', ...args], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    if (packages(true).length > 0) install(packages(true));
    if (packages(false).length > 0) install(['--no-install-recommends', ...packages(false)]);
  } finally {
    if (addedPolicy) rmSync(policy, { force: true });
  }
}

const missing = () => PROGRAMS.filter((program) => !isExecutable(program.path));
let absent = missing();
if (absent.length > 0 && asMachineAdmin) {
  aptInstall(absent);
  absent = missing();
}
const problems = [
  ...(await startServices()),
  ...allowLoopbackReplication(),
  ...absent.map((program) => `${program.name} is not installed`),
];
if (problems.length > 0) {
  process.stderr.write(`pnpm test cannot run on this machine yet:\n${problems.map((p) => `- ${p}\n`).join('')}`);
  if (absent.length > 0) {
    const packages = [...new Set(absent.map((program) => program.pkg))].join(' ');
    process.stderr.write(`Install them with:\n  sudo apt-get install -y ${packages}\n`);
  }
  process.exit(1);
}
