import type { PrismaClient } from '@vt/db';
import type { Redis } from 'ioredis';

// What the privacy checks read: everything a store holds, as text to search for what must not be
// there (an event's IP, a key, a password).

/** Every row of every table of the database, as JSON text, one row a line. */
export async function databaseText(db: PrismaClient): Promise<string> {
  const tables = await db.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  let text = '';
  for (const { table_name } of tables) {
    const rows = await db.$queryRawUnsafe<{ row: string }[]>(
      `SELECT row_to_json(t)::text AS row FROM "${table_name}" t`,
    );
    text += `${rows.map((r) => r.row).join('\n')}\n`;
  }
  return text;
}

/** Every key matching `pattern` and its value, whatever its type, as text. */
export async function redisText(redis: Redis, pattern = '*'): Promise<string> {
  let text = '';
  for (const key of await redis.keys(pattern)) {
    text += `${key}\n`;
    const type = await redis.type(key);
    if (type === 'string') text += await redis.get(key);
    else if (type === 'hash') text += JSON.stringify(await redis.hgetall(key));
    else if (type === 'list') text += JSON.stringify(await redis.lrange(key, 0, -1));
    else if (type === 'zset') text += JSON.stringify(await redis.zrange(key, '0', '-1'));
    else if (type === 'set') text += JSON.stringify(await redis.smembers(key));
    else if (type === 'stream') text += JSON.stringify(await redis.xrange(key, '-', '+'));
    text += '\n';
  }
  return text;
}
