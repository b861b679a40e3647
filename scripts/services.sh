#!/usr/bin/env bash
# `npm run services`: the distributed wiring on this machine without Docker: starts Kafka,
# mongo-java-server and the PostgreSQL databases (infra/up.sh), then one process per service
# (gateway on PORT, default 8080; the LMX sandbox on 8090; order x2, tracking, label, webhook x2), each in
# the background with its log under .infra/services/. Ctrl-C stops the services (not the infra).
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
eval "$(bash infra/up.sh)"
export PARCEL_LMX_URL="http://127.0.0.1:${PARCEL_SANDBOX_PORT:-8090}" HOST=127.0.0.1
logs=.infra/services; mkdir -p "$logs"
pids=()
run() { # <name> <log> [VAR=value ...]
  local name=$1 log=$2; shift 2
  env "$@" node --max-old-space-size=256 "services/$name/src/main.ts" >"$logs/$log.log" 2>&1 &
  pids+=($!)
  echo "started $name ($log), log: $logs/$log.log"
}
run gateway gateway PORT="${PORT:-8080}"
run carrier-sandbox carrier-sandbox PORT="${PARCEL_SANDBOX_PORT:-8090}" PARCEL_CARRIER_CALLBACK_URL="http://127.0.0.1:${PORT:-8080}"
run order order-1 HEALTH_PORT=0
run order order-2 HEALTH_PORT=0
run tracking tracking HEALTH_PORT=0
run label label HEALTH_PORT=0
run webhook webhook-1 HEALTH_PORT=0
run webhook webhook-2 HEALTH_PORT=0
trap 'kill "${pids[@]}" 2>/dev/null; wait' INT TERM EXIT
wait
