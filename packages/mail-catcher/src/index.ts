// A real SMTP server in process that keeps what it receives: the SMTP peer of the tests and of
// `pnpm start`, and its messages over HTTP for the console in development.
export { type CaughtMailServer, serveCaughtMail } from './caught-mail-server.ts';
export {
  type CaughtMessage,
  type MailCatcher,
  type MailCatcherOptions,
  type Refusal,
  startMailCatcher,
} from './mail-catcher.ts';
