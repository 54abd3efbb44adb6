-- Issue 31. Console POSTs under an Idempotency-Key: the first answer, replayed for 24 hours to a
-- retry with the same key and the same request (rows older are deleted when the scope posts again).
CREATE TABLE "idempotent_requests" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "answer" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotent_requests_pkey" PRIMARY KEY ("scope","key")
);

-- A property's own lead webhook secret version, and the previous one's overlap window. All null
-- (every property today): the secret derived from the property id alone, as before.
ALTER TABLE "properties" ADD COLUMN "webhook_secret_nonce" TEXT,
ADD COLUMN "webhook_previous_secret_nonce" TEXT,
ADD COLUMN "webhook_previous_secret_until" TIMESTAMPTZ(3),
ADD COLUMN "webhook_secret_rotated_at" TIMESTAMPTZ(3);
