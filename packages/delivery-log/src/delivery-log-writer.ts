import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@vt/db';
import type { DeliveryAttempt } from './delivery-log.ts';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

export interface DeliveryLogWriter {
  /** Resolves once the attempt is stored (and the log pruned); rejects if Postgres refused its row. */
  record: (attempt: DeliveryAttempt) => Promise<void>;
  /**
   * Hands the attempt to the next batch and resolves at once, so the caller can answer before the
   * row is written; `onError` hears of a row that could not be stored (this never rejects). Once
   * `maxBacklog` rows already wait, it resolves only when this row is stored: a writer that falls
   * behind slows its callers instead of holding ever more rows in memory.
   */
  submit: (attempt: DeliveryAttempt, onError: (err: unknown) => void) => Promise<void>;
  /** Resolves once every row handed over so far, and every write in flight, is stored or has failed. Never rejects. */
  flush: () => Promise<void>;
}

/**
 * Records delivery attempts in batches: under load one INSERT serves many requests instead of a
 * statement each. Alone, a row waits at most `maxDelayMs`. After each batch, every log it touched
 * is pruned to the newest 50, so once the writer is flushed the log holds exactly the last 50
 * attempts. An attempt is copied when handed over: what the caller does with its objects
 * afterwards never reaches the row.
 */
export function createDeliveryLogWriter(
  db: PrismaClient,
  {
    maxBatch = 500,
    maxDelayMs = 2,
    maxBacklog = 2 * maxBatch,
  }: { maxBatch?: number; maxDelayMs?: number; maxBacklog?: number } = {},
): DeliveryLogWriter {
  const pending: PendingRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  const writeBatch = async (batch: PendingRow[]) => {
    try {
      await insertRows(db, batch);
      await pruneLogs(db, batch);
      for (const p of batch) if (!p.failed) p.resolve();
    } catch (err) {
      for (const p of batch) if (!p.failed) p.reject(err);
    }
  };

  // At most `maxWrites` writes at a time: rows arriving meanwhile wait (up to `maxDelayMs` after a
  // write ends) and go together in the next, so the batch grows with the load instead of the
  // number of statements.
  const maxWrites = 2;
  let writes = 0;
  const flush = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0 || writes >= maxWrites) return;
    const batch = pending.splice(0, maxBatch);
    writes++;
    const done = writeBatch(batch).finally(() => {
      writes--;
      inFlight.delete(done);
      if (pending.length > 0) timer ??= setTimeout(() => void flush(), maxDelayMs);
    });
    inFlight.add(done);
    await done;
  };
  const inFlight = new Set<Promise<void>>();
  const flushAll = async () => {
    while (pending.length > 0 || inFlight.size > 0) {
      await flush();
      await Promise.all(inFlight);
    }
  };
  const record = (attempt: DeliveryAttempt) =>
    new Promise<void>((resolve, reject) => {
      // The attempt's own time, not the batch's: the log is ordered by it.
      pending.push({ attempt: { ...postgresSafe(attempt), createdAt: new Date() }, resolve, reject, failed: false });
      if (writes < maxWrites) timer ??= setTimeout(() => void flush(), maxDelayMs);
    });

  return {
    record,
    submit: (attempt, onError) => {
      const backlogged = pending.length >= maxBacklog;
      const stored = record(attempt).catch(onError);
      return backlogged ? stored : Promise.resolve();
    },
    flush: flushAll,
  };
}

/**
 * Prunes every log the batch touched to its newest DELIVERY_LOG_SIZE rows, in one statement for
 * the whole batch. Window functions cannot share a SELECT level with FOR UPDATE, so the rows past
 * the limit are picked first and locked in an outer select; rows another replica is deleting are
 * skipped: concurrent writers never wait on each other.
 */
