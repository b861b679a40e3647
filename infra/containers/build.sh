#!/usr/bin/env bash
# infra/containers/build.sh — builds, with podman and no image registry, every image that
# docker-compose.yml needs with the override infra/containers/compose.local.yml:
#
#   localhost/parcel-debian     Debian bookworm (minbase) made by debootstrap, imported
#   localhost/parcel-node       Node 24 (npm registry's node-linux-<arch>) + npm + user node
#   localhost/parcel-jre        Debian's OpenJDK 17 runtime
#   localhost/parcel-kafka      Kafka 4.3.1 (KRaft) from Maven Central's jars (infra/kafka)
#   localhost/parcel-postgres   PostgreSQL 15 from Debian's packages
#   localhost/parcel-mongo      mongo-java-server from Maven Central's jars (infra/mongo)
#   localhost/parcel-otlp       the OTLP/HTTP receiver standing in for Jaeger (otlp/receiver.ts)
#   parcel-logistics:dev        the project's Dockerfile, with NODE_IMAGE=localhost/parcel-node:local
#
# Each infrastructure image is tagged with a hash of its inputs (its Containerfile and the
# files copied into it, the versions, the hash of its base) and is built only when no image
# has that tag; the tag `local` then points at it (compose.local.yml names that one). The
# project's image is built every time: podman's layer cache makes an unchanged build quick.
# Prints one line per image. Needs root (rootful podman), debootstrap, Java and Maven.
#
#   PARCEL_DEBIAN_MIRROR   mirror for debootstrap (default: debootstrap's own)
#   PARCEL_IMAGE           name of the project's image (default parcel-logistics:dev)
#   PARCEL_SKIP_APP_IMAGE  1: infrastructure images only
set -euo pipefail
# shellcheck source=infra/containers/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SUITE=bookworm
NODE_VERSION="$(sed -n 's/^PARCEL_NODE_VERSION="\(.*\)"$/\1/p' "$REPO_ROOT/scripts/tools.sh")"
NPM_VERSION=11.6.2
case "$(uname -m)" in x86_64) NODE_ARCH=x64 ;; aarch64 | arm64) NODE_ARCH=arm64 ;; *) die "unsupported CPU $(uname -m)" ;; esac
[ -n "$NODE_VERSION" ] || die "no PARCEL_NODE_VERSION in scripts/tools.sh"
command -v podman >/dev/null || die "podman not found (bash infra/apt.sh podman runc aardvark-dns podman-compose debootstrap)"

CTX="$CT_STATE/context"
mkdir -p "$CTX"
# One build at a time per checkout (a second one waits, then finds the images cached).
exec 8>"$CT_STATE/build.lock"
flock -w 1800 8 || die "another build.sh holds ${CT_STATE#"$REPO_ROOT"/}/build.lock"
t_all=$SECONDS

# Hash of the files under a directory (names and contents) plus the extra words given.
tree_hash() { # <dir> [word...]
  local dir="$1"
  shift
  { printf '%s\n' "$@"; (cd "$dir" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum); } | sha256sum | cut -c1-16
}

# Builds <name> from the context directory unless the image of that hash exists; tags it `local`.
image() { # <name> <context> <base-ref|-> [extra hash words...]
  local name="$1" ctx="$2" base="$3" ref t0=$SECONDS
  shift 3
  ref="localhost/parcel-$name:$(tree_hash "$ctx" "$base" "$@")"
  if podman image exists "$ref"; then
    log "$name: cached $ref"
  else
    log "$name: building $ref"
    podman build --quiet --layers --build-arg "BASE=$base" -t "$ref" -f "$ctx/Containerfile" "$ctx" >/dev/null
    log "$name: built in $((SECONDS - t0)) s"
  fi
  podman tag "$ref" "localhost/parcel-$name:local"
  drop_old "$name" "$ref"
  echo "$name $ref"
}

# Removes the images of <name> built from older inputs (those no container uses).
drop_old() { # <name> <current-ref>
  local old
  for old in $(podman images --format '{{.Repository}}:{{.Tag}}' --filter "reference=localhost/parcel-$1"); do
    case "$old" in "$2" | *:local) ;; *) podman rmi "$old" >/dev/null 2>&1 || true ;; esac
  done
}

# A fresh copy of infra/containers/<name>/ as the build context.
context() { # <name>
  rm -rf "${CTX:?}/$1"
  mkdir -p "$CTX/$1"
  cp -a "$CT_SRC/$1/." "$CTX/$1/"
  echo "$CTX/$1"
}

# ------------------------------------------------------------------ Debian (debootstrap)
debian_ref="localhost/parcel-debian:$(printf '%s\n' debootstrap minbase "$SUITE" "$(uname -m)" "${PARCEL_DEBIAN_MIRROR:-}" | sha256sum | cut -c1-16)"
if podman image exists "$debian_ref"; then
  log "debian: cached $debian_ref"
