-- The outbox of every email the service sends (invitations, alerts, weekly reports, test
-- messages). A producer inserts its row in its own transaction, so the email commits with what it
-- is about (an invitation and its email together, or neither); the notifier then delivers it over
-- SMTP, retrying while the server is down, and records what happened here for the console to show.
CREATE TYPE "outgoing_email_status" AS ENUM ('pending', 'sending', 'sent', 'failed');

CREATE TABLE "outgoing_emails" (
    "id" UUID NOT NULL,
    "team_id" UUID,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text_body" TEXT NOT NULL,
    "html_body" TEXT,
    -- A producer's own name for the email (invitation:<id>:<n>, alert:<id>:<state>): a replayed
    -- producer inserts nothing.
    "dedupe_key" TEXT NOT NULL,
    "status" "outgoing_email_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- While 'sending': until when the notifier that claimed the row holds it. A row still
    -- 'sending' after it (its notifier died mid-send) is due again.
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "outgoing_emails_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "outgoing_emails_dedupe_key_key" ON "outgoing_emails"("dedupe_key");

-- The console lists a team's recent mail.
CREATE INDEX "outgoing_emails_team_id_created_at_idx" ON "outgoing_emails"("team_id", "created_at" DESC);

-- The sweep reads only the rows still to deliver, whatever the size of the sent history.
CREATE INDEX "outgoing_emails_undelivered_idx" ON "outgoing_emails"("next_attempt_at")
  WHERE "status" IN ('pending', 'sending');

ALTER TABLE "outgoing_emails" ADD CONSTRAINT "outgoing_emails_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
