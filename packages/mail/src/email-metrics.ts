import type { PrismaClient } from '@vt/db';
import { Counter, Gauge, type Registry } from 'prom-client';
import { undeliveredCount } from './email-outbox.ts';

/** A scrape waits at most this for Postgres; the gauge is left out of that scrape otherwise. */
const COUNT_TIMEOUT_MS = 1000;

export interface EmailMetrics {
  sent(kind: string): void;
  retried(kind: string): void;
  failed(kind: string): void;
}

/**
 * The notifier's email metrics, labelled by kind (four of them): emails sent, attempts that will
 * be retried, emails given up on; and the outbox's undelivered emails, read at scrape time (every
 * replica reports the same figure: take the max).
 */
export function createEmailMetrics(registry: Registry, db: PrismaClient): EmailMetrics {
  const registers = [registry];
  const counter = (name: string, help: string) => new Counter({ name, help, labelNames: ['kind'], registers });
  const sent = counter('vt_emails_sent_total', 'Emails the SMTP server accepted, by kind.');
  const retried = counter(
    'vt_emails_retried_total',
    'Attempts at an email that failed and will be retried (SMTP down, a 4xx, a refused login), by kind.',
  );
  const failed = counter(
    'vt_emails_failed_total',
    'Emails given up on: a permanent rejection (5xx) or the last attempt failed, by kind.',
  );
  new Gauge({
    name: 'vt_emails_pending',
    help: 'Emails in the outbox not delivered yet (pending or being sent), read from Postgres at scrape time; every notifier reports the same figure.',
    registers,
    async collect() {
      this.reset();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), COUNT_TIMEOUT_MS);
      });
      const count = await Promise.race([undeliveredCount(db).catch(() => undefined), timeout]);
      clearTimeout(timer);
      if (count !== undefined) this.set(count);
    },
  });
  return {
    sent: (kind) => sent.inc({ kind }),
    retried: (kind) => retried.inc({ kind }),
    failed: (kind) => failed.inc({ kind }),
  };
}
