-- CreateTable
CREATE TABLE "agent_catalogue_versions" (
    "version" TEXT NOT NULL,
    "catalogue" JSONB NOT NULL,
    "source" TEXT NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_catalogue_versions_pkey" PRIMARY KEY ("version")
);

