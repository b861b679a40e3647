#!/usr/bin/env bash
# infra/apt.sh PKG [PKG...]
#
# Installs Debian packages only when they are missing, non-interactively.
# Cheap when everything is already installed: one `dpkg -s` per package, no
# apt-get call at all.
#
# An argument may list alternatives separated by '|', e.g. 'kcat|kafkacat':
# nothing is done if any of them is installed, otherwise the first one apt
# knows a candidate for is installed.
#
# Needs root (or sudo) only when something has to be installed. Waits up to
# APT_LOCK_TIMEOUT seconds (default 600) for another apt/dpkg run to finish.
set -euo pipefail

LOCK_OPT=(-o "DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT:-600}")

if [ "$#" -eq 0 ]; then
  echo "usage: $0 PKG[|ALT...] [PKG...]" >&2
  exit 2
fi

is_installed() {
  dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'
}

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "apt.sh: not root and no sudo; cannot install packages" >&2
  fi
fi

apt_updated=0
apt_update_once() {
  if [ "$apt_updated" -eq 0 ]; then
    echo "apt.sh: apt-get update" >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get "${LOCK_OPT[@]}" update -qq >&2
    apt_updated=1
  fi
}

has_candidate() {
  local cand
  cand="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')"
  [ -n "$cand" ] && [ "$cand" != "(none)" ]
}

to_install=()
for spec in "$@"; do
  IFS='|' read -r -a alts <<<"$spec"
  found=""
  for p in "${alts[@]}"; do
    if is_installed "$p"; then found="$p"; break; fi
  done
  if [ -n "$found" ]; then
    echo "apt.sh: $found already installed" >&2
    continue
  fi
  # Pick the first alternative apt knows about; refresh the index once if none.
  pick=""
  for attempt in 1 2; do
    for p in "${alts[@]}"; do
      if has_candidate "$p"; then pick="$p"; break; fi
    done
    if [ -n "$pick" ] || [ "$apt_updated" -eq 1 ]; then break; fi
    apt_update_once
  done
  if [ -z "$pick" ]; then
    echo "apt.sh: no installable package among: ${alts[*]}" >&2
    exit 1
  fi
  to_install+=("$pick")
done

if [ "${#to_install[@]}" -eq 0 ]; then
  exit 0
fi

echo "apt.sh: installing ${to_install[*]}" >&2
install() {
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get "${LOCK_OPT[@]}" install -y -qq \
    --no-install-recommends -o Dpkg::Options::=--force-confdef \
    -o Dpkg::Options::=--force-confold "${to_install[@]}" >&2
}
# A stale package index gives 404s on install: refresh once and retry.
if ! install; then
  if [ "$apt_updated" -eq 0 ]; then
    apt_update_once
    install
  else
    exit 1
  fi
fi
