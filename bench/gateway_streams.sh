#!/usr/bin/env bash
# Live streams through the gateway at the bots' pace: builds the release preset in
# build/load, starts a PostgreSQL and a Redis on free loopback ports, the accounts,
# replays and ratings services, a game host and the gateway; keeps --games games of
# four bots live on the host (bench/gamehost_load, each bot answering after
# --think-ms; a finished game is replaced and its watchers move to the new one),
# then runs bench/gateway_streams twice, each for --duration-s after its ramp:
#
#   (a) bots' pace  --games games x --watchers streams each (200 x 50 = 10,000);
#   (b) fan-out     --streams streams over the first --fanout-games games
#                   (10,000 over 20: 500 per game).
#
# Each reports event delivery p50/p90/p99/max (target p99 <= 100 ms), the gateway's
# CPU seconds per second and its RSS slope in kB per minute (target about 0 over
# 10 minutes), with the slopes of the live games' histories and of its heap in use
# (from its metrics) and the RSS slope net of the histories, streams refused or
# dropped, and the client's own CPU. The gateway's memory at rest is printed before
# the first scenario and after each: its heap in use back at rest is the leak check.
#
#   bench/gateway_streams.sh                                    # the full run: 2 x 10 minutes
#   bench/gateway_streams.sh --games 20 --watchers 10 --streams 200 --fanout-games 4 --duration-s 60
#   bench/gateway_streams.sh --scenario a --duration-s 60       # one scenario only
#
# Flags: --games N (200), --watchers N (50), --streams N (10000), --fanout-games N (20),
# --duration-s N (600), --think-ms N (250), --ramp-per-s R (200), --scenario a|b|both,
# --head-start STEPS (1500; 0 = off): the first games play a random number of steps
# below STEPS at once, so that the live games are at spread ages, as on a running
# ladder. Without it they all start together and the gateway's memory grows with
# their histories (kept for spectators who watch from the start) until the first
# ones end, which an RSS slope over the window would count as a leak.
#
# Environment:
#   GATEWAY_STREAMS_BUILD=0         do not build; use what the build folder holds
#   GATEWAY_STREAMS_BUILD_DIR=DIR   another build folder (default build/load)
#   GATEWAY_FLAGS="..."             more flags for the gateway (they come last and win)
#   GATEWAY_STREAMS_CLIENT="..."    more flags for gateway_streams, e.g. "--threads 2"
#
# The client, the game host, the bots, the services and the gateway share the
# machine's cores: the script prints how many; say so beside any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh

games=200 watchers=50 streams=10000 fanout_games=20 duration_s=600 think_ms=250 ramp=200 scenario=both head_start=1500
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
number() { flag_number gateway_streams.sh "$1" "$2"; }  # a positive whole number, or exit 2
while [[ $# -gt 0 ]]; do
  [[ $1 == -h || $1 == --help ]] && { usage; exit 0; }
  [[ $# -ge 2 ]] || { echo "gateway_streams.sh: $1 wants a value (see --help)" >&2; exit 2; }
  case $1 in
    --games) games=$(number "$1" "$2") ;;
    --watchers) watchers=$(number "$1" "$2") ;;
    --streams) streams=$(number "$1" "$2") ;;
    --fanout-games) fanout_games=$(number "$1" "$2") ;;
    --duration-s) duration_s=$(number "$1" "$2") ;;
    --think-ms) think_ms=$(number "$1" "$2") ;;
    --head-start) head_start=$(flag_number gateway_streams.sh "$1" "$2" 0) ;;
    --ramp-per-s) ramp=$(number "$1" "$2") ;;
    --scenario)
      [[ $2 == a || $2 == b || $2 == both ]] || { echo "gateway_streams.sh: --scenario is a, b or both, not '$2'" >&2; exit 2; }
      scenario=$2 ;;
    *) echo "gateway_streams.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift 2
done
if [[ $scenario != a ]]; then
  ((fanout_games <= games)) || { echo "gateway_streams.sh: --fanout-games $fanout_games is more than --games $games" >&2; exit 2; }
  ((streams >= fanout_games)) || { echo "gateway_streams.sh: --streams $streams is fewer than --fanout-games $fanout_games" >&2; exit 2; }
