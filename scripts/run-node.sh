#!/usr/bin/env bash
# Runs a TypeScript entry point of the project on Node 24 (fetched when missing).
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
exec node "$@"
