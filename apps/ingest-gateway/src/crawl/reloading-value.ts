import type { Logger } from '@vt/logger';

export interface ReloadingValue<T> {
  current: () => T;
  stop: () => void;
}

/**
 * A value every replica reads from Postgres and reloads on an interval (the IP ranges, the agent
 * catalogue, the signature keys): loaded once before the gateway serves, then every `refreshMs`.
 * A failed load is logged and keeps the value in use; until a first load succeeds, `initial`.
 */
export async function reloadingValue<T>(options: {
  initial: T;
  load: (previous: T) => Promise<T>;
  refreshMs: number;
  logger: Logger;
  what: string;
}): Promise<ReloadingValue<T>> {
  let value = options.initial;
  const load = async () => {
    try {
      value = await options.load(value);
    } catch (err) {
      options.logger.error({ err }, `could not load ${options.what}; keeping the previous one`);
    }
  };
  await load();
  const timer = setInterval(load, options.refreshMs);
  timer.unref();
  return { current: () => value, stop: () => clearInterval(timer) };
}
