-- DropIndex
DROP INDEX "delivery_log_entries_property_id_channel_idempotency_key_idx";

