#!/usr/bin/env bash
# `npm test`: installs and starts whatever the tests need, then lint, type-check and every jest suite.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
if [ -f scripts/apt-packages.txt ]; then
  bash infra/apt.sh $(grep -v '^#' scripts/apt-packages.txt)
fi

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
