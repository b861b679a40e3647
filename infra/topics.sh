#!/usr/bin/env bash
# infra/topics.sh — creates the project's Kafka topics with explicit partition counts.
#
# Idempotent: one `--describe` (a metadata request; it also serves as up.sh's readiness
# check), then `--create --if-not-exists` only for missing topics. A topic that exists with
# fewer partitions than listed here is grown (`--alter`); one with more only gets a warning
# (Kafka cannot shrink partitions; delete it or wipe the data: infra/down.sh --wipe).
# A topic listed with `:compact` is created with cleanup.policy=compact (a key's latest value is
# kept, a tombstone deletes it: packages/contracts COMPACTED_TOPICS); an existing one without it is
# altered to it.
#
# The topics that carry documents of labels (a reply of get-shipping-labels, its dead letter) take
# records of up to 16 MiB (max.message.bytes), as infra/up.sh's broker does: set on creation, and on
# an existing topic that lacks it (a broker started before the limit was raised). docs/bulk.md.
#
# Broker: $PARCEL_KAFKA_BROKERS, else 127.0.0.1:$PARCEL_KAFKA_PORT (default 19092).
# Uses the Kafka jars fetched by infra/up.sh (fetches them if missing).
set -euo pipefail
# shellcheck source=infra/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

BROKERS="${PARCEL_KAFKA_BROKERS:-127.0.0.1:$KAFKA_PORT}"

# name:partitions[:compact] (replication factor is always 1: single broker).
TOPICS=(
  parcel.commands.order:6
  parcel.commands.tracking:6
  parcel.commands.label:3
  parcel.replies:6
  parcel.events.v1:6
  parcel.events.v2:6
  parcel.personal.v1:6:compact
  parcel.deadletter.v1:1
  parcel.orders.batch:6
)

# Records of up to 16 MiB on these (the broker's message.max.bytes in infra/up.sh).
MAX_MESSAGE_BYTES=16777216
LARGE_TOPICS=" parcel.replies parcel.commands.label parcel.deadletter.v1 "

fetch_jars kafka

topic_cmd() { kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$BROKERS" "$@"; }
# TopicCommand warns about '.' in topic names (metrics-name collision with '_'); not relevant here.
quiet() { grep -v "^WARNING: Due to limitations in metric names" >&2 || true; }

if ! described="$(topic_cmd --describe --exclude-internal)"; then
  die "could not describe topics on $BROKERS (is Kafka up? infra/up.sh kafka)"
fi
# "Topic: <name>\tTopicId: <id>\tPartitionCount: <n>\t...\tConfigs: <k=v,...>" -> "<name> <n> <compact|-> <max.message.bytes|->"
existing="$(awk '/PartitionCount:/ {
    policy = "-"; max = "-"
    for (i = 1; i <= NF; i++) {
      if ($i == "Topic:") name = $(i + 1)
      if ($i == "PartitionCount:") n = $(i + 1)
      if ($i ~ /cleanup\.policy=compact/) policy = "compact"
      if (match($i, /max\.message\.bytes=[0-9]+/)) max = substr($i, RSTART + 18, RLENGTH - 18)
    }
    print name, n, policy, max
  }' <<<"$described")"

# One TopicCommand JVM per change (it takes a single --topic); they run in parallel, as JVM
# start-up dominates. Only on the first run (or after a --wipe) is there anything to do.
created=0 pids=()
for spec in "${TOPICS[@]}"; do
  IFS=: read -r name want policy <<<"$spec"
  have="$(awk -v t="$name" '$1 == t { print $2 }' <<<"$existing")"
  configs=()
  [ "$policy" = compact ] && configs=(--config cleanup.policy=compact)
  large=0
  case "$LARGE_TOPICS" in *" $name "*) large=1 ;; esac
  [ "$large" = 1 ] && configs+=(--config "max.message.bytes=$MAX_MESSAGE_BYTES")
  if [ -z "$have" ]; then
    topic_cmd --create --if-not-exists --topic "$name" --partitions "$want" \
      --replication-factor 1 "${configs[@]}" 2>&1 | quiet &
    pids+=($!)
    created=$((created + 1))
    continue
  fi
  if [ "$policy" = compact ] && [ "$(awk -v t="$name" '$1 == t { print $3 }' <<<"$existing")" != compact ]; then
    log "topic $name is not compacted, setting cleanup.policy=compact"
    kafka_tool kafka.admin.ConfigCommand --bootstrap-server "$BROKERS" --alter --entity-type topics \
      --entity-name "$name" --add-config cleanup.policy=compact 2>&1 | quiet &
    pids+=($!)
  fi
  if [ "$large" = 1 ] && [ "$(awk -v t="$name" '$1 == t { print $4 }' <<<"$existing")" != "$MAX_MESSAGE_BYTES" ]; then
    log "topic $name takes records of up to $MAX_MESSAGE_BYTES bytes, setting max.message.bytes"
    kafka_tool kafka.admin.ConfigCommand --bootstrap-server "$BROKERS" --alter --entity-type topics \
      --entity-name "$name" --add-config "max.message.bytes=$MAX_MESSAGE_BYTES" 2>&1 | quiet &
    pids+=($!)
  fi
  if [ "$have" -lt "$want" ]; then
    log "topic $name has $have partitions, growing it to $want"
    topic_cmd --alter --topic "$name" --partitions "$want" 2>&1 | quiet &
    pids+=($!)
  elif [ "$have" -gt "$want" ]; then
    log "WARNING: topic $name has $have partitions, expected $want (Kafka cannot shrink;" \
      "infra/down.sh --wipe then infra/up.sh to recreate)"
  fi
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
[ "$failed" -eq 0 ] || die "$failed topic create/alter command(s) failed on $BROKERS"

if [ "$created" -gt 0 ]; then
  log "topics: created $created, ${#TOPICS[@]} in total on $BROKERS"
else
  log "topics: all ${#TOPICS[@]} present on $BROKERS"
fi
