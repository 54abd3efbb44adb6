import type { Logger } from '@vt/logger';

export interface Service {
  /** Ordered, idempotent shutdown: stop intake, drain work, close queues, Redis, Prisma. */
  close: () => Promise<void>;
}

export interface ServiceLifecycle {
  logger: Logger;
  shutdownTimeoutMs: number;
  /** Lets tests run a service without installing process-wide signal handlers. */
  exit?: (code: number) => void;
}

/**
 * Starts a service and shuts it down on SIGTERM/SIGINT. A second signal, or the shutdown taking
 * longer than shutdownTimeoutMs, exits at once; the timer is unref'd so it never keeps a
 * finished process alive.
 */
export async function runService(start: () => Promise<Service>, lifecycle: ServiceLifecycle): Promise<void> {
  const { logger, shutdownTimeoutMs } = lifecycle;
  const exit = lifecycle.exit ?? ((code: number) => process.exit(code));
  let service: Service;
  try {
    service = await start();
  } catch (err) {
    logger.fatal({ err }, 'failed to start');
    exit(1);
    return;
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      exit(1);
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight work');
    setTimeout(() => {
      logger.error({ shutdownTimeoutMs }, 'shutdown timed out: exiting');
      exit(1);
    }, shutdownTimeoutMs).unref();
    service.close().then(
      () => {
        logger.info('shut down cleanly');
        exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'error while shutting down');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
