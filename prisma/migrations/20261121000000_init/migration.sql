-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "team_role" AS ENUM ('owner', 'admin', 'member');

-- CreateEnum
CREATE TYPE "plan" AS ENUM ('free', 'starter', 'growth', 'scale');

-- CreateEnum
CREATE TYPE "subscription_status" AS ENUM ('active', 'lapsed');

-- CreateEnum
CREATE TYPE "api_key_access" AS ENUM ('read', 'write');

-- CreateEnum
CREATE TYPE "task_status" AS ENUM ('backlog', 'todo', 'in_progress', 'done', 'canceled');

-- CreateEnum
CREATE TYPE "task_priority" AS ENUM ('urgent', 'high', 'medium', 'low');

-- CreateEnum
CREATE TYPE "task_review_state" AS ENUM ('proposed', 'accepted', 'declined');

-- CreateEnum
CREATE TYPE "crawl_verification" AS ENUM ('verified', 'unverified', 'unverifiable');

-- CreateEnum
CREATE TYPE "delivery_channel" AS ENUM ('crawl', 'webhook');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "teams" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "branding" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "team_role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "properties" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "brand_terms" TEXT[],
    "plan" "plan" NOT NULL DEFAULT 'free',
    "subscription_status" "subscription_status" NOT NULL DEFAULT 'active',
    "crawl_ingestion_enabled" BOOLEAN NOT NULL DEFAULT true,
    "crawl_token_version" INTEGER NOT NULL DEFAULT 1,
    "crawl_status_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "properties_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "access" "api_key_access" NOT NULL DEFAULT 'read',
    "all_properties" BOOLEAN NOT NULL DEFAULT true,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key_properties" (
    "api_key_id" UUID NOT NULL,
    "property_id" UUID NOT NULL,

    CONSTRAINT "api_key_properties_pkey" PRIMARY KEY ("api_key_id","property_id")
);

-- CreateTable
CREATE TABLE "prompts" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "tags" TEXT[],
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prompts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "responses" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "prompt_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "mentioned" BOOLEAN NOT NULL,
    "matched_term" TEXT,
    "position" INTEGER,
    "sentiment" DOUBLE PRECISION,
    "excerpt" VARCHAR(300) NOT NULL,
    "text" TEXT NOT NULL,
    "collected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "responses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "response_sources" (
    "response_id" UUID NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "property_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "model" TEXT NOT NULL,

    CONSTRAINT "response_sources_pkey" PRIMARY KEY ("response_id","ordinal")
);

-- CreateTable
CREATE TABLE "competitors" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT,
    "terms" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "competitors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "response_competitor_mentions" (
    "response_id" UUID NOT NULL,
    "competitor_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "property_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "model" TEXT NOT NULL,

    CONSTRAINT "response_competitor_mentions_pkey" PRIMARY KEY ("response_id","competitor_id")
);

-- CreateTable
CREATE TABLE "action_plans" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "action_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "plan_id" UUID,
    "step_number" INTEGER,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" "task_status" NOT NULL DEFAULT 'backlog',
    "priority" "task_priority",
    "review_state" "task_review_state" NOT NULL DEFAULT 'accepted',
    "due_date" DATE,
    "assignee_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "labels" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT,

    CONSTRAINT "labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_labels" (
    "task_id" UUID NOT NULL,
    "label_id" UUID NOT NULL,

    CONSTRAINT "task_labels_pkey" PRIMARY KEY ("task_id","label_id")
);

-- CreateTable
CREATE TABLE "crawl_events" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "host" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "user_agent" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "method" TEXT,
    "referer" TEXT,
    "crawler" TEXT,
    "operator" TEXT,
    "verification" "crawl_verification",
    "ai_platform" TEXT,

    CONSTRAINT "crawl_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawler_daily_counts" (
    "property_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "crawler" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "verification" "crawl_verification" NOT NULL,
    "hits" INTEGER NOT NULL,

    CONSTRAINT "crawler_daily_counts_pkey" PRIMARY KEY ("property_id","day","crawler","operator","verification")
);

