#!/usr/bin/env bash
# infra/down.sh [--wipe] [kafka] [mongo]   (no service argument: both)
#
# Stops the servers that infra/up.sh started, by their pid files in .infra/ (SIGTERM, then
# SIGKILL after a grace period). Servers that were already running when up.sh found them are
# not touched. PostgreSQL is never stopped (it is the machine's own cluster).
#
#   --wipe   also delete Kafka's data (topics, offsets; the next up.sh formats it afresh).
#            The fetched jars stay cached. mongo-java-server keeps nothing on disk anyway.
set -euo pipefail
# shellcheck source=infra/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

GRACE="${PARCEL_INFRA_STOP_TIMEOUT:-60}"
wipe=0 want_kafka=0 want_mongo=0 any=0
for arg in "$@"; do
  case "$arg" in
    --wipe) wipe=1 ;;
    kafka) want_kafka=1 any=1 ;;
    mongo | mongodb) want_mongo=1 any=1 ;;
    postgres | postgresql | pg) log "postgres: left running (not managed by infra/down.sh)"; any=1 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$arg' (expected: --wipe kafka mongo)" ;;
  esac
done
if [ "$any" = 0 ]; then want_kafka=1 want_mongo=1; fi

stop() { # <name> <pidfile> <marker>
  local name="$1" pidfile="$2" marker="$3" pid
  pid="$(live_pid "$pidfile" "$marker")"
  if [ -z "$pid" ]; then
    [ -f "$pidfile" ] && log "$name: not running (removing stale $(basename "$pidfile"))" ||
      log "$name: not running"
    rm -f "$pidfile"
    return 0
  fi
  log "$name: stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + GRACE))
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "$name: still running after ${GRACE}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
  done
  rm -f "$pidfile"
  log "$name: stopped"
}

if [ "$want_mongo" = 1 ]; then stop mongo "$MONGO_PID" "parcel.infra=mongo"; fi
if [ "$want_kafka" = 1 ]; then
  stop kafka "$KAFKA_PID" "parcel.infra=kafka"
  if [ "$wipe" = 1 ]; then
    if port_open "$KAFKA_PORT"; then
      die "kafka: 127.0.0.1:$KAFKA_PORT still answers (not ours?); not wiping its data"
    fi
    rm -rf "$KAFKA_DIR/data" "$KAFKA_DIR/cluster.id"
    log "kafka: data wiped"
  fi
fi
