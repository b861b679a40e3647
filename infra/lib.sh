# Shared helpers for infra/up.sh, infra/down.sh and infra/topics.sh. Source it, do not run it.
# shellcheck shell=bash

INFRA_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$INFRA_SRC/.." && pwd)"
# Everything downloaded or generated lives here (git-ignored).
INFRA_STATE="${PARCEL_INFRA_STATE:-$REPO_ROOT/.infra}"

KAFKA_PORT="${PARCEL_KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${PARCEL_KAFKA_CONTROLLER_PORT:-19093}"
KAFKA_HEAP_OPTS="${PARCEL_KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
MONGO_PORT="${PARCEL_MONGO_PORT:-27117}"
MONGO_SERVER_VERSION="${PARCEL_MONGO_SERVER_VERSION:-5.0}"
PG_HOST=127.0.0.1
PG_PORT="${PARCEL_PG_PORT:-5432}"
PG_USER=postgres
PG_DATABASES=(parcel_test parcel)
# Upper bound for each readiness wait, in seconds.
READY_TIMEOUT="${PARCEL_INFRA_TIMEOUT:-90}"

KAFKA_DIR="$INFRA_STATE/kafka"
KAFKA_LIB="$KAFKA_DIR/lib"
KAFKA_PID="$KAFKA_DIR/kafka.pid"
KAFKA_LOG_DIR="$KAFKA_DIR/logs"
MONGO_DIR="$INFRA_STATE/mongo"
MONGO_LIB="$MONGO_DIR/lib"
MONGO_PID="$MONGO_DIR/mongo.pid"
MONGO_LOG="$MONGO_DIR/mongo.log"

log() { echo "[infra] $*" >&2; }
die() { echo "[infra] ERROR: $*" >&2; exit 1; }

# Does something accept TCP connections on 127.0.0.1:<port>?
port_open() {
  timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# Prints the pid from a pid file if that process is alive and its command line contains
# the marker (guards against pid reuse); prints nothing otherwise.
live_pid() { # <pidfile> <cmdline-marker>
  local pid
  [ -f "$1" ] || return 0
  pid="$(cat "$1" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2" || return 0
  echo "$pid"
}

# Last lines of a log file, for error messages.
log_tail() { # <file> [lines]
  if [ -f "$1" ]; then
    echo "----- last ${2:-40} lines of $1 -----" >&2
    tail -n "${2:-40}" "$1" >&2
    echo "-----" >&2
  else
    echo "(no log file $1)" >&2
  fi
}

# Fetches the jars listed in infra/<name>/pom.xml into .infra/<name>/lib once. Fetches again
# only when the pom changes (its sha256 is stamped into the lib directory).
fetch_jars() { # <kafka|mongo>
  local name="$1" pom="$INFRA_SRC/$1/pom.xml" lib="$INFRA_STATE/$1/lib" sum
  sum="$(sha256sum "$pom" | cut -d' ' -f1)"
  if [ -f "$lib/.pom.sha256" ] && [ "$(cat "$lib/.pom.sha256")" = "$sum" ]; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found; Maven is needed to fetch the $name jars"
  log "fetching $name jars from Maven Central (once; cached in ${lib#"$REPO_ROOT"/}) ..."
  mkdir -p "$INFRA_STATE/$name"
  rm -rf "$lib.tmp"
  local m2=()
  if [ -n "${PARCEL_INFRA_M2:-}" ]; then m2=("-Dmaven.repo.local=$PARCEL_INFRA_M2"); fi
  # Run from the state dir so Maven cannot leave anything (target/) in the source tree.
  if ! (cd "$INFRA_STATE/$name" && mvn -q -B -Dstyle.color=never "${m2[@]}" -f "$pom" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$lib.tmp" \
        >"$INFRA_STATE/$name/mvn.log" 2>&1); then
    log_tail "$INFRA_STATE/$name/mvn.log" 30
    die "could not fetch the $name jars (see above)"
  fi
  echo "$sum" >"$lib.tmp/.pom.sha256"
  rm -rf "$lib"
  mv "$lib.tmp" "$lib"
}

# Runs a Kafka CLI class (TopicCommand, StorageTool, ...) with a small, fast-starting JVM.
kafka_tool() { # <main-class> [args...]
  java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
    -Dlog4j2.configurationFile="$INFRA_SRC/kafka/tools-log4j2.properties" \
    -cp "$KAFKA_LIB/*" "$@"
}

# Prints the calling script's header comment (its usage text).
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
