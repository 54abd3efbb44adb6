#!/bin/sh
# ship-crawl-log.sh: posts an access log written in the crawl ingest's field names (the nginx or
# Apache recipe beside this file) to POST /api/ingest/crawl/{propertyId}, as gzipped NDJSON
# batches with the token in Authorization and each batch named by an Idempotency-Key. Uses only
# what stock Debian has: sh, coreutils, util-linux (flock), gzip and curl.
#
#   INGEST_URL=https://ingest.example.com/api/ingest/crawl/<property id> CRAWL_TOKEN=<token> \
#   REOPEN_COMMAND='nginx -s reopen' ship-crawl-log.sh /var/log/nginx/ai_ingest.ndjson
#
# Each run moves LOG_FILE into the spool, asks the server to reopen its log (REOPEN_COMMAND: `nginx
# -s reopen`, `apache2ctl graceful`; without it LOG_FILE is taken as a finished file, for example one
# logrotate made), cuts it into batches of BATCH_LINES lines and mints each batch's key, once, into a
# file beside it. It then sends every batch in the spool; a batch leaves the spool only when the
# gateway has answered 202 (accepted) or 200 (a repeat of a batch it already has), so a batch a run
# could not deliver is sent again by the next run under the same key and is never counted twice.
#   5xx, 429, no answer: retried MAX_ATTEMPTS times, RETRY_DELAY seconds doubling (or Retry-After),
#                        then left for the next run (exit 1)
#   413:                 split in two, each half a new batch with a new key (the spec's rule)
#   400:                 moved to SPOOL_DIR/rejected with the gateway's answer (exit 1)
#   401, 402, 403, 404:  the run stops and the batches stay (exit 1): a wrong URL or token, or a
#                        property that does not take data, applies to every batch
# Run it every minute (cron or a systemd timer): signing agents sign for minutes, and a line that
# arrives after its signature expired is kept as unverified.
set -eu

LOG_FILE=${1:?usage: ship-crawl-log.sh LOG_FILE (INGEST_URL and CRAWL_TOKEN in the environment)}
: "${INGEST_URL:?set INGEST_URL to the crawl ingest URL that pnpm ops property show prints}"
: "${CRAWL_TOKEN:?set CRAWL_TOKEN to the property crawl token}"
# The spool must be on LOG_FILE's file system: the log is moved into it by a rename.
SPOOL_DIR=${SPOOL_DIR:-$LOG_FILE.spool}
BATCH_LINES=${BATCH_LINES:-20000}
MAX_ATTEMPTS=${MAX_ATTEMPTS:-5}
RETRY_DELAY=${RETRY_DELAY:-2}
REOPEN_COMMAND=${REOPEN_COMMAND:-}
REOPEN_WAIT=${REOPEN_WAIT:-2}

say() { printf 'ship-crawl-log: %s\n' "$*"; }

mkdir -p "$SPOOL_DIR/rejected"
# One run at a time: two runs would send the same spooled batch at once.
exec 9>"$SPOOL_DIR/.lock"
if ! flock -n 9; then
  say "another run holds $SPOOL_DIR/.lock"
  exit 0
fi

new_key() { cat /proc/sys/kernel/random/uuid; }

# Cuts new-*/source into batches with their keys; the source goes only once every key is written,
# so a run that dies here starts the cut again and a batch never exists without its key.
cut_batches() {
  dir=$1
  if [ -f "$dir/source" ]; then
    rm -f "$dir"/batch-*
    split -l "$BATCH_LINES" -a 4 "$dir/source" "$dir/batch-"
    for part in "$dir"/batch-*; do
      [ -e "$part" ] || continue
      mv "$part" "$part.ndjson"
      new_key >"$part.key"
    done
    rm "$dir/source"
  fi
  mv "$dir" "$SPOOL_DIR/ready-${dir##*/new-}"
}

# A run that died before its batches were cut.
for dir in "$SPOOL_DIR"/new-*; do
  [ -d "$dir" ] && cut_batches "$dir"
done

