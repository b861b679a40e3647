#!/bin/sh
# infra/compose/create-topics.sh — the compose stack's topic one-shot (service `kafka-init`).
#
#   create-topics.sh <name:partitions[:compact]>...
#
# Runs inside the apache/kafka image (Alpine: POSIX sh, busybox awk) against
# $BOOTSTRAP_SERVER (default kafka:9092). The topic list comes in as arguments, from the
# `command:` of `kafka-init` in docker-compose.yml, which must match infra/topics.sh
# (test/compose.int.spec.ts checks that). Same behaviour as infra/topics.sh: replication factor
# 1, missing topics are created (`:compact` ones with cleanup.policy=compact, set on an existing
# one that lacks it), a topic with too few partitions is grown, one with too many
# is only reported (Kafka cannot shrink). Idempotent: a second `docker compose up` changes
# nothing. It also triggers the creation of __consumer_offsets and __transaction_state (a
# FindCoordinator lookup), as infra/up.sh does, so the services do not start against "The
# coordinator is loading". Exits non-zero when a topic is still missing or too small.
set -eu

BS="${BOOTSTRAP_SERVER:-kafka:9092}"
BIN="${KAFKA_BIN:-/opt/kafka/bin}"
DONE_MARKER="${DONE_MARKER:-/tmp/parcel-topics.done}"

log() { echo "[kafka-init] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$#" -gt 0 ] || die "no topics given (expected name:partitions[:compact] arguments)"
# The parts of a spec: name_of, partitions_in and policy_of (compact, or empty).
name_of() { printf '%s\n' "${1%%:*}"; }
partitions_in() { rest="${1#*:}"; printf '%s\n' "${rest%%:*}"; }
policy_of() { case "$1" in *:*:compact) echo compact ;; *) echo ;; esac; }
for spec in "$@"; do
  case "$spec" in
    *[!A-Za-z0-9._:-]* | :* | *: | *:*:*:*) die "bad topic spec '$spec' (expected name:partitions[:compact])" ;;
    *:*:*) [ "$(policy_of "$spec")" = compact ] || die "bad topic spec '$spec' (expected name:partitions[:compact])" ;;
  esac
  case "$(partitions_in "$spec")" in '' | *[!0-9]*) die "bad partition count in '$spec'" ;; esac
done

topics() { "$BIN/kafka-topics.sh" --bootstrap-server "$BS" "$@"; }

# One metadata request; fails when the broker does not answer.
describe() { topics --describe --exclude-internal 2>/dev/null; }
# "Topic: <name>\tTopicId: <id>\tPartitionCount: <n>\t...\tConfigs: <k=v,...>" -> "<name> <n> <compact|->"
parse() {
  printf '%s\n' "$1" | awk '/PartitionCount:/ {
      policy = "-"
      for (i = 1; i <= NF; i++) {
        if ($i == "Topic:") name = $(i + 1)
        if ($i == "PartitionCount:") n = $(i + 1)
        if ($i ~ /cleanup\.policy=compact/) policy = "compact"
      }
      print name, n, policy
    }'
}
partitions_of() { printf '%s\n' "$1" | awk -v t="$2" '$1 == t { print $2 }'; }
compacted() { [ "$(printf '%s\n' "$1" | awk -v t="$2" '$1 == t { print $3 }')" = compact ]; }

# depends_on already waits for the broker's health check; this only covers a slow controller.
tries=0
until raw="$(describe)"; do
  tries=$((tries + 1))
  [ "$tries" -lt 30 ] || die "no answer from $BS after 30 attempts"
  sleep 2
done
existing="$(parse "$raw")"

# Coordinator topics: both lookups fail ("not found") by design; the FindCoordinator counts.
"$BIN/kafka-consumer-groups.sh" --bootstrap-server "$BS" --describe --group parcel-compose-warmup >/dev/null 2>&1 &
warm_groups=$!
"$BIN/kafka-transactions.sh" --bootstrap-server "$BS" describe --transactional-id parcel-compose-warmup >/dev/null 2>&1 &
warm_txn=$!

# One JVM per change (TopicCommand takes one --topic), in parallel: JVM start-up dominates.
pids=""
for spec in "$@"; do
  name="$(name_of "$spec")"
  want="$(partitions_in "$spec")"
  policy="$(policy_of "$spec")"
  have="$(partitions_of "$existing" "$name")"
  if [ -z "$have" ]; then
    log "creating $name ($want partitions${policy:+, $policy})"
    if [ "$policy" = compact ]; then
      topics --create --if-not-exists --topic "$name" --partitions "$want" --replication-factor 1 \
        --config cleanup.policy=compact >/dev/null &
    else
      topics --create --if-not-exists --topic "$name" --partitions "$want" --replication-factor 1 >/dev/null &
    fi
    pids="$pids $!"
    continue
  fi
  if [ "$policy" = compact ] && ! compacted "$existing" "$name"; then
    log "topic $name is not compacted, setting cleanup.policy=compact"
    "$BIN/kafka-configs.sh" --bootstrap-server "$BS" --alter --entity-type topics --entity-name "$name" \
      --add-config cleanup.policy=compact >/dev/null &
    pids="$pids $!"
  fi
  if [ "$have" -lt "$want" ]; then
    log "topic $name has $have partitions, growing it to $want"
    topics --alter --topic "$name" --partitions "$want" >/dev/null &
    pids="$pids $!"
  elif [ "$have" -gt "$want" ]; then
    log "WARNING: topic $name has $have partitions, expected $want (Kafka cannot shrink;" \
      "docker compose down -v recreates the broker's data)"
  fi
done
failed=0
for pid in $pids; do wait "$pid" || failed=$((failed + 1)); done
wait "$warm_groups" || true
wait "$warm_txn" || true
[ "$failed" -eq 0 ] || die "$failed topic create/alter command(s) failed on $BS"

# Verify from a fresh metadata request rather than trusting the exit codes alone.
raw="$(describe)" || die "no answer from $BS when verifying the topics"
final="$(parse "$raw")"
for spec in "$@"; do
  name="$(name_of "$spec")"
  want="$(partitions_in "$spec")"
  have="$(partitions_of "$final" "$name")"
  [ -n "$have" ] || die "topic $name is missing after creation"
  [ "$have" -ge "$want" ] || die "topic $name has $have partitions, expected $want"
  [ "$(policy_of "$spec")" != compact ] || compacted "$final" "$name" || die "topic $name is not compacted"
done

log "all $# topics present on $BS"
touch "$DONE_MARKER"
