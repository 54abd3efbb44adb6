#!/usr/bin/env bash
# Writes the SQL that takes the schema from one datamodel to another, offline.
#
#   prisma/generate-migration.sh <name>                   # diff from the last committed schema
#   prisma/generate-migration.sh <name> --from-empty      # the whole schema
#
# Prisma 7's migrate engine is a native download these machines cannot reach; Prisma 6.19's
# `migrate diff` runs on WASM with the pg adapter (see docs/operators.md, "Database and migrations (Prisma offline)"). This script
# installs that CLI in a scratch directory (npm registry only) and runs the diff there; the new
# migration lands in prisma/migrations/<timestamp>_<name>/migration.sql in Prisma's layout.
set -euo pipefail
name=${1:?usage: generate-migration.sh <name> [--from-empty]}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${PRISMA6_DIR:-/tmp/vt-prisma6}
mkdir -p "$work/prisma"
if [ ! -x "$work/node_modules/.bin/prisma" ]; then
  (cd "$work" && npm init -y >/dev/null && npm i --silent prisma@6.19 @prisma/adapter-pg@6.19 pg >/dev/null)
fi
cat > "$work/prisma.config.ts" <<'CFG'
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  async adapter() { return new PrismaPg({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' }); },
});
CFG
# Prisma 6 wants the old generator and a datasource url; neither changes the SQL.
to6() {
  sed -e 's#provider     = "prisma-client"#provider = "prisma-client-js"#' -e '/output       =/d' -e '/moduleFormat =/d' \
      -e 's#^  provider = "postgresql"$#  provider = "postgresql"\n  url      = "postgresql://localhost/unused"#'
}
to6 < "$root/prisma/schema.prisma" > "$work/prisma/schema.prisma"
if [ "${2:-}" = "--from-empty" ]; then
  from=(--from-empty)
else
  git -C "$root" show HEAD:prisma/schema.prisma | to6 > "$work/prisma/previous.prisma"
  from=(--from-schema-datamodel prisma/previous.prisma)
fi
dir="$root/prisma/migrations/$(date -u +%Y%m%d%H%M%S)_${name}"
mkdir -p "$dir"
(cd "$work" && PRISMA_QUERY_ENGINE_LIBRARY=/bin/true PRISMA_SCHEMA_ENGINE_BINARY=/bin/true \
  npx prisma migrate diff "${from[@]}" --to-schema-datamodel prisma/schema.prisma --script) > "$dir/migration.sql"
echo "wrote $dir/migration.sql"
