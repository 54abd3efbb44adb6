-- DropIndex
DROP INDEX "crawl_events_received_at_idx";

-- CreateIndex
CREATE INDEX "crawl_events_property_id_received_at_idx" ON "crawl_events"("property_id", "received_at");

