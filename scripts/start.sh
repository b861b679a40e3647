#!/usr/bin/env bash
# `npm start`: brings Node 24 and the dependencies when missing, then runs the embedded stack.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
exec node services/embedded/src/main.ts
