#!/usr/bin/env bash
# The postgres-replica service of docker-compose.scale.yml. On an empty data directory it copies
# the primary with pg_basebackup (-R: the copy starts as a standby of it; -X stream: with the WAL
# written during the copy; -S … -C: under a replication slot of its own, so the primary keeps the
# WAL the replica has yet to fetch), then hands over to the image's entrypoint, which finds a data
# directory and starts it as a hot standby. A data directory already there is started as it is.
set -euo pipefail

primary_host="${PRIMARY_HOST:?set PRIMARY_HOST to the host name of the primary}"
primary_port="${PRIMARY_PORT:-5432}"
slot="${REPLICATION_SLOT:-replica_1}"
export PGDATA="${PGDATA:-/var/lib/postgresql/data}"

# The slot name goes into SQL below, so only what Postgres allows in one (no quoting needed).
if [[ ! "$slot" =~ ^[a-z0-9_]{1,63}$ ]]; then
  echo "REPLICATION_SLOT must be 1 to 63 of a-z, 0-9 and _ (got '$slot')" >&2
  exit 64
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  # pg_basebackup wants an empty directory: clear what an interrupted copy may have left.
  find "$PGDATA" -mindepth 1 -delete
  chown postgres:postgres "$PGDATA"
  chmod 0700 "$PGDATA"

  until gosu postgres pg_isready -q -h "$primary_host" -p "$primary_port" -U postgres; do
    echo "waiting for the primary at $primary_host:$primary_port"
    sleep 2
  done

  # A slot left by an earlier replica whose volume was removed holds WAL for nobody, and -C would
  # refuse to create it again: drop it (only when no standby is streaming from it).
  gosu postgres psql -h "$primary_host" -p "$primary_port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt \
    -c "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '$slot' AND NOT active"

  echo "copying the primary at $primary_host:$primary_port under replication slot $slot"
  gosu postgres pg_basebackup -h "$primary_host" -p "$primary_port" -U postgres -D "$PGDATA" \
    -R -X stream -S "$slot" -C --checkpoint=fast
fi

exec docker-entrypoint.sh "$@"
