import { randomUUID } from 'node:crypto';
import type { DeliveryChannel, Prisma, PrismaClient } from '@vt/db';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

/** One attempt at an ingest endpoint, as its delivery-log row records it. */
export interface DeliveryAttempt {
  propertyId: string;
  channel: DeliveryChannel;
  statusCode: number;
  /** What the endpoint did, in words. */
  outcome: string;
  reason?: string;
  fix?: string;
  linesReceived?: number;
  linesKept?: number;
  hostNote?: { count: number; hosts: string[] };
  idempotencyKey?: string;
  eventId?: string;
  requestBody?: string;
  result?: Prisma.InputJsonValue;
  leadId?: string;
}

/**
 * An attempt that never proved to be the property's sender: a wrong crawl token, a webhook
 * refused before its signature verified. Anyone who knows a property id can send these, so they
 * are not logged one by one: each is counted into its log's summary row for its reason (one row
 * per property, channel and reason, with a count and since when), which is never pruned with the
 * newest 50 and never decides a status (crawl-status.ts, webhook-status.ts).
 */
export interface UnauthenticatedAttempt {
  propertyId: string;
  channel: DeliveryChannel;
  statusCode: number;
  reason: string;
  fix: string;
  /** What the endpoint did, in words; the summary row keeps the newest. */
  outcome: string;
}

/** A summary run older than this (no attempt of its reason since) starts its count again. */
export const SUMMARY_RUN_GAP_HOURS = 24;

export interface DeliveryLogWriter {
  /**
   * Resolves once the attempt is stored and its log pruned, or as soon as 50 newer attempts of its
   * log are handed over before its batch goes (the prune would delete it at once, so it is never
   * written); rejects if Postgres refused its row. Its batch goes once it has waited `maxDelayMs`
   * (or sooner, when full), as soon as one of the two writes allowed at a time is free.
   */
  record: (attempt: DeliveryAttempt) => Promise<void>;
  /**
   * Hands the attempt to a batch that goes after `submitDelayMs` at most (as for `record`, a
   * busy Postgres makes it wait for a free write), and resolves at once, so the
   * caller can answer before the row is written; `onError` hears of a row that could not be
   * stored (this never rejects). Once `maxBacklog` rows already wait, it resolves only when this
   * row is stored: a writer that falls behind slows its callers instead of holding ever more rows
   * in memory.
   */
  submit: (attempt: DeliveryAttempt, onError: (err: unknown) => void) => Promise<void>;
  /**
   * Counts an unauthenticated attempt into its summary row, with the next batch; returns at once
   * and never throws. Attempts of one summary waiting for the same batch cost one counter in
   * memory and one upserted row: a flood costs the database a row per batch, not a row per request.
   */
  summarise: (attempt: UnauthenticatedAttempt, onError: (err: unknown) => void) => void;
  /** Resolves once every row handed over so far, and every write in flight, is stored or has failed. Never rejects. */
  flush: () => Promise<void>;
}

export interface DeliveryLogWriterOptions {
  /** Rows per INSERT at most; a batch goes as soon as it is full. */
  maxBatch?: number;
  /** How long a recorded (awaited) row may wait for its batch. */
  maxDelayMs?: number;
  /** How long a submitted row, which nobody waits for, may wait for its batch. */
  submitDelayMs?: number;
  /** Rows waiting beyond which `submit` waits for its row to be stored. */
  maxBacklog?: number;
}

/**
 * Records delivery attempts in batches: under load one INSERT serves many requests instead of a
 * statement each. A row waits at most its delay (shorter for a row someone awaits), or until its
 * batch is full. After each batch, every log it touched is pruned to the newest 50, so once the
 * writer is flushed the log holds exactly the last 50 attempts; rows the prune would delete at
 * once are never written. An attempt is copied when handed over: what the caller does with its
 * objects afterwards never reaches the row.
 */
