#!/usr/bin/env bash
# `npm run bench`: runs every benchmark under bench/ and writes bench/results/*.json.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
# The distributed benchmark needs Kafka, PostgreSQL and mongo-java-server.
eval "$(bash infra/up.sh)"
for b in bench/*.bench.ts; do
  echo "== $b"
  node "$b"
done