-- CreateTable
CREATE TABLE "crawled_pages" (
    "property_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "crawler" TEXT NOT NULL,
    "hits" INTEGER NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crawled_pages_pkey" PRIMARY KEY ("property_id","path","crawler")
);

-- CreateTable
CREATE TABLE "ai_referral_daily_counts" (
    "property_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "platform" TEXT NOT NULL,
    "landing_path" TEXT NOT NULL,
    "visits" INTEGER NOT NULL,

    CONSTRAINT "ai_referral_daily_counts_pkey" PRIMARY KEY ("property_id","day","platform","landing_path")
);

-- CreateTable
CREATE TABLE "leads" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "event_id" VARCHAR(128) NOT NULL,
    "contact" VARCHAR(320) NOT NULL,
    "email" VARCHAR(320),
    "session_id" VARCHAR(128),
    "landing_path" VARCHAR(2048),
    "referrer" VARCHAR(2048),
    "utm_source" VARCHAR(256),
    "utm_medium" VARCHAR(256),
    "matched" BOOLEAN NOT NULL,
    "platform" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "day" DATE NOT NULL,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ai_lead_daily_counts" (
    "property_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "platform" TEXT NOT NULL,
    "leads" INTEGER NOT NULL,

    CONSTRAINT "ai_lead_daily_counts_pkey" PRIMARY KEY ("property_id","day","platform")
);

-- CreateTable
CREATE TABLE "delivery_log_entries" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "channel" "delivery_channel" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "fix" TEXT,
    "lines_received" INTEGER,
    "lines_kept" INTEGER,
    "host_note" JSONB,
    "idempotency_key" VARCHAR(200),
    "event_id" VARCHAR(128),
    "request_body" TEXT,
    "result" JSONB,
    "lead_id" UUID,

    CONSTRAINT "delivery_log_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_jobs" (
    "job_key" TEXT NOT NULL,
    "queue" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_jobs_pkey" PRIMARY KEY ("job_key")
);

