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
-- costs one aggregated upsert per statement, not one per row. Rows are locked in key order so
-- concurrent writers of the same days cannot deadlock on them.
CREATE FUNCTION "response_daily_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "response_daily_counts" AS c SET
      "responses" = c."responses" - o."responses",
      "mentions" = c."mentions" - o."mentions",
      "position_count" = c."position_count" - o."position_count",
      "position_sum" = c."position_sum" - o."position_sum",
      "sentiment_count" = c."sentiment_count" - o."sentiment_count",
      "sentiment_sum" = c."sentiment_sum" - o."sentiment_sum"
    FROM (
      SELECT "property_id", "day", "model", count(*)::int AS "responses",
        count(*) FILTER (WHERE "mentioned")::int AS "mentions",
        count("position") FILTER (WHERE "mentioned")::int AS "position_count",
        COALESCE(sum("position") FILTER (WHERE "mentioned"), 0)::bigint AS "position_sum",
        count("sentiment") FILTER (WHERE "mentioned")::int AS "sentiment_count",
        COALESCE(sum("sentiment") FILTER (WHERE "mentioned"), 0)::float8 AS "sentiment_sum"
      FROM "old_rows" GROUP BY "property_id", "day", "model"
    ) AS o
    WHERE c."property_id" = o."property_id" AND c."day" = o."day" AND c."model" = o."model";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "response_daily_counts" AS c
      ("property_id", "day", "model", "responses", "mentions", "position_count", "position_sum", "sentiment_count", "sentiment_sum")
    SELECT "property_id", "day", "model", count(*)::int,
      count(*) FILTER (WHERE "mentioned")::int,
      count("position") FILTER (WHERE "mentioned")::int,
      COALESCE(sum("position") FILTER (WHERE "mentioned"), 0)::bigint,
      count("sentiment") FILTER (WHERE "mentioned")::int,
      COALESCE(sum("sentiment") FILTER (WHERE "mentioned"), 0)::float8
    FROM "new_rows" GROUP BY "property_id", "day", "model"
    ORDER BY "property_id", "day", "model"
    ON CONFLICT ("property_id", "day", "model") DO UPDATE SET
      "responses" = c."responses" + EXCLUDED."responses",
      "mentions" = c."mentions" + EXCLUDED."mentions",
      "position_count" = c."position_count" + EXCLUDED."position_count",
      "position_sum" = c."position_sum" + EXCLUDED."position_sum",
      "sentiment_count" = c."sentiment_count" + EXCLUDED."sentiment_count",
      "sentiment_sum" = c."sentiment_sum" + EXCLUDED."sentiment_sum";
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
INSERT INTO "response_daily_counts"
  ("property_id", "day", "model", "responses", "mentions", "position_count", "position_sum", "sentiment_count", "sentiment_sum")
SELECT "property_id", "day", "model", count(*)::int,
  count(*) FILTER (WHERE "mentioned")::int,
  count("position") FILTER (WHERE "mentioned")::int,
  COALESCE(sum("position") FILTER (WHERE "mentioned"), 0)::bigint,
  count("sentiment") FILTER (WHERE "mentioned")::int,
  COALESCE(sum("sentiment") FILTER (WHERE "mentioned"), 0)::float8
FROM "responses" GROUP BY "property_id", "day", "model";
