#!/usr/bin/env bash
# `npm start`: brings Node 24 and the dependencies when missing, then runs the embedded stack.
set -euo pipefail
source "$(dirname "$0")/tools.sh"
ensure_deps
cd "$PARCEL_ROOT"
# A bounded old space keeps the service's memory flat: V8 otherwise grows its heap lazily
# towards a limit derived from the machine's memory (24 GiB here). The young generation is bounded
# too: under load V8 grows each semi-space to 64 MiB, and the new space of 128 MiB it then keeps
# was most of the process's growth (RSS 320 MB after 30 000 orders; 236 MB with 16 MiB).
# Two malloc arenas instead of eight per core: the threads (libuv pool, the SQLite writer, V8's
# helpers) allocate little, and memory freed in an arena of their own is rarely given back.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node --max-old-space-size="${PARCEL_HEAP_MB:-256}" --max-semi-space-size=16 services/embedded/src/main.ts
