#!/usr/bin/env bash
# `npm run services`: the distributed wiring on this machine without Docker: starts Kafka,
# mongo-java-server and the PostgreSQL databases (infra/up.sh), then the stack of packages/stack,
# one process each (scripts/services.ts). Ctrl-C stops the services (not the infra).
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
eval "$(bash infra/up.sh)"
exec node scripts/services.ts
