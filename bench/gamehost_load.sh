#!/usr/bin/env bash
# Load test of the game host: builds the release preset in build/load, starts
# metropolis-gamehost on free loopback ports (gRPC and metrics), runs
# gamehost_load against it with the arguments given here, stops the host and
# prints the host's own figures from its metrics endpoint.
#
#   bench/gamehost_load.sh [gamehost_load flags]      (--host, --admin-token and --host-pid are filled in)
#
# The scenarios of docs/PERFORMANCE.md ("Game host"):
#
#   bench/gamehost_load.sh --games 2000 --think-ms 250 --duration-s 60   # bots that think 250 ms
#   bench/gamehost_load.sh --games 50 --think-ms 0 --duration-s 60       # bots that answer at once
#   bench/gamehost_load.sh --help                                          # the load program's flags
#
# Add --json for one JSON line instead of the table. Repeated runs of one
# binary: GAMEHOST_LOAD_BUILD=0 after the first.
#
# Environment:
#   GAMEHOST_LOAD_BUILD=0         do not build; use what build/load holds (repeated runs of one binary)
#   GAMEHOST_LOAD_BUILD_DIR=DIR   another build folder (default build/load)
#   GAMEHOST_LOAD_CHECKPOINTS=1   checkpoint every game (--checkpoint-redis) in a throwaway Redis started
#                                 here on a free loopback port, as a host in production does
#   GAMEHOST_FLAGS="..."          more flags for the host, e.g. "--bot-threads 1 --log-level warning"
#   GAMEHOST_LOAD_PERF=FILE       also record the host with `perf record -g` into FILE during the load
#   GAMEHOST_LOAD_WRAPPER="..."   run the host under a wrapper, e.g.
#                                 "valgrind --tool=callgrind --callgrind-out-file=/tmp/host.callgrind"
#
# The host and the load program share the machine's cores: say so beside any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh

build=${GAMEHOST_LOAD_BUILD_DIR:-build/load}
for arg in "$@"; do
  if [[ $arg == --help ]]; then
    [[ -x $build/bench/gamehost_load ]] && exec "$build/bench/gamehost_load" --help
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
  fi
done

if [[ ${GAMEHOST_LOAD_BUILD:-1} != 0 ]]; then
  cmake --preset release -B "$build" >/dev/null
  cmake --build "$build" -j2 --target metropolis-gamehost gamehost_load
fi
host_bin=$build/services/gamehost/metropolis-gamehost
load_bin=$build/bench/gamehost_load

work=$(mktemp -d "${TMPDIR:-/tmp}/gamehost-load.XXXXXX")
host_pid=
perf_pid=
redis_started=
# shellcheck disable=SC2317 # called from the EXIT trap
stop_host() {
  [[ -n $host_pid ]] || return 0
  kill -TERM "$host_pid" 2>/dev/null || true
  # The host stops its server, lets its bots finish and stores what is complete.
  local wait_s=30
  [[ -z ${GAMEHOST_LOAD_WRAPPER:-} ]] || wait_s=300  # valgrind is slow to finish and write its data
  for _ in $(seq 1 $((wait_s * 20))); do
    kill -0 "$host_pid" 2>/dev/null || break
    sleep 0.05
  done
  if kill -0 "$host_pid" 2>/dev/null; then
    echo "gamehost_load.sh: the host did not stop within $wait_s s; killing it" >&2
    kill -KILL "$host_pid" 2>/dev/null || true
  fi
  wait "$host_pid" 2>/dev/null || true
  host_pid=
}
# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
  if [[ -n $perf_pid ]]; then kill -INT "$perf_pid" 2>/dev/null || true; wait "$perf_pid" 2>/dev/null || true; fi
  stop_host
  [[ -z $redis_started ]] || stop_services >/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(free_port)
