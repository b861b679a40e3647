#!/usr/bin/env bash
# `npm start`: brings Node 24 and the dependencies when missing, then runs the embedded stack.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
# A bounded old space keeps the service's memory flat: V8 otherwise grows its heap lazily
# towards a limit derived from the machine's memory (24 GiB here).
exec node --max-old-space-size="${PARCEL_HEAP_MB:-256}" services/embedded/src/main.ts
