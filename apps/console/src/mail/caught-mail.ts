import { z } from 'zod';

/** The development mail catcher as the console reads it: the copy of one email it received. */
export interface CaughtMailReader {
  /** The newest message whose Message-ID is this email's (`<emailId@…>`), or null. */
  find(emailId: string): Promise<CaughtEmail | null>;
}

const caughtMessageSchema = z.object({
  receivedAt: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  messageId: z.string().nullable(),
  text: z.string(),
  html: z.string().nullable(),
});
export type CaughtEmail = z.infer<typeof caughtMessageSchema>;

const listSchema = z.object({ messages: z.array(caughtMessageSchema.loose()) });

/** How long the console waits for the catcher, which runs on this machine. */
const CATCHER_TIMEOUT_MS = 3000;

/**
 * The catcher's HTTP API (`@vt/mail-catcher`'s serveCaughtMail) at MAIL_CATCHER_URL, a loopback
 * address the config insists on. The notifier names each email's Message-ID after its row
 * (`<id@domain of MAIL_FROM>`), so the copy is found by its id whatever MAIL_FROM is.
 */
export function caughtMailReader(baseUrl: string): CaughtMailReader {
  return {
    async find(emailId) {
      const res = await fetch(`${baseUrl}/messages`, { signal: AbortSignal.timeout(CATCHER_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`the mail catcher answered ${res.status}`);
      const { messages } = listSchema.parse(await res.json());
      const found = messages.find((m) => m.messageId?.startsWith(`<${emailId}@`));
      return found ? caughtMessageSchema.parse(found) : null;
    },
  };
}
