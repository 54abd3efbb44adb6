// Preloaded with `node --import <this file>` (processes.ts adds it when OUTBOUND_LOG is set): it
// records every outbound connection attempt, datagram, name lookup, child process and worker thread
// of the process as one JSON line in the file OUTBOUND_LOG names, so a test can prove SVC-1 at run
// time instead of trusting a source scan. It only records; what counts as allowed is the test's
// call. Loopback and Unix sockets are recorded too: the test knows which ports and paths are its own.
//
// Every TCP client in Node (http, https, tls, undici's fetch, pg, ioredis) ends in
// net.Socket.prototype.connect, looked up on the socket when called; tls.connect is recorded on its
// own as well, for the server name it asks for. Names are resolved through the dns module's
// exports, also looked up when called, so patching them sees net's own lookups too.

import childProcess, { ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';
import workerThreads, { threadId } from 'node:worker_threads';

const LOG = process.env.OUTBOUND_LOG;

/** The top of the caller's stack, without this file's frames, and its first frame outside Node's own. */
function callerStack() {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 20;
  const raw = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = raw
    .split('\n')
    .slice(1)
    .map((frame) => frame.trim())
    .filter((frame) => !frame.includes(import.meta.url));
  const caller = frames.find((frame) => !/\(node:|^at node:|<anonymous>/.test(frame));
  return { stack: frames.slice(0, 4), caller };
}

/** Appends one event, synchronously: the line is on disk even if the process is killed next. */
function record(kind, fields) {
  const event = { kind, ...fields, pid: process.pid, threadId, ...callerStack() };
  try {
    appendFileSync(LOG, `${JSON.stringify(event)}\n`);
  } catch {
    // A log that cannot be written must not change what the app does; the test sees no line.
  }
}

/** Where a net.Socket#connect call goes: (options), (port, host), (path) or the internal ([options]). */
function connectTarget(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first !== null && typeof first === 'object') {
    // As net decides: a non-empty path is a Unix socket (http's agent passes `path: null` for TCP).
    if (first.path) return { path: String(first.path) };
    return { host: first.host ?? 'localhost', port: Number(first.port) };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: Number(first) };
}

function wrap(owner, name, kind, describe) {
  const original = owner[name];
  if (typeof original !== 'function') return;
  owner[name] = function guarded(...args) {
    record(kind, describe(args));
    return original.apply(this, args);
  };
}

/** Where a dgram socket's send goes: (msg, port, address), (msg, offset, length, port, address), or its peer. */
function datagramTarget(socket, args) {
  const [port, address] = typeof args[2] === 'number' ? [args[3], args[4]] : [args[1], args[2]];
  if (typeof port !== 'number') {
    const peer = socket.remoteAddress();
    return { host: peer.address, port: peer.port };
  }
  return { host: typeof address === 'string' ? address : 'localhost', port };
}

/** True once the socket is bound: an unbound socket's send binds it and calls send again. */
function isBound(socket) {
  try {
    socket.address();
    return true;
  } catch {
    return false;
  }
}

if (LOG) {
  wrap(net.Socket.prototype, 'connect', 'connect', connectTarget);
  // UDP makes no connection: each datagram sent (or the peer a socket is connected to) is recorded.
  wrap(dgram.Socket.prototype, 'connect', 'udp', (args) => ({ host: args[1], port: Number(args[0]) }));
  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guardedSend(...args) {
    // Recorded on the call that sends: the first call of an unbound socket only binds it.
    if (isBound(this)) record('udp', datagramTarget(this, args));
    return send.apply(this, args);
  };
  // A child process is beyond this guard (it runs without it unless it is node given --import too):
  // each one started is recorded, so a test can insist there are none.
  wrap(ChildProcess.prototype, 'spawn', 'spawn', ([options]) => ({ file: String(options?.file) }));
  for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
    wrap(childProcess, name, 'spawn', ([file]) => ({ file: String(file) }));
  }
  // Nor does --import reach a worker thread: each one started is recorded the same way.
  workerThreads.Worker = class GuardedWorker extends workerThreads.Worker {
    constructor(file, options) {
      record('worker', { file: String(file).slice(0, 200) });
      super(file, options);
    }
  };
  wrap(tls, 'connect', 'tls', (args) => {
    const options = args.find((a) => a !== null && typeof a === 'object') ?? {};
    return {
      host: options.host ?? (typeof args[1] === 'string' ? args[1] : undefined),
      servername: options.servername,
    };
  });

  const byName = (args) => ({ host: String(args[0]) });
  const resolvers = ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx'];
  const more = ['resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse'];
  for (const api of [dns, dns.promises]) {
    wrap(api, 'lookup', 'lookup', byName);
    wrap(api, 'lookupService', 'lookup', (args) => ({ host: String(args[0]), port: Number(args[1]) }));
    for (const name of [...resolvers, ...more]) wrap(api, name, 'resolve', byName);
  }
  for (const Resolver of [dns.Resolver, dns.promises.Resolver]) {
    for (const name of [...resolvers, ...more]) wrap(Resolver.prototype, name, 'resolve', byName);
  }
  // `import { lookup } from 'node:dns'` (or `{ Worker }`) reads the ES module's own bindings:
  // bring them up to date.
  syncBuiltinESMExports();
}
