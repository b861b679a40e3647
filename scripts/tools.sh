#!/usr/bin/env bash
# Source this file: it makes Node 24 and pnpm available on PATH, fetching both from the npm
# registry into .tools/ when the machine's own Node is older, and installs the workspace's
# dependencies when the lockfile changed since the last install.

PARCEL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PARCEL_NODE_VERSION="24.21.0"
PARCEL_PNPM_VERSION="10.34.8"
TOOLS="$PARCEL_ROOT/.tools"

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

ensure_node() {
  if command -v node >/dev/null && [ "$(node_major node)" -ge 24 ]; then return; fi
  local arch; case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) echo "unsupported CPU $(uname -m)" >&2; exit 1 ;; esac
  local pkg="$TOOLS/node-$PARCEL_NODE_VERSION"
  local bin="$pkg/node_modules/node-linux-$arch/bin"
  if [ ! -x "$bin/node" ]; then
    echo "[tools] fetching Node $PARCEL_NODE_VERSION (node-linux-$arch) from the npm registry" >&2
    mkdir -p "$pkg"
    # node-linux-<arch> is the binary package that the registry's `node` package installs.
    npm install --prefix "$pkg" --no-save --no-package-lock --ignore-scripts --loglevel=error \
      "node-linux-$arch@$PARCEL_NODE_VERSION" >&2
  fi
  export PATH="$bin:$PATH"
}

ensure_pnpm() {
  local pkg="$TOOLS/pnpm-$PARCEL_PNPM_VERSION"
  if [ ! -f "$pkg/node_modules/pnpm/bin/pnpm.cjs" ]; then
    echo "[tools] fetching pnpm $PARCEL_PNPM_VERSION from the npm registry" >&2
    mkdir -p "$pkg"
    npm install --prefix "$pkg" --no-save --no-package-lock --ignore-scripts --loglevel=error "pnpm@$PARCEL_PNPM_VERSION" >&2
  fi
  mkdir -p "$TOOLS/bin"
  printf '#!/usr/bin/env bash\nexec node "%s" "$@"\n' "$pkg/node_modules/pnpm/bin/pnpm.cjs" > "$TOOLS/bin/pnpm"
  chmod +x "$TOOLS/bin/pnpm"
  export PATH="$TOOLS/bin:$PATH"
}

ensure_deps() {
  local stamp="$PARCEL_ROOT/node_modules/.parcel-lock-stamp"
  local want; want="$(node -p 'process.version')-$(sha256sum "$PARCEL_ROOT/pnpm-lock.yaml" | cut -c1-16)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "[tools] installing workspace dependencies" >&2
    (cd "$PARCEL_ROOT" && pnpm install --frozen-lockfile --reporter=append-only >&2)
    echo "$want" > "$stamp"
  fi
}

ensure_node
ensure_pnpm