export function createDeliveryLogWriter(
  db: PrismaClient,
  {
    maxBatch = 500,
    maxDelayMs = 2,
    submitDelayMs = maxDelayMs,
    maxBacklog = 2 * maxBatch,
  }: DeliveryLogWriterOptions = {},
): DeliveryLogWriter {
  // Waiting rows by log (property and channel), oldest first. A log never holds more than the
  // newest DELIVERY_LOG_SIZE: an older row could only be written to be pruned at once, so it is
  // settled as soon as a newer one pushes it out. That also bounds what a busy sender keeps in
  // memory: rows dropped young cost the garbage collector little, rows kept waiting cost it much.
  const pending = new Map<string, PendingRow[]>();
  /** Waiting summary counts, by property, channel and reason: each one a row of the batch. */
  const summaries = new Map<string, PendingSummary>();
  let pendingCount = 0;
  /** When the most urgent waiting row must go (ms since the epoch); may be early, never late. */
  let pendingDue = Number.POSITIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let timerDue = Number.POSITIVE_INFINITY;
  const writeBatch = async ({
    rows: batch,
    summaries: counted,
  }: {
    rows: PendingRow[];
    summaries: PendingSummary[];
  }) => {
    if (counted.length > 0) {
      await upsertSummaries(db, counted).catch((err: unknown) => {
        for (const summary of counted) settleSummary(summary, err);
      });
    }
    if (batch.length === 0) return;
    try {
      await insertRows(db, batch);
      await pruneLogs(db, batch);
      for (const p of batch) if (!p.failed) settle(p);
    } catch (err) {
      for (const p of batch) if (!p.failed) settle(p, { error: err });
    }
  };
  const takeBatch = () => {
    const batch: PendingRow[] = [];
    for (const [log, rows] of pending) {
      batch.push(...rows.splice(0, maxBatch - batch.length));
      if (rows.length === 0) pending.delete(log);
      if (batch.length === maxBatch) break;
    }
    // Every waiting summary goes: there are few (one per property, channel and reason at most).
    const counted = [...summaries.values()];
    summaries.clear();
    pendingCount -= batch.length + counted.length;
    pendingDue = Number.POSITIVE_INFINITY;
    for (const rows of pending.values()) for (const row of rows) pendingDue = Math.min(pendingDue, row.due);
    return { rows: batch, summaries: counted };
  };

  // At most `maxWrites` writes at a time: rows arriving meanwhile wait for the next, so the batch
  // grows with the load instead of the number of statements.
  const maxWrites = 2;
  let writes = 0;
  const schedule = () => {
    if (pendingCount === 0 || writes >= maxWrites) return; // the write that ends next calls again
    if (pendingCount >= maxBatch) {
      void flush();
      return;
    }
    if (timer && timerDue <= pendingDue) return;
    clearTimeout(timer);
    timerDue = pendingDue;
    timer = setTimeout(() => void flush(), Math.max(0, pendingDue - Date.now()));
  };
  const flush = async (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    timerDue = Number.POSITIVE_INFINITY;
    if (pendingCount === 0 || writes >= maxWrites) return;
    const batch = takeBatch();
    writes++;
    const done = writeBatch(batch).finally(() => {
      writes--;
      inFlight.delete(done);
      schedule();
    });
    inFlight.add(done);
    await done;
  };
  const inFlight = new Set<Promise<void>>();
  const flushAll = async () => {
    while (pendingCount > 0 || inFlight.size > 0) {
      await flush();
      await Promise.all(inFlight);
    }
  };
  const add = (attempt: DeliveryAttempt, delayMs: number, resolve: () => void, reject: (err: unknown) => void) => {
    const row = pendingRow(attempt, Date.now() + delayMs, resolve, reject);
    const log = `${row.propertyId}/${row.channel}`;
    const rows = pending.get(log) ?? [];
    if (rows.length === 0) pending.set(log, rows);
    rows.push(row);
    const pushedOut = rows.length > DELIVERY_LOG_SIZE ? rows.shift() : undefined;
    if (pushedOut) settle(pushedOut);
    else pendingCount++;
    pendingDue = Math.min(pendingDue, row.due);
    schedule();
  };

  return {
    record: (attempt) => new Promise<void>((resolve, reject) => add(attempt, maxDelayMs, resolve, reject)),
    submit: (attempt, onError) => {
      if (pendingCount < maxBacklog) {
        add(attempt, submitDelayMs, ignore, onError);
        return Promise.resolve();
      }
      return new Promise<void>((resolve) =>
        add(attempt, submitDelayMs, resolve, (err) => {
          try {
            onError(err);
          } finally {
            resolve();
          }
        }),
      );
    },
    summarise: (attempt, onError) => {
      const at = Date.now();
      const log = `${attempt.propertyId}/${attempt.channel}/${attempt.reason}`;
      const waiting = summaries.get(log);
      if (waiting) {
        waiting.count++;
        waiting.lastAt = at;
        waiting.statusCode = attempt.statusCode;
        waiting.fix = safeText(attempt.fix);
        waiting.outcome = safeText(attempt.outcome);
        waiting.onError = onError;
        return;
      }
      summaries.set(log, {
        propertyId: attempt.propertyId,
        channel: attempt.channel,
        reason: safeText(attempt.reason),
        statusCode: attempt.statusCode,
        fix: safeText(attempt.fix),
        outcome: safeText(attempt.outcome),
        count: 1,
        firstAt: at,
        lastAt: at,
        onError,
      });
      pendingCount++;
      pendingDue = Math.min(pendingDue, at + submitDelayMs);
      schedule();
    },
    flush: flushAll,
  };
}

