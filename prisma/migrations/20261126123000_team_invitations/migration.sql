-- Invitations to join a team by email (issue 29). The link carries a token; only its SHA-256 is
-- kept, so a copy of the database opens no invitation. An invitation is pending until it is
-- accepted, revoked or past expires_at (7 days after it was last sent); each send writes its email
-- to outgoing_emails in the same transaction.
CREATE TABLE "team_invitations" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    -- Lower-cased like users.email, so the accepting account is matched exactly.
    "email" TEXT NOT NULL,
    "role" "team_role" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "accepted_by_id" UUID,
    "revoked_at" TIMESTAMPTZ(3),
    "last_sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "send_count" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "team_invitations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "team_invitations_token_hash_key" ON "team_invitations"("token_hash");

-- One open invitation per team and email: inviting the same address again renews that one.
CREATE UNIQUE INDEX "team_invitations_open_key" ON "team_invitations"("team_id", "email")
  WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL;

CREATE INDEX "team_invitations_team_id_created_at_idx" ON "team_invitations"("team_id", "created_at" DESC);

ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_invited_by_id_fkey" FOREIGN KEY ("invited_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_accepted_by_id_fkey" FOREIGN KEY ("accepted_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
