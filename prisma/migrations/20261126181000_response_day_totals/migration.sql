-- /v1/responses' total without a model filter, per property and UTC day (issue 31): summing the
-- daily counts read a row per model, 3,000 for 20 properties over 30 days, the largest part of an
-- uncached page's Postgres time; these are a fifth as many. Kept by the same statement triggers
-- as the daily counts, in the same transaction, after them (so concurrent writers lock rows in one
-- order: daily counts, then these, each in key order).
CREATE TABLE "response_day_totals" (
    "property_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "responses" INTEGER NOT NULL,
    "mentions" INTEGER NOT NULL,
    -- Covering, so a total is an index-only scan.
    CONSTRAINT "response_day_totals_pkey" PRIMARY KEY ("property_id", "day") INCLUDE ("responses", "mentions")
);

ALTER TABLE "response_day_totals" ADD CONSTRAINT "response_day_totals_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The only definition of the totals, as response_daily_counts_merge_sql is of the counts.
CREATE FUNCTION "response_day_totals_merge_sql"("source" text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($sql$
    INSERT INTO "response_day_totals" AS t ("property_id", "day", "responses", "mentions")
    SELECT "property_id", "day", $1 * count(*)::int, $1 * count(*) FILTER (WHERE "mentioned")::int
    FROM %I AS r
    WHERE EXISTS (SELECT 1 FROM "properties" AS p WHERE p."id" = r."property_id")
    GROUP BY "property_id", "day"
    ORDER BY "property_id", "day"
    ON CONFLICT ("property_id", "day") DO UPDATE SET
      "responses" = t."responses" + EXCLUDED."responses",
      "mentions" = t."mentions" + EXCLUDED."mentions"
  $sql$, "source")
$$;

CREATE OR REPLACE FUNCTION "response_daily_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE "response_daily_counts_merge_sql"('old_rows') USING -1;
    EXECUTE "response_day_totals_merge_sql"('old_rows') USING -1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE "response_daily_counts_merge_sql"('new_rows') USING 1;
    EXECUTE "response_day_totals_merge_sql"('new_rows') USING 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION "response_daily_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "response_daily_counts";
  TRUNCATE "response_day_totals";
  RETURN NULL;
END
$$;

-- The answers already stored.
DO $$ BEGIN EXECUTE "response_day_totals_merge_sql"('responses') USING 1; END $$;