else
  command -v debootstrap >/dev/null || die "debootstrap not found (bash infra/apt.sh debootstrap)"
  t0=$SECONDS
  root="$CT_STATE/debootstrap"
  rm -rf "$root"
  log "debian: debootstrap --variant=minbase $SUITE (log: ${CT_STATE#"$REPO_ROOT"/}/debootstrap.log)"
  # shellcheck disable=SC2086
  if ! debootstrap --variant=minbase "$SUITE" "$root" ${PARCEL_DEBIAN_MIRROR:-} >"$CT_STATE/debootstrap.log" 2>&1; then
    tail -n 30 "$CT_STATE/debootstrap.log" >&2
    die "debootstrap failed"
  fi
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" --numeric-owner -c . | podman import --quiet --change 'CMD ["/bin/bash"]' - "$debian_ref" >/dev/null
  rm -rf "$root"
  log "debian: built in $((SECONDS - t0)) s"
fi
podman tag "$debian_ref" localhost/parcel-debian:local
drop_old debian "$debian_ref"
echo "debian $debian_ref"

# ------------------------------------------------------------------ Node 24
ctx="$(context node)"
node_pkg="$CT_STATE/node-$NODE_VERSION"
if [ ! -x "$node_pkg/node_modules/node-linux-$NODE_ARCH/bin/node" ]; then
  log "node: fetching node-linux-$NODE_ARCH@$NODE_VERSION from the npm registry"
  npm install --prefix "$node_pkg" --no-save --no-package-lock --ignore-scripts --loglevel=error \
    "node-linux-$NODE_ARCH@$NODE_VERSION" >&2
fi
npm_pkg="$CT_STATE/npm-$NPM_VERSION"
if [ ! -f "$npm_pkg/package/package.json" ]; then
  log "node: fetching npm@$NPM_VERSION from the npm registry"
  rm -rf "$npm_pkg" && mkdir -p "$npm_pkg"
  (cd "$npm_pkg" && npm pack --silent "npm@$NPM_VERSION" >/dev/null && tar -xzf npm-*.tgz && rm -f npm-*.tgz)
fi
cp "$node_pkg/node_modules/node-linux-$NODE_ARCH/bin/node" "$ctx/node"
# The machine's trusted authorities (a TLS proxy in front of the registries, for example).
ca="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
if [ -f "$ca" ]; then cp "$ca" "$ctx/host-ca.crt"; else : >"$ctx/host-ca.crt"; fi
cp -a "$npm_pkg/package" "$ctx/npm"
node_line="$(image node "$ctx" "$debian_ref" "$NODE_VERSION" "$NPM_VERSION")"
echo "$node_line"
node_ref="${node_line#* }"

# ------------------------------------------------------------------ Java, Kafka, mongo-java-server
jre_line="$(image jre "$(context jre)" "$debian_ref")"
echo "$jre_line"
jre_ref="${jre_line#* }"

fetch_jars kafka
ctx="$(context kafka)"
cp -a "$KAFKA_LIB" "$ctx/lib"
rm -f "$ctx/lib/.pom.sha256"
cp "$INFRA_SRC/kafka/tools-log4j2.properties" "$ctx/"
image kafka "$ctx" "$jre_ref"

fetch_jars mongo
ctx="$(context mongo)"
cp -a "$MONGO_LIB" "$ctx/lib"
rm -f "$ctx/lib/.pom.sha256"
mkdir -p "$ctx/classes"
# The image has a JRE only: the launcher goes in compiled (Java 17 bytecode).
javac --release 17 -nowarn -cp "$MONGO_LIB/*" -d "$ctx/classes" "$INFRA_SRC/mongo/Launcher.java"
cp "$INFRA_SRC/mongo/Launcher.java" "$ctx/classes/"
image mongo "$ctx" "$jre_ref"

# ------------------------------------------------------------------ PostgreSQL, the OTLP receiver
image postgres "$(context postgres)" "$debian_ref"
image otlp "$(context otlp)" "$node_ref"

# ------------------------------------------------------------------ the project's image
if [ "${PARCEL_SKIP_APP_IMAGE:-0}" != 1 ]; then
  t0=$SECONDS
  app="${PARCEL_IMAGE:-parcel-logistics:dev}"
  log "app: podman build -t $app --build-arg NODE_IMAGE=localhost/parcel-node:local ."
  # The `deps` stage is tagged too: each source change leaves a new one (about 460 MB), and the
  # one it replaces is removed below with the project image it replaces.
  deps="localhost/parcel-app-deps:local"
  before="$(podman image inspect --format '{{.Id}}' "$app" "$deps" 2>/dev/null || true)"
  for target in deps runtime; do
    podman build --quiet --layers --build-arg NODE_IMAGE=localhost/parcel-node:local --target "$target" \
      -t "$([ "$target" = deps ] && echo "$deps" || echo "$app")" -f "$REPO_ROOT/Dockerfile" "$REPO_ROOT" >/dev/null
  done
  after="$(podman image inspect --format '{{.Id}}' "$app" "$deps")"
  for id in $before; do
    case "$after" in *"$id"*) ;; *) podman rmi "$id" >/dev/null 2>&1 || true ;; esac
  done
  log "app: done in $((SECONDS - t0)) s"
  echo "app $app"
fi
log "all images ready in $((SECONDS - t_all)) s"
