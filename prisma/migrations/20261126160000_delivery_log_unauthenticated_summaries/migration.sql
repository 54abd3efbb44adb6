-- Attempts that never proved to be the property's sender (a wrong crawl token, a webhook refused
-- before its signature verified) are kept as one summary row per property, channel and reason,
-- with a count, instead of one row each: strangers who know a property id can no longer push the
-- sender's rows out of the newest 50, nor decide the connection status (issue 33, finding 1).
ALTER TABLE "delivery_log_entries"
  ADD COLUMN "authenticated" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "first_attempt_at" TIMESTAMPTZ(3);

CREATE UNIQUE INDEX "delivery_log_entries_unauthenticated_summary_key"
  ON "delivery_log_entries"("property_id", "channel", "reason")
  WHERE NOT "authenticated";