metrics_port=$(free_port)
while [[ $metrics_port == "$port" ]]; do metrics_port=$(free_port); done
token=load-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
checkpoint_flags=()
if [[ ${GAMEHOST_LOAD_CHECKPOINTS:-0} != 0 ]]; then
  # A folder of our own, even when the caller has services of its own running:
  # the cleanup removes it.
  # shellcheck disable=SC2034 # read by start_redis and stop_services (scripts/lib/services.sh)
  METROPOLIS_SERVICES_DIR=
  redis_started=1
  start_redis >&2
  checkpoint_flags=(--checkpoint-redis "$METROPOLIS_REDIS_ADDR")
  echo "gamehost_load.sh: checkpoints in Redis at $METROPOLIS_REDIS_ADDR" >&2
fi

# Games wait for their four seats; --max-games leaves room for games being
# finished while their replacements start.
# shellcheck disable=SC2086 # GAMEHOST_FLAGS and GAMEHOST_LOAD_WRAPPER are lists of words
${GAMEHOST_LOAD_WRAPPER:-} "$host_bin" --listen "127.0.0.1:$port" --metrics-listen "127.0.0.1:$metrics_port" --admin-token "$token" \
  --data-dir "$work/data" --max-games 100000 ${checkpoint_flags[@]+"${checkpoint_flags[@]}"} ${GAMEHOST_FLAGS:-} >"$work/host.log" 2>&1 &
host_pid=$!
for _ in $(seq 1 1200); do
  ss -Htln "sport = :$port" | grep -q . && break
  if ! kill -0 "$host_pid" 2>/dev/null; then
    echo "gamehost_load.sh: the host exited at start:" >&2
    cat "$work/host.log" >&2
    host_pid=
    exit 1
  fi
  sleep 0.05
done
echo "gamehost_load.sh: host pid $host_pid on 127.0.0.1:$port, metrics on 127.0.0.1:$metrics_port" >&2

if [[ -n ${GAMEHOST_LOAD_PERF:-} ]]; then
  perf record -F 499 -g -p "$host_pid" -o "$GAMEHOST_LOAD_PERF" >"$work/perf.log" 2>&1 &
  perf_pid=$!
fi

status=0
"$load_bin" --host "127.0.0.1:$port" --admin-token "$token" --host-pid "$host_pid" "$@" || status=$?

if [[ -n $perf_pid ]]; then
  kill -INT "$perf_pid" 2>/dev/null || true
  wait "$perf_pid" 2>/dev/null || true
  perf_pid=
  echo "gamehost_load.sh: perf data in $GAMEHOST_LOAD_PERF" >&2
fi

# The host's own view, over the whole run (ramp and warm-up included).
metrics=$(curl -fsS "http://127.0.0.1:$metrics_port/metrics" || true)
echo
echo "host metrics at the end (whole run):"
grep -E '^metropolis_gamehost_(decisions_total|timeouts_total|games_(created|finished)_total|rejected_answers_total|fallback_decisions_total|answer_processing_seconds|decision_round_trip_seconds_(sum|count))' \
  <<<"$metrics" || true
# Quantiles of the host's own answer processing, from the histogram's buckets
# (each the upper bound of the bucket it falls in).
awk '
  /^metropolis_gamehost_answer_processing_seconds_bucket/ {
    match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5); n++; bound[n] = le; cum[n] = $NF
  }
  /^metropolis_gamehost_answer_processing_seconds_sum/ { sum = $NF }
  /^metropolis_gamehost_answer_processing_seconds_count/ { count = $NF }
  END {
    if (count == 0) exit
    split("0.5 0.9 0.99", qs, " ")
    line = sprintf("answer processing: mean %.1f µs", sum / count * 1e6)
    for (i = 1; i <= 3; i++) {
      for (j = 1; j <= n; j++) if (cum[j] >= qs[i] * count) break
      b = bound[j] == "+Inf" ? "+Inf" : sprintf("%g µs", bound[j] * 1e6)
      line = line sprintf(", p%g <= %s", qs[i] * 100, b)
    }
    print line " (" count " answers)"
  }' <<<"$metrics"

stop_host
errors=$(grep -c ' level=error ' "$work/host.log" || true)
if [[ $errors != 0 ]]; then
  echo "gamehost_load.sh: the host logged $errors error(s); the first ones:" >&2
  grep ' level=error ' "$work/host.log" | head -5 >&2
fi
exit "$status"
