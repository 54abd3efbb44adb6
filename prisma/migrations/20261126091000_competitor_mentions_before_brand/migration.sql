-- The home overview's average rank among the brands an answer names is 1 + the competitors first
-- named before the brand. Reading that per answer means pairing every competitor mention with its
-- answer's position at read time (a sort or a join over every mention of the range: over 100 ms on
-- 90 days of demo data). Kept on the mention instead, the overview sums it with the mention counts
-- it already reads, from one index.
ALTER TABLE "response_competitor_mentions" ADD COLUMN "before_brand" BOOLEAN NOT NULL DEFAULT false;

UPDATE "response_competitor_mentions" AS m SET "before_brand" = true
FROM "responses" AS r
WHERE r."id" = m."response_id" AND r."mentioned" AND m."position" < r."position";

-- A mention is stored after its answer (the answer store upserts the answers, then replaces their
-- mentions), so the answer's verdict is there to compare with.
CREATE FUNCTION "response_competitor_mentions_set_before_brand"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."before_brand" := COALESCE(
    (SELECT r."mentioned" AND NEW."position" < r."position" FROM "responses" AS r WHERE r."id" = NEW."response_id"),
    false);
  RETURN NEW;
END
$$;

CREATE TRIGGER "response_competitor_mentions_before_brand"
BEFORE INSERT OR UPDATE OF "position", "response_id" ON "response_competitor_mentions"
FOR EACH ROW EXECUTE FUNCTION "response_competitor_mentions_set_before_brand"();

-- An answer whose verdict moves (re-judged with other brand terms) re-reads its mentions'.
CREATE FUNCTION "responses_refresh_before_brand"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "response_competitor_mentions" AS m
  SET "before_brand" = COALESCE(NEW."mentioned" AND m."position" < NEW."position", false)
  WHERE m."response_id" = NEW."id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "responses_before_brand"
AFTER UPDATE OF "mentioned", "position" ON "responses"
FOR EACH ROW
WHEN (OLD."mentioned" IS DISTINCT FROM NEW."mentioned" OR OLD."position" IS DISTINCT FROM NEW."position")
EXECUTE FUNCTION "responses_refresh_before_brand"();

-- The overview counts mentions per property, day and competitor, with those before the brand:
-- with both in the index (INCLUDE, which Prisma's schema cannot express) it reads no table row
-- once the rows are all-visible.
DROP INDEX "response_competitor_mentions_property_id_day_idx";
CREATE INDEX "response_competitor_mentions_property_id_day_idx" ON "response_competitor_mentions"("property_id", "day")
  INCLUDE ("competitor_id", "before_brand");
