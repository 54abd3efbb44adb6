import type { PrismaClient } from '@vt/db';
import type { DeliveryAttempt } from './delivery-log.ts';
import { DELIVERY_LOG_SIZE } from './log-size.ts';

export interface DeliveryLogWriter {
  /** Resolves once the attempt is stored (and the log pruned), so a caller can answer after it. */
  record: (attempt: DeliveryAttempt) => Promise<void>;
  /** Writes what is pending. */
  flush: () => Promise<void>;
}

/**
 * Records delivery attempts in small batches: under load, one INSERT and one prune per property
 * serve many requests instead of two statements each, and every caller still waits until its own
 * row is written. Alone, a row waits at most `maxDelayMs`.
 */
export function createDeliveryLogWriter(
  db: PrismaClient,
  { maxBatch = 200, maxDelayMs = 2 }: { maxBatch?: number; maxDelayMs?: number } = {},
): DeliveryLogWriter {
  type Pending = PendingRow;
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      await insertRows(db, batch);
      const logs = new Map(batch.map((p) => [`${p.attempt.propertyId}/${p.attempt.channel}`, p.attempt]));
      for (const { propertyId, channel } of logs.values()) {
        // Skips rows another replica is deleting: concurrent writers never wait on each other.
        await db.$executeRaw`
          DELETE FROM delivery_log_entries
          WHERE id IN (
            SELECT id FROM delivery_log_entries
            WHERE property_id = ${propertyId}::uuid AND channel = ${channel}::delivery_channel
            ORDER BY created_at DESC, id DESC
            OFFSET ${DELIVERY_LOG_SIZE}
            FOR UPDATE SKIP LOCKED
          )`;
      }
      for (const p of batch) if (!p.failed) p.resolve();
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  };

  return {
    record: (attempt) =>
      new Promise<void>((resolve, reject) => {
        // The attempt's own time, not the batch's: the log is ordered by it.
        pending.push({ attempt: { ...postgresSafe(attempt), createdAt: new Date() }, resolve, reject, failed: false });
        if (pending.length >= maxBatch) void flush();
        else timer ??= setTimeout(() => void flush(), maxDelayMs);
      }),
    flush,
  };
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
    await db.deliveryLogEntry.createMany({ data: batch.map((p) => p.attempt) });
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
 * Postgres text and jsonb hold neither NUL nor lone UTF-16 surrogates, and senders control the
 * bodies, ids and key names recorded here: replace both with U+FFFD so every attempt can be kept.
 */
function postgresSafe(attempt: DeliveryAttempt): DeliveryAttempt {
  return JSON.parse(JSON.stringify(attempt), (_key, value) =>
    typeof value === 'string' ? safeText(value) : value,
  ) as DeliveryAttempt;
}

function safeText(text: string): string {
  return text.replace(/\u0000/g, '\uFFFD').toWellFormed();
}