/** Attempts of one summary row waiting for their batch. */
interface PendingSummary {
  propertyId: string;
  channel: DeliveryChannel;
  reason: string;
  statusCode: number;
  fix: string;
  outcome: string;
  count: number;
  /** The first and the newest of the waiting attempts (ms since the epoch). */
  firstAt: number;
  lastAt: number;
  onError: (err: unknown) => void;
}

function settleSummary(summary: PendingSummary, err: unknown) {
  try {
    summary.onError(err);
  } catch {
    // as in settle(): the writer has no one else to tell
  }
}

/**
 * Adds the waiting counts to their summary rows, one statement for them all: the row's newest
 * attempt moves to the batch's, and a run that saw no attempt for SUMMARY_RUN_GAP_HOURS starts
 * counting again (the row then says "N attempts since <first>" of the current run).
 */
async function upsertSummaries(db: PrismaClient, summaries: PendingSummary[]): Promise<void> {
  const column = <T>(pick: (s: PendingSummary) => T) => summaries.map(pick);
  await db.$executeRaw`
    INSERT INTO delivery_log_entries AS e (id, property_id, channel, created_at, first_attempt_at, status_code,
      outcome, reason, fix, attempts, authenticated)
    SELECT id, property_id, channel, created_at, first_attempt_at, status_code, outcome, reason, fix, attempts, false
    FROM unnest(
      ${summaries.map(() => randomUUID())}::uuid[], ${column((s) => s.propertyId)}::uuid[],
      ${column((s) => s.channel)}::delivery_channel[],
      ${column((s) => new Date(s.lastAt).toISOString())}::timestamptz[],
      ${column((s) => new Date(s.firstAt).toISOString())}::timestamptz[],
      ${column((s) => s.statusCode)}::int[], ${column((s) => s.outcome)}::text[], ${column((s) => s.reason)}::text[],
      ${column((s) => s.fix)}::text[], ${column((s) => s.count)}::int[]
    ) AS s(id, property_id, channel, created_at, first_attempt_at, status_code, outcome, reason, fix, attempts)
    ON CONFLICT (property_id, channel, reason) WHERE NOT authenticated DO UPDATE SET
      attempts = CASE WHEN e.created_at < EXCLUDED.first_attempt_at - make_interval(hours => ${SUMMARY_RUN_GAP_HOURS})
        THEN EXCLUDED.attempts ELSE e.attempts + EXCLUDED.attempts END,
      first_attempt_at = CASE WHEN e.created_at < EXCLUDED.first_attempt_at - make_interval(hours => ${SUMMARY_RUN_GAP_HOURS})
        THEN EXCLUDED.first_attempt_at ELSE e.first_attempt_at END,
      created_at = GREATEST(e.created_at, EXCLUDED.created_at),
      status_code = EXCLUDED.status_code, outcome = EXCLUDED.outcome, fix = EXCLUDED.fix`;
}

/** Records one attempt and prunes the property's log for that channel to the newest 50. */
export async function recordDeliveryAttempt(db: PrismaClient, attempt: DeliveryAttempt): Promise<void> {
  const writer = createDeliveryLogWriter(db);
  const stored = writer.record(attempt);
  await writer.flush();
  await stored;
}

/**
 * Prunes every log the batch touched to its newest DELIVERY_LOG_SIZE rows (of authenticated
 * attempts: the summaries of unauthenticated ones are kept apart, one per reason), in one statement for
 * the whole batch. Window functions cannot share a SELECT level with FOR UPDATE, so the rows past
 * the limit are picked first and locked in an outer select; rows another replica is deleting are
 * skipped: concurrent writers never wait on each other.
 */
