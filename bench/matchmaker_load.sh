#!/usr/bin/env bash
# Load test of the matchmaker's logic: builds the release preset in build/mmload,
# starts a Redis that persists as in a deployment (append-only file, fsynced
# every second) on a free loopback port in a temporary folder, runs
# matchmaker_load against it with the arguments given here, and stops Redis.
# The game hosts are a fake that creates every game at once: what is measured is
# the tickets and the rounds over Redis (services/matchmaker), not the hosts.
#
#   bench/matchmaker_load.sh                              # create, drain, steady, wait: the defaults
#   bench/matchmaker_load.sh --phases create --tickets 100000 --clients 16
#   bench/matchmaker_load.sh --phases steady --rate 8000 --replicas 3
#   bench/matchmaker_load.sh --phases wait --queue-sizes 100,1000,10000,30000
#   bench/matchmaker_load.sh --help                       # the load program's flags
#
# Environment:
#   MATCHMAKER_LOAD_BUILD=0         do not build; use what build/mmload holds
#   MATCHMAKER_LOAD_BUILD_DIR=DIR   another build folder (default build/mmload)
#   MATCHMAKER_LOAD_PERF=FILE       also record Redis and the load program with
#                                   `perf record -g` into FILE (and FILE.redis)
#
# Redis and the load program share the machine's cores: say so beside any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh

build=${MATCHMAKER_LOAD_BUILD_DIR:-build/mmload}
for arg in "$@"; do
  if [[ $arg == --help ]]; then
    [[ -x $build/bench/matchmaker_load ]] && exec "$build/bench/matchmaker_load" --help
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
  fi
done

if [[ ${MATCHMAKER_LOAD_BUILD:-1} != 0 ]]; then
  cmake --preset release -B "$build" >/dev/null
  cmake --build "$build" -j2 --target matchmaker_load
fi

perf_pids=()
# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
  for pid in "${perf_pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${perf_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_services >/dev/null
}
trap cleanup EXIT

export METROPOLIS_REDIS_PERSIST=1
start_redis >&2
redis_pid=$(cat "$METROPOLIS_SERVICES_DIR/redis.pid")
echo "matchmaker_load.sh: Redis on $METROPOLIS_REDIS_ADDR (appendonly yes, appendfsync everysec); load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

load=("$build/bench/matchmaker_load" --redis "$METROPOLIS_REDIS_ADDR" "$@")
status=0
if [[ -n ${MATCHMAKER_LOAD_PERF:-} ]]; then
  perf record -g -o "$MATCHMAKER_LOAD_PERF.redis" -p "$redis_pid" 2>/dev/null &
  perf_pids+=($!)
  perf record -g -o "$MATCHMAKER_LOAD_PERF" -- "${load[@]}" || status=$?
else
  "${load[@]}" || status=$?
fi
# Where Redis's time went, by command (a script's commands are counted inside its EVAL too).
echo "matchmaker_load.sh: Redis's costliest commands:" >&2
redis-cli -h "${METROPOLIS_REDIS_ADDR%:*}" -p "${METROPOLIS_REDIS_ADDR##*:}" INFO commandstats |
  sed -n 's/^cmdstat_\([^:]*\):calls=\([0-9]*\),usec=\([0-9]*\),usec_per_call=\([0-9.]*\).*/\3 \1 \2 \4/p' |
  sort -rn | head -8 | awk '{printf "  %-16s %9d calls %8.0f ms %8.2f us a call\n", $2, $3, $1 / 1000, $4}' >&2
echo "matchmaker_load.sh: Redis used $(ps -o times= -p "$redis_pid" | tr -d ' ') CPU seconds; its append-only files hold $(du -sh "$METROPOLIS_SERVICES_DIR/appendonlydir" 2>/dev/null | cut -f1)" >&2
exit "$status"