if [ -s "$LOG_FILE" ]; then
  dir="$SPOOL_DIR/new-$(date -u +%Y%m%dT%H%M%SZ)-$$"
  mkdir "$dir"
  mv "$LOG_FILE" "$dir/source"
  if [ -n "$REOPEN_COMMAND" ]; then
    sh -c "$REOPEN_COMMAND"
    # Requests in flight still write to the moved file until the server has reopened its log.
    sleep "$REOPEN_WAIT"
  fi
  cut_batches "$dir"
fi

# Sends one batch under its key. Returns 0 when it left the spool (sent, split or rejected),
# 1 to leave it for the next run, 2 to stop the run.
send_batch() {
  batch=$1
  base=${batch%.ndjson}
  key=$(cat "$base.key")
  gzip -c "$batch" >"$base.gz"
  attempt=1
  delay=$RETRY_DELAY
  while :; do
    # The token goes to curl on its standard input, not its command line, where ps would show it.
    status=$(printf 'header = "Authorization: Bearer %s"\n' "$CRAWL_TOKEN" |
      curl -sS -K - -X POST "$INGEST_URL" --max-time 300 -o "$base.answer" -D "$base.headers" -w '%{http_code}' \
        -H 'Content-Type: application/x-ndjson' -H 'Content-Encoding: gzip' -H "Idempotency-Key: $key" \
        --data-binary @"$base.gz") || status=000
    answer=$(cat "$base.answer" 2>/dev/null || true)
    case $status in
      200 | 202)
        say "${batch##*/}: $status $answer"
        rm -f "$batch" "$base.key" "$base.gz" "$base.answer" "$base.headers"
        return 0
        ;;
      413)
        lines=$(wc -l <"$batch")
        if [ "$lines" -gt 1 ]; then
          say "${batch##*/}: 413, split in two"
          split -l $(((lines + 1) / 2)) -a 1 "$batch" "$base-"
          for half in "$base"-?; do
            mv "$half" "$half.ndjson"
            new_key >"$half.key"
          done
          rm -f "$batch" "$base.key" "$base.gz" "$base.answer" "$base.headers"
          return 0
        fi
        ;;
      400) ;;
      401 | 402 | 403 | 404)
        say "${batch##*/}: $status $answer; stopping, the batches stay in $SPOOL_DIR"
        rm -f "$base.gz" "$base.answer" "$base.headers"
        return 2
        ;;
      *)
        if [ "$attempt" -lt "$MAX_ATTEMPTS" ]; then
          wait_for=$(sed -n 's/^[Rr]etry-[Aa]fter: *\([0-9][0-9]*\).*/\1/p' "$base.headers" 2>/dev/null || true)
          [ -n "$wait_for" ] && [ "$wait_for" -gt "$delay" ] && delay=$wait_for
          say "${batch##*/}: ${status} ${answer}; retrying in ${delay} s under the same key"
          sleep "$delay"
          attempt=$((attempt + 1))
          delay=$((delay * 2))
          continue
        fi
        say "${batch##*/}: $status $answer; left for the next run"
        rm -f "$base.gz" "$base.answer" "$base.headers"
        return 1
        ;;
    esac
    # 400, or a one-line batch still too large: sending it again cannot succeed.
    say "${batch##*/}: $status $answer; moved to $SPOOL_DIR/rejected"
    mv "$batch" "$base.key" "$SPOOL_DIR/rejected/"
    printf '%s\n' "$answer" >"$SPOOL_DIR/rejected/${base##*/}.answer"
    rm -f "$base.gz" "$base.answer" "$base.headers"
    return 1
  done
}

failed=0
for dir in "$SPOOL_DIR"/ready-*; do
  [ -d "$dir" ] || continue
  # A batch split in two adds its halves to the directory: look again until none is left to try.
  tried=' '
  while :; do
    next=''
    for batch in "$dir"/*.ndjson; do
      [ -e "$batch" ] || continue
      case $tried in *" $batch "*) continue ;; esac
      next=$batch
      break
    done
    [ -n "$next" ] || break
    tried="$tried$next "
    rc=0
    send_batch "$next" || rc=$?
    [ "$rc" -eq 2 ] && exit 1
    [ "$rc" -eq 1 ] && failed=1
  done
  rmdir "$dir" 2>/dev/null || true
done
exit "$failed"
