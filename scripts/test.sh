#!/usr/bin/env bash
# `npm test`: installs and starts whatever the tests need (Node 24, dependencies, Debian packages,
# Kafka, mongo-java-server, the PostgreSQL databases), then lint, type-check and every jest suite.
# Servers that were already running are reused and left running; the ones started here are stopped.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
source infra/lib.sh

bash infra/apt.sh $(grep -v '^#' scripts/apt-packages.txt)

started=()
port_open "${PARCEL_KAFKA_PORT:-19092}" || started+=(kafka)
port_open "${PARCEL_MONGO_PORT:-27117}" || started+=(mongo)
stop_started() { if [ ${#started[@]} -gt 0 ]; then bash infra/down.sh "${started[@]}" >&2 || true; fi; }
trap stop_started EXIT
eval "$(bash infra/up.sh)"

echo "== lint"; pnpm exec eslint .
echo "== typecheck"; pnpm exec tsc -p tsconfig.json
echo "== jest"
results="$(mktemp)"
status=0
pnpm exec jest --ci --json --outputFile="$results" "$@" || status=$?
node -e '
  const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
' "$results" || true
exit "$status"