-- CreateTable
CREATE TABLE "crawler_ip_range_sets" (
    "operator" TEXT NOT NULL,
    "creation_time" TIMESTAMPTZ(3),
    "taken_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "prefixes" TEXT[],

    CONSTRAINT "crawler_ip_range_sets_pkey" PRIMARY KEY ("operator")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "teams_slug_key" ON "teams"("slug");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "memberships_team_id_user_id_key" ON "memberships"("team_id", "user_id");

-- CreateIndex
CREATE INDEX "properties_team_id_idx" ON "properties"("team_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_team_id_idx" ON "api_keys"("team_id");

-- CreateIndex
CREATE INDEX "api_key_properties_property_id_idx" ON "api_key_properties"("property_id");

-- CreateIndex
CREATE INDEX "prompts_property_id_created_at_idx" ON "prompts"("property_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "prompts_property_id_text_key" ON "prompts"("property_id", "text");

-- CreateIndex
CREATE INDEX "responses_property_id_day_id_idx" ON "responses"("property_id", "day" DESC, "id");

-- CreateIndex
CREATE INDEX "responses_day_id_idx" ON "responses"("day" DESC, "id");

-- CreateIndex
CREATE INDEX "responses_prompt_id_day_idx" ON "responses"("prompt_id", "day" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "responses_property_id_prompt_id_model_day_key" ON "responses"("property_id", "prompt_id", "model", "day");

-- CreateIndex
CREATE INDEX "response_sources_property_id_day_domain_idx" ON "response_sources"("property_id", "day", "domain");

-- CreateIndex
CREATE INDEX "response_sources_property_id_domain_day_idx" ON "response_sources"("property_id", "domain", "day");

-- CreateIndex
CREATE UNIQUE INDEX "competitors_property_id_name_key" ON "competitors"("property_id", "name");

-- CreateIndex
CREATE INDEX "response_competitor_mentions_property_id_day_idx" ON "response_competitor_mentions"("property_id", "day");

-- CreateIndex
CREATE INDEX "response_competitor_mentions_competitor_id_day_idx" ON "response_competitor_mentions"("competitor_id", "day");

-- CreateIndex
CREATE INDEX "action_plans_property_id_idx" ON "action_plans"("property_id");

-- CreateIndex
CREATE UNIQUE INDEX "action_plans_property_id_title_key" ON "action_plans"("property_id", "title");

-- CreateIndex
CREATE INDEX "tasks_property_id_review_state_created_at_id_idx" ON "tasks"("property_id", "review_state", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "tasks_review_state_created_at_id_idx" ON "tasks"("review_state", "created_at" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "tasks_plan_id_step_number_key" ON "tasks"("plan_id", "step_number");

-- CreateIndex
CREATE UNIQUE INDEX "labels_team_id_name_key" ON "labels"("team_id", "name");

-- CreateIndex
CREATE INDEX "task_labels_label_id_idx" ON "task_labels"("label_id");

-- CreateIndex
CREATE INDEX "crawl_events_property_id_occurred_at_idx" ON "crawl_events"("property_id", "occurred_at" DESC);

-- CreateIndex
CREATE INDEX "crawl_events_received_at_idx" ON "crawl_events"("received_at");

-- CreateIndex
CREATE INDEX "crawled_pages_property_id_last_seen_at_idx" ON "crawled_pages"("property_id", "last_seen_at" DESC);

-- CreateIndex
CREATE INDEX "leads_property_id_received_at_idx" ON "leads"("property_id", "received_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "leads_property_id_event_id_key" ON "leads"("property_id", "event_id");

-- CreateIndex
CREATE INDEX "delivery_log_entries_property_id_channel_created_at_idx" ON "delivery_log_entries"("property_id", "channel", "created_at" DESC);

-- CreateIndex
CREATE INDEX "delivery_log_entries_property_id_channel_idempotency_key_idx" ON "delivery_log_entries"("property_id", "channel", "idempotency_key");

-- CreateIndex
CREATE INDEX "delivery_log_entries_property_id_channel_event_id_idx" ON "delivery_log_entries"("property_id", "channel", "event_id");

-- CreateIndex
CREATE INDEX "processed_jobs_processed_at_idx" ON "processed_jobs"("processed_at");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "properties" ADD CONSTRAINT "properties_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_properties" ADD CONSTRAINT "api_key_properties_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_properties" ADD CONSTRAINT "api_key_properties_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompts" ADD CONSTRAINT "prompts_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "responses" ADD CONSTRAINT "responses_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "responses" ADD CONSTRAINT "responses_prompt_id_fkey" FOREIGN KEY ("prompt_id") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "response_sources" ADD CONSTRAINT "response_sources_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "responses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "competitors" ADD CONSTRAINT "competitors_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "response_competitor_mentions" ADD CONSTRAINT "response_competitor_mentions_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "responses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "response_competitor_mentions" ADD CONSTRAINT "response_competitor_mentions_competitor_id_fkey" FOREIGN KEY ("competitor_id") REFERENCES "competitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "action_plans" ADD CONSTRAINT "action_plans_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "action_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "labels" ADD CONSTRAINT "labels_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_labels" ADD CONSTRAINT "task_labels_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_labels" ADD CONSTRAINT "task_labels_label_id_fkey" FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_events" ADD CONSTRAINT "crawl_events_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawler_daily_counts" ADD CONSTRAINT "crawler_daily_counts_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawled_pages" ADD CONSTRAINT "crawled_pages_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ai_referral_daily_counts" ADD CONSTRAINT "ai_referral_daily_counts_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leads" ADD CONSTRAINT "leads_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ai_lead_daily_counts" ADD CONSTRAINT "ai_lead_daily_counts_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_log_entries" ADD CONSTRAINT "delivery_log_entries_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

