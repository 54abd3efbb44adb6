-- crawl_events partitioned by receipt day (RANGE on received_at, one partition per UTC day), so
-- retention drops whole days instead of deleting rows as batches arrive (delete storms, bloat,
-- vacuum debt at volume). A DEFAULT partition takes any row whose day has no partition yet, so
-- a batch is never refused for want of one; creating that day's partition later moves its rows
-- out of the default.
--
-- The primary key must hold the partition key: (id, received_at). Nothing looks a raw event up
-- by id alone, and ids are gen_random_uuid(), so the wider key loses nothing.

-- The table as it was, renamed with its index-backed names, which share the namespace of the
-- new table's indexes.
ALTER TABLE "crawl_events" RENAME TO "crawl_events_unpartitioned";
ALTER TABLE "crawl_events_unpartitioned" RENAME CONSTRAINT "crawl_events_pkey" TO "crawl_events_unpartitioned_pkey";
ALTER TABLE "crawl_events_unpartitioned" RENAME CONSTRAINT "crawl_events_property_id_fkey" TO "crawl_events_unpartitioned_property_id_fkey";
ALTER INDEX "crawl_events_property_id_occurred_at_idx" RENAME TO "crawl_events_unpartitioned_property_id_occurred_at_idx";
ALTER INDEX "crawl_events_property_id_received_at_idx" RENAME TO "crawl_events_unpartitioned_property_id_received_at_idx";

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

    CONSTRAINT "crawl_events_pkey" PRIMARY KEY ("id", "received_at")
) PARTITION BY RANGE ("received_at");

CREATE INDEX "crawl_events_property_id_occurred_at_idx" ON "crawl_events"("property_id", "occurred_at" DESC);
CREATE INDEX "crawl_events_property_id_received_at_idx" ON "crawl_events"("property_id", "received_at");
ALTER TABLE "crawl_events" ADD CONSTRAINT "crawl_events_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "crawl_events_default" PARTITION OF "crawl_events" DEFAULT;

-- The one way a day's partition is made: by this migration, the crawl worker's scheduled
-- maintenance and `ops db partitions`. Idempotent. The table is made on its own and then
-- attached, which locks crawl_events less than CREATE TABLE ... PARTITION OF (inserts go on);
-- rows of that day already in the default partition move into it in the same transaction, or
-- the attach would fail. Returns whether it made the partition.
CREATE FUNCTION "crawl_events_create_partition"("day" DATE) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
DECLARE
  partition_name TEXT := 'crawl_events_p' || to_char("day", 'YYYYMMDD');
  day_start TIMESTAMPTZ := ("day"::TIMESTAMP AT TIME ZONE 'UTC');
  day_end TIMESTAMPTZ := (("day" + 1)::TIMESTAMP AT TIME ZONE 'UTC');
BEGIN
  -- Two makers of one day (worker replicas, ops) take turns; the second finds it made.
  PERFORM pg_advisory_xact_lock(hashtext('crawl_events_partitions'));
  IF to_regclass(format('%I', partition_name)) IS NOT NULL THEN
    RETURN FALSE;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE "crawl_events" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', partition_name);
  EXECUTE format(
    'WITH moved AS (DELETE FROM "crawl_events_default" WHERE "received_at" >= $1 AND "received_at" < $2 RETURNING *)
     INSERT INTO %I SELECT * FROM moved', partition_name)
    USING day_start, day_end;
  EXECUTE format('ALTER TABLE "crawl_events" ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
    partition_name, day_start, day_end);
  RETURN TRUE;
END
$$;

-- A partition for every day the existing rows were received on, and for today and the week
-- ahead, then the rows moved across and the old table dropped.
SELECT "crawl_events_create_partition"(d::DATE)
FROM (
  SELECT DISTINCT ("received_at" AT TIME ZONE 'UTC')::DATE AS d FROM "crawl_events_unpartitioned"
  UNION
  SELECT (now() AT TIME ZONE 'UTC')::DATE + i FROM generate_series(0, 7) AS i
) AS days
ORDER BY d;

INSERT INTO "crawl_events" SELECT * FROM "crawl_events_unpartitioned";
DROP TABLE "crawl_events_unpartitioned";
