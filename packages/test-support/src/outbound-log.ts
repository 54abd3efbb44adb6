import { existsSync, readFileSync } from 'node:fs';

/** The preload that records a process's connections and name lookups (runScript adds it when OUTBOUND_LOG is set). */
export const OUTBOUND_GUARD = new URL('./outbound-guard.mjs', import.meta.url).href;

/** One line outbound-guard.mjs wrote: a connection attempt, a TLS client, a datagram, a name lookup, a child process or a worker. */
export interface OutboundEvent {
  kind: 'connect' | 'tls' | 'udp' | 'lookup' | 'resolve' | 'spawn' | 'worker';
  /** The host asked for (a name or an address); absent for a Unix socket. */
  host?: string;
  port?: number;
  /** A Unix socket's path. */
  path?: string;
  servername?: string;
  /** The program a child process runs, or a worker's script. */
  file?: string;
  pid: number;
  threadId: number;
  /** The top of the stack that asked, and its first frame outside Node's own code. */
  stack: string[];
  caller?: string;
}

/** Every event a guarded run recorded in `file` (none if it never wrote one). */
export function readOutboundLog(file: string): OutboundEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboundEvent);
}

/** Where an event went, as `host:port`, `host` for a lookup, `unix:path`, `spawn:file` or `worker:file`. */
export function outboundTarget(event: OutboundEvent): string {
  if (event.kind === 'spawn' || event.kind === 'worker') return `${event.kind}:${event.file}`;
  if (event.path !== undefined) return `unix:${event.path}`;
  return event.port === undefined ? String(event.host) : `${event.host}:${event.port}`;
}
