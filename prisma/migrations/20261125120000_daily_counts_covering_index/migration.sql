-- The visibility series walks the daily counts newest day first, then property and model, and the
-- /v1 totals sum them over a day range. With the counts' columns in the index (INCLUDE, which
-- Prisma's schema cannot express) both are index-only scans, and the series' order is the index's
-- own, so a page stops after its rows instead of sorting the whole range. The counts change once
-- per statement that stores answers (daily), so the wider index costs writes almost nothing.
DROP INDEX "response_daily_counts_day_property_id_model_idx";

CREATE INDEX "response_daily_counts_day_property_id_model_idx" ON "response_daily_counts"("day" DESC, "property_id", "model")
  INCLUDE ("responses", "mentions", "position_count", "position_sum", "sentiment_count", "sentiment_sum");