async function pruneLogs(db: PrismaClient, batch: PendingRow[]) {
  const logs = new Map(batch.map((row) => [`${row.propertyId}/${row.channel}`, row]));
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
          WHERE e.authenticated
        ) ranked
        WHERE ranked.position > ${DELIVERY_LOG_SIZE}
      )
      FOR UPDATE SKIP LOCKED
    )`;
}

const ignore = () => {};

/**
 * Tells a row's caller how it ended. A caller's callback that throws is its own fault: it must
 * not stop the rows after it from being settled, or escape into a timer as an unhandled error.
 */
function settle(row: PendingRow, failure?: { error: unknown }): void {
  try {
    if (failure) row.reject(failure.error);
    else row.resolve();
  } catch {
    // nothing to do here: the writer has no one else to tell
  }
}

/**
 * A row as it will be inserted, copied from the attempt when it is handed over: flat, with text
 * made safe for Postgres and the JSON columns already serialised. Rows wait in memory for their
 * batch, so each is kept to a few objects (a deep copy cost more in garbage collection than to make).
 */
interface PendingRow {
  propertyId: string;
  channel: DeliveryChannel;
  /** The attempt's own time, not the batch's: the log is ordered by it (ms since the epoch). */
  createdAt: number;
  statusCode: number;
  outcome: string;
  reason: string | null;
  fix: string | null;
  linesReceived: number | null;
  linesKept: number | null;
  hostNote: string | null;
  idempotencyKey: string | null;
  eventId: string | null;
  requestBody: string | null;
  result: string | null;
  leadId: string | null;
  /** When its batch must go at the latest (ms since the epoch). */
  due: number;
  resolve: () => void;
  reject: (e: unknown) => void;
  failed: boolean;
}

function pendingRow(a: DeliveryAttempt, due: number, resolve: () => void, reject: (e: unknown) => void): PendingRow {
  return {
    propertyId: a.propertyId,
    channel: a.channel,
    createdAt: Date.now(),
    statusCode: a.statusCode,
    outcome: safeText(a.outcome),
    reason: optionalText(a.reason),
    fix: optionalText(a.fix),
    linesReceived: a.linesReceived ?? null,
    linesKept: a.linesKept ?? null,
    hostNote: a.hostNote === undefined ? null : JSON.stringify(safeCopy(a.hostNote)),
    idempotencyKey: optionalText(a.idempotencyKey),
    eventId: optionalText(a.eventId),
    requestBody: optionalText(a.requestBody),
    result: a.result === undefined ? null : JSON.stringify(safeCopy(a.result)),
    leadId: a.leadId ?? null,
    due,
    resolve,
    reject,
    failed: false,
  };
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
      const { due, resolve, reject, failed, createdAt, hostNote, result, ...columns } = row;
      await db.deliveryLogEntry.create({
        data: {
          ...columns,
          createdAt: new Date(createdAt),
          hostNote: hostNote === null ? undefined : JSON.parse(hostNote),
          result: result === null ? undefined : JSON.parse(result),
        },
        select: { id: true },
      });
    } catch (err) {
      row.failed = true;
      settle(row, { error: err });
    }
  }
}

/**
 * The batch as one INSERT of column arrays: a fixed statement whatever the batch size, and far less
 * client CPU than Prisma's createMany, which builds and checks every row of every batch.
 */
async function insertBatch(db: PrismaClient, rows: PendingRow[]): Promise<void> {
  const column = <T>(pick: (row: PendingRow) => T) => rows.map(pick);
  await db.$executeRaw`
    INSERT INTO delivery_log_entries (id, property_id, channel, created_at, status_code, outcome, reason, fix,
      lines_received, lines_kept, host_note, idempotency_key, event_id, request_body, result, lead_id)
    SELECT * FROM unnest(
      ${rows.map(() => randomUUID())}::uuid[], ${column((r) => r.propertyId)}::uuid[],
      ${column((r) => r.channel)}::delivery_channel[], ${column((r) => new Date(r.createdAt).toISOString())}::timestamptz[],
      ${column((r) => r.statusCode)}::int[], ${column((r) => r.outcome)}::text[], ${column((r) => r.reason)}::text[],
      ${column((r) => r.fix)}::text[], ${column((r) => r.linesReceived)}::int[], ${column((r) => r.linesKept)}::int[],
      ${column((r) => r.hostNote)}::jsonb[], ${column((r) => r.idempotencyKey)}::text[],
      ${column((r) => r.eventId)}::text[], ${column((r) => r.requestBody)}::text[],
      ${column((r) => r.result)}::jsonb[], ${column((r) => r.leadId)}::uuid[]
    )`;
}

/**
 * Postgres text and jsonb hold neither NUL nor lone UTF-16 surrogates, and senders control the
 * bodies, ids and key names recorded here: replace both with U+FFFD so every attempt can be kept.
 * JSON values are copied with every string and key made safe (undefined properties left out, as
 * JSON would), walked directly: a JSON round trip with a reviver costs several times more.
 */
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

function optionalText(text: string | undefined): string | null {
  return text === undefined ? null : safeText(text);
}
