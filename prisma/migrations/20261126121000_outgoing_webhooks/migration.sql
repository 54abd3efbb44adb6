-- Alert webhooks (issue 29): where a property's alerts are posted, one delivery per notification
-- and destination (unique on the event id, so a replayed alert records nothing twice), and the
-- delivery log of every attempt. Signing secrets are derived, never stored.
CREATE TYPE "webhook_format" AS ENUM ('slack', 'standard');

CREATE TYPE "webhook_delivery_status" AS ENUM ('pending', 'delivered', 'failed');

CREATE TABLE "webhook_destinations" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "format" "webhook_format" NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "secret_version" INTEGER NOT NULL DEFAULT 1,
    "disabled_at" TIMESTAMPTZ(3),
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_destinations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "destination_id" UUID NOT NULL,
    "event_id" VARCHAR(128) NOT NULL,
    "event_type" TEXT NOT NULL,
    "notification" JSONB NOT NULL,
    "status" "webhook_delivery_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_delivery_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "destination_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error_class" TEXT,
    "outcome" TEXT NOT NULL,
    "retry_at" TIMESTAMPTZ(3),
    "response_snippet" VARCHAR(256),

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_destinations_property_id_created_at_idx" ON "webhook_destinations"("property_id", "created_at");

CREATE UNIQUE INDEX "webhook_deliveries_destination_id_event_id_key" ON "webhook_deliveries"("destination_id", "event_id");

CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

CREATE INDEX "webhook_deliveries_completed_at_idx" ON "webhook_deliveries"("completed_at");

CREATE UNIQUE INDEX "webhook_delivery_attempts_delivery_id_attempt_key" ON "webhook_delivery_attempts"("delivery_id", "attempt");

CREATE INDEX "webhook_delivery_attempts_destination_id_attempted_at_idx" ON "webhook_delivery_attempts"("destination_id", "attempted_at" DESC);

ALTER TABLE "webhook_destinations" ADD CONSTRAINT "webhook_destinations_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "webhook_destinations" ADD CONSTRAINT "webhook_destinations_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_destination_id_fkey" FOREIGN KEY ("destination_id") REFERENCES "webhook_destinations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_destination_id_fkey" FOREIGN KEY ("destination_id") REFERENCES "webhook_destinations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
