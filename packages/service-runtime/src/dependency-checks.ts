/** Readiness probes: the smallest round-trip each dependency answers. */
export function pingPostgres(db: { $queryRaw: (q: TemplateStringsArray) => Promise<unknown> }) {
  return () => db.$queryRaw`SELECT 1`;
}

export function pingRedis(redis: { ping: () => Promise<string> }) {
  return () => redis.ping();
}