fi

build=${GATEWAY_STREAMS_BUILD_DIR:-build/load}
if [[ ${GATEWAY_STREAMS_BUILD:-1} != 0 ]]; then
  cmake --preset release -B "$build" >/dev/null
  cmake --build "$build" -j2 --target metropolis-accounts metropolis-replays metropolis-ratings metropolis-gamehost \
    metropolis-gateway metropolis-migrate gamehost_load gateway_streams
fi
build=$(cd "$build" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/gateway-streams.XXXXXX")
# The services' logs (start_service) beside the rest: the end checks the gateway's.
METROPOLIS_SERVICE_LOGS=$work
pids=()
# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stop_services >/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

start_postgres >&2
start_redis >&2
"$build/tools/migrate/metropolis-migrate" --pg "$METROPOLIS_PG_CONNINFO" >&2
pg=$METROPOLIS_PG_CONNINFO
service_token=load-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
host_admin=host-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
spectator_token=spec-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
gateway_service_token=gw-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
(umask 077 && head -c 32 /dev/urandom >"$work/seat.key")

ports=()
for _ in 1 2 3 4 5 6; do
  p=$(free_port)
  while [[ " ${ports[*]} " == *" $p "* ]]; do p=$(free_port); done
  ports+=("$p")
done
replays=127.0.0.1:${ports[0]} ratings=127.0.0.1:${ports[1]} host=127.0.0.1:${ports[2]}
gateway=127.0.0.1:${ports[3]} metrics=127.0.0.1:${ports[4]} accounts=127.0.0.1:${ports[5]}
start_service accounts "${ports[5]}" "$build/services/accounts/metropolis-accounts" --listen "$accounts" --pg "$pg" \
  --service-token "$service_token" --gateway-token "$gateway_service_token" --seat-key-file "$work/seat.key" \
  --log-level warning
start_service replays "${ports[0]}" "$build/services/replays/metropolis-replays" --listen "$replays" --pg "$pg" \
  --store-token "$service_token" --accounts "$accounts" --gateway-token "$gateway_service_token" --log-level warning
start_service ratings "${ports[1]}" "$build/services/ratings/metropolis-ratings" --listen "$ratings" --pg "$pg" \
  --redis "$METROPOLIS_REDIS_ADDR" --service-token "$service_token" --replays "$replays" --accounts "$accounts" \
  --gateway-token "$gateway_service_token" --log-level warning
start_service gamehost "${ports[2]}" "$build/services/gamehost/metropolis-gamehost" --listen "$host" \
  --metrics-listen "" --admin-token "$host_admin" --spectator-token "$spectator_token" --data-dir "$work/host" \
  --replays "$replays" --replays-token "$service_token" --ratings "$ratings" --ratings-token "$service_token" \
  --max-games 100000 --log-level warning

# Room for every stream of the bigger scenario and for every game watched, and no
# rate limit: every stream comes from one address.
most=0
[[ $scenario == b ]] || most=$((games * watchers))
[[ $scenario == a ]] || most=$((streams > most ? streams : most))
max_spectators=$((most + 100))
max_live_games=$((games + 56 > 256 ? games + 56 : 256))
gateway_flags=(--max-spectators "$max_spectators" --max-live-games "$max_live_games" --rate-limit 0
  --upstream-rate-limit 0 --log-level warning)
# shellcheck disable=SC2206 # GATEWAY_FLAGS is a list of words
gateway_flags+=(${GATEWAY_FLAGS:-})
start_service gateway "${ports[3]}" "$build/services/gateway/metropolis-gateway" --listen "$gateway" \
  --metrics-listen "$metrics" --accounts "$accounts" --accounts-token "$gateway_service_token" \
  --replays "$replays" --ratings "$ratings" --hosts "$host" --gamehost-token "$spectator_token" "${gateway_flags[@]}"
gateway_pid=${METROPOLIS_SERVICE_PIDS[gateway]}

# The games, for as long as both scenarios take (ramps, warm-ups and a margin).
"$build/bench/gamehost_load" --host "$host" --admin-token "$host_admin" --games "$games" --think-ms "$think_ms" \
  --head-start "$head_start" --games-file "$work/games" --warmup-s 0 --duration-s $((2 * duration_s + 1200)) >"$work/bots.log" 2>&1 &
pids+=($!)
bots_pid=$!
for _ in $(seq 1 1200); do
  [[ -f $work/games && $(wc -l <"$work/games") -ge $games ]] && break
  kill -0 "$bots_pid" 2>/dev/null || { echo "gateway_streams.sh: gamehost_load exited:" >&2; cat "$work/bots.log" >&2; exit 1; }
  sleep 0.1
done
echo "gateway_streams.sh: $(wc -l <"$work/games") games of four bots live (think $think_ms ms)" >&2
if ((head_start > 0)); then
  for _ in $(seq 1 1800); do
    grep -q 'past its head start' "$work/bots.log" && break
    sleep 0.1
  done
  echo "gateway_streams.sh: head starts played ($(grep -c . "$work/games") games live)" >&2
fi

echo
echo "machine: $(nproc) cores, shared by the client, the game host, the bots, the services and the gateway;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "gateway: pid $gateway_pid, flags ${gateway_flags[*]}"
# What the gateway holds with no stream open: its resident memory, and its heap
# in use (the C allocator's, from its metrics). The heap in use back at this
# level once every stream has closed is the leak check; the resident size need
# not come back, for the allocator keeps freed memory.
at_rest() {
  local page
  page=$(curl -s "http://$metrics/metrics")
  echo "$(awk '$1 == "VmRSS:" {print $2, $3}' "/proc/$gateway_pid/status") resident," \
    "heap in use $(awk '$1 == "metropolis_process_heap_in_use_bytes" {printf "%.1f MiB", $2 / 1048576}' <<<"$page")," \
    "live histories $(awk '$1 == "metropolis_gateway_live_history_bytes" {printf "%.1f MiB", $2 / 1048576}' <<<"$page")"
}
echo "gateway at rest: $(at_rest)"

status=0
run() {  # title, then gateway_streams flags
  local title=$1
  shift
  echo
  echo "== $title =="
  # shellcheck disable=SC2086 # GATEWAY_STREAMS_CLIENT is a list of words
  "$build/bench/gateway_streams" --gateway "$gateway" --host "$host" --spectator-token "$spectator_token" \
    --games-file "$work/games" --gateway-pid "$gateway_pid" --gateway-metrics "$metrics" --ramp-per-s "$ramp" \
    --duration-s "$duration_s" \
    "$@" ${GATEWAY_STREAMS_CLIENT:-} || status=$?
  # The gateway lets a game's upstream go once its last stream has: the next
  # scenario starts from the same rest.
  for _ in $(seq 1 100); do
    [[ $(curl -s "http://$metrics/metrics" | awk '$1 == "metropolis_gateway_spectators" {print $2}') == 0 ]] && break
    sleep 0.1
  done
  echo "gateway at rest again: $(at_rest)"
}
if [[ $scenario != b ]]; then
  run "(a) bots' pace: $games games x $watchers watchers = $((games * watchers)) streams, $duration_s s" \
    --watch-games "$games" --watchers-per-game "$watchers"
fi
if [[ $scenario != a ]]; then
  run "(b) fan-out: $streams streams over $fanout_games games, $duration_s s" \
    --watch-games "$fanout_games" --streams "$streams"
fi

echo
echo "gateway metrics at the end (whole run):"
curl -s "http://$metrics/metrics" | grep -E '^metropolis_gateway_(sse_bytes_total|spectators_refused_total|stream_resumes_total|stream_resume_batches_total)' |
  sed 's/^/  /' || true
grep -q ' level=error ' "$work/gateway.log" && {
  echo "gateway_streams.sh: the gateway logged errors; the first ones:" >&2
  grep ' level=error ' "$work/gateway.log" | head -5 >&2
}
exit "$status"
