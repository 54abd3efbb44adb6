import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, ROOT } from '@vt/test-support';

// Debian's nginx and apache2, run as the recipes in deploy/shippers configure them: each server
// gets a directory of its own (config, document root, pid, logs), listens on a free loopback port
// and writes the recipe's log there. `.ci/run` installs both packages; a missing binary fails.
// Debian installs both in /usr/sbin, which a non-root PATH may lack.

export const SHIPPERS = join(ROOT, 'deploy/shippers');
export const SHIP_SCRIPT = join(SHIPPERS, 'ship-crawl-log.sh');

export interface WebServer {
  port: number;
  dir: string;
  /** The file the recipe's access_log / GlobalLog lines write. */
  log: string;
  /** What the ship script runs to make the server reopen its log (REOPEN_COMMAND). */
  reopenCommand: string;
  stop(): Promise<void>;
}

/** A directory the server's unprivileged workers can read (they run as nobody / www-data under root). */
function serverDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `vt-${label}-`));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'www/docs'), { recursive: true });
  writeFileSync(join(dir, 'www/index.html'), '<h1>shop</h1>\n');
  writeFileSync(join(dir, 'www/docs/pricing'), 'pricing\n');
  writeFileSync(join(dir, 'www/style.css'), 'h1{}\n');
  return dir;
}

/** nginx with deploy/shippers/nginx/ai-ingest.conf, its log path moved into the server's directory. */
export async function startNginx(): Promise<WebServer> {
  const dir = serverDir('nginx');
  const port = await freePort();
  const recipe = readFileSync(join(SHIPPERS, 'nginx/ai-ingest.conf'), 'utf8');
  if (!recipe.includes('/var/log/nginx/ai_ingest.ndjson')) throw new Error('the nginx recipe logs elsewhere');
  writeFileSync(join(dir, 'ai-ingest.conf'), recipe.replaceAll('/var/log/nginx/', `${dir}/`));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  include ${dir}/ai-ingest.conf;
  ${temp.join('\n  ')}
  server {
    listen 127.0.0.1:${port};
    server_name shop.example;
    root ${dir}/www;
  }
}
`,
  );
  const child = spawn(
    '/usr/sbin/nginx',
    ['-e', `${dir}/error.log`, '-p', dir, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'],
    {
      stdio: 'ignore',
    },
  );
  await listening(child, port, `${dir}/error.log`);
  return server(child, port, dir, join(dir, 'ai_ingest.ndjson'), `kill -USR1 $(cat ${dir}/nginx.pid)`);
}

/**
 * apache2 with deploy/shippers/apache/ai-ingest.conf included verbatim (APACHE_LOG_DIR defined as
 * the server's directory) and a virtual host with a CustomLog of its own, as Debian's default site has.
 */
export async function startApache(): Promise<WebServer> {
  const dir = serverDir('apache');
  const port = await freePort();
  const modules = '/usr/lib/apache2/modules';
  writeFileSync(
    join(dir, 'apache2.conf'),
    `ServerRoot "${dir}"
DefaultRuntimeDir "${dir}"
PidFile "${dir}/apache2.pid"
ErrorLog "${dir}/error.log"
Listen 127.0.0.1:${port}
ServerName shop.example
LoadModule mpm_event_module ${modules}/mod_mpm_event.so
LoadModule authz_core_module ${modules}/mod_authz_core.so
LoadModule setenvif_module ${modules}/mod_setenvif.so
LoadModule dir_module ${modules}/mod_dir.so
DirectoryIndex index.html
User www-data
Group www-data
StartServers 1
Define APACHE_LOG_DIR ${dir}
LogFormat "%h %l %u %t \\"%r\\" %>s %b" common
Include ${join(SHIPPERS, 'apache/ai-ingest.conf')}
<VirtualHost 127.0.0.1:${port}>
  ServerName shop.example
  ServerAlias *.shop.example other.example
  DocumentRoot "${dir}/www"
  <Directory "${dir}/www">
    Require all granted
  </Directory>
  CustomLog "${dir}/site-access.log" common
</VirtualHost>
`,
  );
  const child = spawn('/usr/sbin/apache2', ['-f', `${dir}/apache2.conf`, '-DFOREGROUND'], { stdio: 'ignore' });
  await listening(child, port, `${dir}/error.log`);
  return server(child, port, dir, join(dir, 'ai_ingest.ndjson'), `kill -USR1 $(cat ${dir}/apache2.pid)`);
}

function server(child: ChildProcess, port: number, dir: string, log: string, reopenCommand: string): WebServer {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    dir,
    log,
    reopenCommand,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function listening(child: ChildProcess, port: number, errorLog: string): Promise<void> {
  let exitCode: number | null | undefined;
  child.once('exit', (code) => {
    exitCode = code;
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (exitCode !== undefined) {
      const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '';
      throw new Error(`the server exited with ${exitCode} before listening:\n${log}`);
    }
    // A TCP connection, not a request: a request would be a line in the log under test.
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One request with exactly these headers (fetch would not send a Host of our choosing). */
export function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits until every line of the requests served so far is in the log (servers write after answering). */
export async function logLines(file: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (lines.length >= count || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ShipRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs deploy/shippers/ship-crawl-log.sh with /bin/sh, as cron would, with only these variables. */
export async function ship(logFile: string, env: Record<string, string>): Promise<ShipRun> {
  const run = promisify(execFile);
  try {
    const { stdout, stderr } = await run('/bin/sh', [SHIP_SCRIPT, logFile], {
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', RETRY_DELAY: '1', REOPEN_WAIT: '1', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw err;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
