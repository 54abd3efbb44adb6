-- CreateTable
CREATE TABLE "signature_key_directories" (
    "origin" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "keys" JSONB NOT NULL,
    "source" TEXT NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "signature_key_directories_pkey" PRIMARY KEY ("origin")
);

