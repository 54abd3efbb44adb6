-- Where the buyers are (issue 32 item 3): a property's country and language, a prompt's own, and
-- the ones each answer was asked with. Validated by the application (ISO 3166-1 alpha-2, BCP 47).
ALTER TABLE "properties" ADD COLUMN "country" TEXT, ADD COLUMN "language" TEXT;
ALTER TABLE "prompts" ADD COLUMN "country" TEXT, ADD COLUMN "language" TEXT;
ALTER TABLE "responses" ADD COLUMN "country" TEXT, ADD COLUMN "language" TEXT;

-- Within a budget (issue 32 item 4): each platform's daily request budget as the collector reports
-- it, and the requests sent per platform and UTC day, counted atomically by every replica.
ALTER TABLE "answer_platform_status" ADD COLUMN "daily_request_budget" INTEGER;

CREATE TABLE "answer_platform_usage" (
  "platform" TEXT NOT NULL,
  "day" DATE NOT NULL,
  "requests" INTEGER NOT NULL DEFAULT 0,
  "skipped_budget" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "answer_platform_usage_pkey" PRIMARY KEY ("platform", "day")
);
