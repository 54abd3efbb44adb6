-- CreateTable
CREATE TABLE "response_daily_counts" (
    "property_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "model" TEXT NOT NULL,
    "responses" INTEGER NOT NULL,
    "mentions" INTEGER NOT NULL,
    "position_count" INTEGER NOT NULL,
    "position_sum" BIGINT NOT NULL,
    "sentiment_count" INTEGER NOT NULL,
    "sentiment_sum" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "response_daily_counts_pkey" PRIMARY KEY ("property_id","day","model")
);

-- CreateIndex
CREATE INDEX "response_daily_counts_day_property_id_model_idx" ON "response_daily_counts"("day", "property_id", "model");

-- AddForeignKey
ALTER TABLE "response_daily_counts" ADD CONSTRAINT "response_daily_counts_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Kept by statement-level triggers with transition tables: a bulk insert of a day's answers
-- costs one aggregated upsert per statement, not one per row. One merge statement, run by the
-- triggers (old rows with sign -1, new rows with +1) and the backfill, holds the only definition
-- of the counts; rows are upserted in key order so concurrent writers of the same days cannot
-- deadlock. It is returned as text and run by the caller: a transition table is visible only to
-- the trigger function's own statements.
CREATE FUNCTION "response_daily_counts_merge_sql"("source" text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($sql$
    INSERT INTO "response_daily_counts" AS c
      ("property_id", "day", "model", "responses", "mentions", "position_count", "position_sum", "sentiment_count", "sentiment_sum")
    SELECT "property_id", "day", "model",
      $1 * count(*)::int,
      $1 * count(*) FILTER (WHERE "mentioned")::int,
      $1 * count("position") FILTER (WHERE "mentioned")::int,
      $1 * COALESCE(sum("position") FILTER (WHERE "mentioned"), 0)::bigint,
      $1 * count("sentiment") FILTER (WHERE "mentioned")::int,
      $1 * COALESCE(sum("sentiment") FILTER (WHERE "mentioned"), 0)::float8
    FROM %I AS r
    -- Answers removed with their property leave nothing to count (its counts went with it).
    WHERE EXISTS (SELECT 1 FROM "properties" AS p WHERE p."id" = r."property_id")
    GROUP BY "property_id", "day", "model"
    ORDER BY "property_id", "day", "model"
    ON CONFLICT ("property_id", "day", "model") DO UPDATE SET
      "responses" = c."responses" + EXCLUDED."responses",
      "mentions" = c."mentions" + EXCLUDED."mentions",
      "position_count" = c."position_count" + EXCLUDED."position_count",
      "position_sum" = c."position_sum" + EXCLUDED."position_sum",
      "sentiment_count" = c."sentiment_count" + EXCLUDED."sentiment_count",
      "sentiment_sum" = c."sentiment_sum" + EXCLUDED."sentiment_sum"
  $sql$, "source")
$$;

CREATE FUNCTION "response_daily_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE "response_daily_counts_merge_sql"('old_rows') USING -1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE "response_daily_counts_merge_sql"('new_rows') USING 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "responses_daily_counts_insert" AFTER INSERT ON "responses"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "response_daily_counts_apply"();
CREATE TRIGGER "responses_daily_counts_update" AFTER UPDATE ON "responses"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "response_daily_counts_apply"();
CREATE TRIGGER "responses_daily_counts_delete" AFTER DELETE ON "responses"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "response_daily_counts_apply"();

CREATE FUNCTION "response_daily_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "response_daily_counts";
  RETURN NULL;
END
$$;
CREATE TRIGGER "responses_daily_counts_truncate" AFTER TRUNCATE ON "responses"
  FOR EACH STATEMENT EXECUTE FUNCTION "response_daily_counts_truncate"();

-- The answers already stored.
DO $$ BEGIN EXECUTE "response_daily_counts_merge_sql"('responses') USING 1; END $$;
