-- Alert rules (issue 29): each property's rules with their state on the same row (the evaluation
-- locks it FOR UPDATE), and the messages they sent, unique on an event id derived from the rule
-- and its change of state, so a replayed or concurrent evaluation sends nothing twice.
CREATE TABLE "alert_rules" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "threshold" DOUBLE PRECISION,
    "email_owners_and_admins" BOOLEAN NOT NULL DEFAULT true,
    "email_user_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "webhooks" BOOLEAN NOT NULL DEFAULT true,
    "status" TEXT NOT NULL DEFAULT 'ok',
    "status_since" TIMESTAMPTZ(3),
    "pending_since" TIMESTAMPTZ(3),
    "episode" INTEGER NOT NULL DEFAULT 0,
    "reminders" INTEGER NOT NULL DEFAULT 0,
    "last_notified_at" TIMESTAMPTZ(3),
    "last_reminder_at" TIMESTAMPTZ(3),
    "observed" JSONB,
    "evaluated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_rules_kind_check" CHECK ("kind" IN ('crawl_nothing_arriving', 'crawl_rejecting', 'webhook_rejecting',
        'crawler_hits_drop', 'visibility_drop', 'share_of_voice_drop', 'new_competitor')),
    CONSTRAINT "alert_rules_status_check" CHECK ("status" IN ('ok', 'firing'))
);

CREATE TABLE "alert_notifications" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "event_id" VARCHAR(128) NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "subject" TEXT NOT NULL,
    "emails" INTEGER NOT NULL DEFAULT 0,
    "webhooks" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "alert_notifications_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "alert_rules_property_id_kind_key" ON "alert_rules"("property_id", "kind");

CREATE INDEX "alert_rules_enabled_property_id_idx" ON "alert_rules"("enabled", "property_id");

CREATE UNIQUE INDEX "alert_notifications_event_id_key" ON "alert_notifications"("event_id");

CREATE INDEX "alert_notifications_property_id_occurred_at_idx" ON "alert_notifications"("property_id", "occurred_at" DESC);

ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;
