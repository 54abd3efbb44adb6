-- The weekly report: who receives which property's, by their own choice. One row per person and
-- property; the notifier queues a report per (person, property, ISO week) under that dedupe key,
-- and notes the week here so it need not render the report again to learn it was queued.
CREATE TABLE "report_subscriptions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_report_week" TEXT,

    CONSTRAINT "report_subscriptions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "report_subscriptions_user_id_property_id_key" ON "report_subscriptions"("user_id", "property_id");

CREATE INDEX "report_subscriptions_property_id_idx" ON "report_subscriptions"("property_id");

ALTER TABLE "report_subscriptions" ADD CONSTRAINT "report_subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "report_subscriptions" ADD CONSTRAINT "report_subscriptions_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- RFC 8058 one-click unsubscribe for mail that offers it (the weekly report): the URL the
-- notifier sends as List-Unsubscribe, with List-Unsubscribe-Post.
ALTER TABLE "outgoing_emails" ADD COLUMN "list_unsubscribe" TEXT;
