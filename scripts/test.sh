#!/usr/bin/env bash
# `npm test`: installs and starts whatever the tests need (Node 24, dependencies, Debian packages,
# Kafka, mongo-java-server, the PostgreSQL databases), then format, lint, the import rules
# (.dependency-cruiser.cjs), type-check and every jest suite.
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

echo "== format"; pnpm exec prettier --check --log-level warn "**/*.{ts,mjs,cjs,js}"
echo "== lint"; pnpm exec eslint .
echo "== imports"; pnpm exec depcruise packages services test bench scripts infra --config .dependency-cruiser.cjs --output-type err
echo "== typecheck"; pnpm exec tsc -p tsconfig.json
echo "== jest"
results="$(mktemp)"
status=0
pnpm exec jest --ci --json --outputFile="$results" "$@" || status=$?

# The suites that stop and start the shared Kafka broker run alone, after everything else, and so
# does the compose stack under podman (it builds images and loads both cores; docs/compose.md).
restart="$(mktemp)"
if [ $# -eq 0 ]; then
  echo "== jest: broker restart and compose stack suites (serial)"
  PARCEL_KAFKA_RESTART_TEST=1 PARCEL_COMPOSE_TEST=1 pnpm exec jest --ci --runInBand --json --outputFile="$restart" \
    packages/bus-kafka/src/kafka.restart.int.spec.ts test/e2e/brokerRestart.e2e.spec.ts \
    test/composeRun.int.spec.ts || status=$?
fi
node -e '
  const fs = require("node:fs");
  const read = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch { return null; } };
  const [all, restart] = [read(process.argv[1]), read(process.argv[2])];
  const passed = all.numPassedTests + (restart?.numPassedTests ?? 0);
  const failed = all.numFailedTests + (restart?.numFailedTests ?? 0);
  // Skipped in the first pass only because they wait for the serial one.
  const skipped = all.numPendingTests - (restart ? restart.numPassedTests + restart.numFailedTests : 0) + (restart?.numPendingTests ?? 0);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$results" "$restart" || true
exit "$status"