async function pruneLogs(db: PrismaClient, batch: PendingRow[]) {
  const logs = new Map(batch.map(({ attempt: a }) => [`${a.propertyId}/${a.channel}`, a]));
  const propertyIds = [...logs.values()].map((a) => a.propertyId);
  const channels = [...logs.values()].map((a) => a.channel);
  await db.$executeRaw`
    DELETE FROM delivery_log_entries
    WHERE id IN (
      SELECT id FROM delivery_log_entries
      WHERE id IN (
        SELECT ranked.id FROM (
          SELECT e.id, row_number() OVER (
            PARTITION BY e.property_id, e.channel ORDER BY e.created_at DESC, e.id DESC
          ) AS position
          FROM delivery_log_entries e
          JOIN unnest(${propertyIds}::uuid[], ${channels}::delivery_channel[]) AS log(property_id, channel)
            ON e.property_id = log.property_id AND e.channel = log.channel
        ) ranked
        WHERE ranked.position > ${DELIVERY_LOG_SIZE}
      )
      FOR UPDATE SKIP LOCKED
    )`;
}

interface PendingRow {
  attempt: DeliveryAttempt & { createdAt: Date };
  resolve: () => void;
  reject: (e: unknown) => void;
  failed: boolean;
}

/**
 * One INSERT for the batch; if Postgres refuses it, each row alone, so one bad row costs only its
 * own attempt, never the rows of concurrent attempts (other properties' included).
 */
async function insertRows(db: PrismaClient, batch: PendingRow[]): Promise<void> {
  try {
    await insertBatch(db, batch);
    return;
  } catch {
    // fall through: find the row Postgres refuses
  }
  for (const row of batch) {
    try {
      await db.deliveryLogEntry.create({ data: row.attempt, select: { id: true } });
    } catch (err) {
      row.failed = true;
      row.reject(err);
    }
  }
}

/**
 * The batch as one INSERT of column arrays: a fixed statement whatever the batch size, and far less
 * client CPU than Prisma's createMany, which builds and checks every row of every batch.
 */
async function insertBatch(db: PrismaClient, batch: PendingRow[]): Promise<void> {
  const rows = batch.map((p) => p.attempt);
  const column = <T>(pick: (row: (typeof rows)[number]) => T | undefined) => rows.map((row) => pick(row) ?? null);
  const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  await db.$executeRaw`
    INSERT INTO delivery_log_entries (id, property_id, channel, created_at, status_code, outcome, reason, fix,
      lines_received, lines_kept, host_note, idempotency_key, event_id, request_body, result, lead_id)
    SELECT * FROM unnest(
      ${rows.map(() => randomUUID())}::uuid[], ${column((r) => r.propertyId)}::uuid[],
      ${column((r) => r.channel)}::delivery_channel[], ${column((r) => r.createdAt.toISOString())}::timestamptz[],
      ${column((r) => r.statusCode)}::int[], ${column((r) => r.outcome)}::text[], ${column((r) => r.reason)}::text[],
      ${column((r) => r.fix)}::text[], ${column((r) => r.linesReceived)}::int[], ${column((r) => r.linesKept)}::int[],
      ${column((r) => json(r.hostNote))}::jsonb[], ${column((r) => r.idempotencyKey)}::text[],
      ${column((r) => r.eventId)}::text[], ${column((r) => r.requestBody)}::text[],
      ${column((r) => json(r.result))}::jsonb[], ${column((r) => r.leadId)}::uuid[]
    )`;
}

/**
 * Postgres text and jsonb hold neither NUL nor lone UTF-16 surrogates, and senders control the
 * bodies, ids and key names recorded here: replace both with U+FFFD so every attempt can be kept.
 * A deep copy of the JSON-like attempt (undefined properties left out, as JSON would), walked
 * directly: a JSON round trip with a reviver costs several times more on every request.
 */
function postgresSafe(attempt: DeliveryAttempt): DeliveryAttempt {
  return safeCopy(attempt) as DeliveryAttempt;
}

function safeCopy(value: unknown): unknown {
  if (typeof value === 'string') return safeText(value);
  if (Array.isArray(value)) return value.map(safeCopy);
  if (value === null || typeof value !== 'object') return value;
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value))
    if (item !== undefined) entries.push([safeText(key), safeCopy(item)]);
  // fromEntries defines own properties: a key named __proto__ stays a key.
  return Object.fromEntries(entries);
}

function safeText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').toWellFormed();
}
