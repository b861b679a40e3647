# Shared by infra/containers/*.sh. Source it, do not run it.
# shellcheck shell=bash
# shellcheck source=infra/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib.sh"
CT_SRC="$INFRA_SRC/containers"
CT_STATE="$INFRA_STATE/containers"
# runc and lower default ulimits (see the file); read by podman and its API service.
export CONTAINERS_CONF="${CONTAINERS_CONF:-$CT_SRC/containers.conf}"
log() { echo "[containers] $*" >&2; }
die() { echo "[containers] ERROR: $*" >&2; exit 1; }
