import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutboundEvent, outboundTarget, readOutboundLog } from './outbound-log.ts';
import { runScript } from './processes.ts';

// The guard that proves SVC-1 at run time is only as good as what it sees: each way a process can
// reach out (fetch, globalThis.fetch, node:http, a dynamic import of node:https, a raw socket, a
// datagram, a name lookup through the module or its named export, a child process, a worker) is run under it,
// against a loopback server of this test, and must show up in the log. Nothing here leaves the
// machine.

const work = mkdtempSync(join(tmpdir(), 'vt-outbound-guard-'));
// Scripts are plain `.js` ES modules, so runScript runs them with node alone (tsx would add its
// own IPC socket to the log).
writeFileSync(join(work, 'package.json'), '{ "type": "module" }');
let server: Server;
let port: number;
let requests = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

/** Runs `body` (an ES module, the server's `PORT` and `TARGET` URL in scope) as its own process, guarded or not; its recorded events. */
async function run(name: string, body: string, guarded = true): Promise<OutboundEvent[]> {
  const script = join(work, `${name}.js`);
  const log = join(work, `${name}.jsonl`);
  const prelude = 'const PORT = Number(process.argv[2]);\nconst TARGET = process.argv[3];\n';
  writeFileSync(script, `${prelude}${body}\nconsole.log('done');\n`);
  const proc = runScript(script, [String(port), `http://127.0.0.1:${port}/`], guarded ? { OUTBOUND_LOG: log } : {});
  const code = await proc.exited;
  expect(`${code} ${proc.stdout().trim()}`, proc.stderr()).toBe('0 done');
  return readOutboundLog(log);
}

const targets = (events: OutboundEvent[], kind: OutboundEvent['kind']) =>
  events.filter((e) => e.kind === kind).map(outboundTarget);

describe('the outbound guard', () => {
  it.each([
    ['fetch', 'await (await fetch(TARGET)).text();'],
    ['globalThis.fetch', 'await (await globalThis.fetch(TARGET)).text();'],
    [
      'node:http get',
      `import http from 'node:http';
       await new Promise((done) => http.get(TARGET, (res) => res.resume().on('end', done)));`,
    ],
  ])('[SVC-1] records a request made with %s', async (name, body) => {
    const before = requests;
    const events = await run(name.replace(/\W/g, '-'), body);
    expect(requests - before).toBe(1);
    expect(targets(events, 'connect')).toEqual([`127.0.0.1:${port}`]);
    expect(events.every((e) => e.pid > 0 && e.stack.length > 0)).toBe(true);
  });

  it('[SVC-1] records a TLS request through a dynamic import of node:https (to a plain port: the handshake fails)', async () => {
    const events = await run(
      'dynamic-https',
      `const https = await import('node:' + 'https');
       await new Promise((done) => https.get({ host: '127.0.0.1', port: PORT, path: '/' }).on('error', done));`,
    );
    expect(targets(events, 'tls')).toEqual(['127.0.0.1']);
    expect(targets(events, 'connect')).toEqual([`127.0.0.1:${port}`]);
  });

  it('[SVC-1] records a raw socket, and says which line of the script opened it', async () => {
    const events = await run(
      'raw-socket',
      `import net from 'node:net';
       await new Promise((done) => net.connect(PORT, '127.0.0.1', function () { this.end(); done(); }));`,
    );
    expect(targets(events, 'connect')).toEqual([`127.0.0.1:${port}`]);
    expect(events[0]?.caller).toContain('raw-socket.js:4');
  });

  it('[SVC-1] records name lookups: dns.lookup, its named export, dns/promises, and the one fetch makes for a name', async () => {
    const events = await run(
      'lookups',
      `import dns from 'node:dns';
       import { lookup } from 'node:dns';
       import { lookup as lookupPromise } from 'node:dns/promises';
       await new Promise((done) => dns.lookup('localhost', done));
       await new Promise((done) => lookup('localhost', done));
       await lookupPromise('localhost');
       await (await fetch(\`http://localhost:\${PORT}/\`)).text();`,
    );
    expect(targets(events, 'lookup')).toEqual(['localhost', 'localhost', 'localhost', 'localhost']);
    expect(targets(events, 'connect')).toEqual([`localhost:${port}`]);
  });

  it('[SVC-1] records datagrams sent, to a loopback UDP socket of this test', async () => {
    const udp = createSocket('udp4');
    const received = new Promise((resolve) => udp.once('message', resolve));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const udpPort = udp.address().port;
    try {
      const events = await run(
        'datagram',
        `import dgram from 'node:dgram';
         const socket = dgram.createSocket('udp4');
         await new Promise((done) => socket.send('hello', ${udpPort}, '127.0.0.1', done));
         socket.close();`,
      );
      expect(String(await received)).toBe('hello');
      expect(targets(events, 'udp')).toEqual([`127.0.0.1:${udpPort}`]);
    } finally {
      udp.close();
    }
  });

  it('[SVC-1] records each child process started, which it cannot follow', async () => {
    const events = await run(
      'child-process',
      `import { execFile, execFileSync } from 'node:child_process';
       execFileSync('true');
       await new Promise((done) => execFile('true', done));`,
    );
    expect(targets(events, 'spawn')).toEqual(['spawn:true', 'spawn:true']);
  });

  it('[SVC-1] records each worker thread started, which it cannot follow either', async () => {
    const events = await run(
      'worker',
      `import { Worker } from 'node:worker_threads';
       await new Promise((done) => new Worker('1', { eval: true }).on('exit', done));`,
    );
    expect(targets(events, 'worker')).toEqual(['worker:1']);
  });

  it('records nothing unless asked: without OUTBOUND_LOG the process runs unguarded', async () => {
    const before = requests;
    expect(await run('unguarded', 'await (await fetch(TARGET)).text();', false)).toEqual([]);
    expect(requests - before).toBe(1);
  });
});
