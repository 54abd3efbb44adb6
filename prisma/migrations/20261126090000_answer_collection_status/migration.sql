-- The answer collector publishes what it can do (which platforms have a key, when the daily run
-- is next) and what each run did per property and platform, for the console to show: without
-- it, a property's answers stayed empty with no word of why.
CREATE TABLE "answer_platform_status" (
    "platform" TEXT NOT NULL,
    "configured" BOOLEAN NOT NULL,
    "model" TEXT,
    "reason" TEXT,
    "collect_at_utc" TEXT NOT NULL,
    "next_run_at" TIMESTAMPTZ(3) NOT NULL,
    "reported_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "answer_platform_status_pkey" PRIMARY KEY ("platform")
);

CREATE TABLE "answer_collection_runs" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "platform" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "trigger" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "questions" INTEGER NOT NULL,
    "stored" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "answer_collection_runs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "answer_collection_runs_property_id_platform_started_at_idx" ON "answer_collection_runs"("property_id", "platform", "started_at" DESC);

ALTER TABLE "answer_collection_runs" ADD CONSTRAINT "answer_collection_runs_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;
