#!/usr/bin/env bash
# Load test of the gateway: builds the release preset in build/load, starts a
# PostgreSQL and a Redis on free loopback ports, the replays and ratings services,
# a game host and the gateway; seeds rated players on a ladder "bench"; then
#
#   pages       leaderboard and player pages of random players (the target: 50 ms
#               server time with 1,000,000 rated players);
#   spectators  1,000 live streams of one game, opened before it starts and followed
#               to its end, with the gateway's memory and threads meanwhile.
#
#   bench/gateway_load.sh                                # 1,000,000 players, 1,000 spectators
#   bench/gateway_load.sh --players 100000 --spectators 2000 --requests 500
#
# Environment:
#   GATEWAY_LOAD_BUILD=0         do not build; use what the build folder holds
#   GATEWAY_LOAD_BUILD_DIR=DIR   another build folder (default build/load)
#   GATEWAY_LOAD_SEAT_BOT=SPEC   the bot of the live game's only played seat (default
#                                search:ms=10; the others are built-in heuristic bots)
#
# The services, the databases and the load client share the machine's cores: say so
# beside any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh

players=1000000 spectators=1000 requests=300
while [[ $# -gt 0 ]]; do
  case $1 in
    --players) players=$2; shift 2 ;;
    --spectators) spectators=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gateway_load.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

build=${GATEWAY_LOAD_BUILD_DIR:-build/load}
if [[ ${GATEWAY_LOAD_BUILD:-1} != 0 ]]; then
  cmake --preset release -B "$build" >/dev/null
  cmake --build "$build" -j2 --target metropolis-accounts metropolis-replays metropolis-ratings metropolis-gamehost metropolis-gateway \
    metropolis-migrate metropolis-admin metropolisctl metropolis-bot
fi
build=$(cd "$build" && pwd)

services_workspace gateway-load

start_postgres >&2
start_redis >&2
"$build/tools/migrate/metropolis-migrate" --pg "$METROPOLIS_PG_CONNINFO" >&2
pg=$METROPOLIS_PG_CONNINFO
service_token=load-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
host_admin=host-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
spectator_token=spec-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
gateway_service_token=gw-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
# People's seat tokens are stored encrypted with this key (docs/ACCOUNTS.md).
(umask 077 && head -c 32 /dev/urandom >"$work/seat.key")

echo "gateway_load.sh: seeding $players rated players on ladder bench..." >&2
seed_start=$(date +%s.%N)
psql "$pg" -q <<SQL
INSERT INTO ladders (id, title, placement_games) VALUES ('bench', 'Load test', 0);
INSERT INTO seasons (ladder_id, season) VALUES ('bench', 1);
INSERT INTO identities (kind, name) SELECT 'player', 'rank-' || g FROM generate_series(1, $players) g;
INSERT INTO ratings (ladder_id, season, identity_id, mu, sigma, games)
  SELECT 'bench', 1, id, 15 + random() * 20, 1 + random() * 7, 10 + (random() * 90)::int
  FROM identities WHERE name LIKE 'rank-%';
ANALYZE;
SQL
echo "gateway_load.sh: seeded in $(echo "$(date +%s.%N) - $seed_start" | bc) s" >&2

ports=()
for _ in 1 2 3 4 5 6; do
  p=$(free_port)
  while [[ " ${ports[*]} " == *" $p "* ]]; do p=$(free_port); done
  ports+=("$p")
done
replays=127.0.0.1:${ports[0]} ratings=127.0.0.1:${ports[1]} host=127.0.0.1:${ports[2]}
gateway=127.0.0.1:${ports[3]} metrics=127.0.0.1:${ports[4]} accounts=127.0.0.1:${ports[5]}
# Accounts checks the services' callers' API tokens, and serves the gateway its
# ladders, players' names and people.
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
  --start-timeout-ms 600000 --log-level warning
max=$((spectators + 100))
start_service gateway "${ports[3]}" "$build/services/gateway/metropolis-gateway" --listen "$gateway" \
  --metrics-listen "$metrics" --accounts "$accounts" --accounts-token "$gateway_service_token" \
  --replays "$replays" --ratings "$ratings" --hosts "$host" \
  --gamehost-token "$spectator_token" --max-spectators "$max" --log-level warning \
  --rate-limit 0 --upstream-rate-limit 0 --public-cache-ms 0  # one address here, and every read timed to the services
gateway_pid=${METROPOLIS_SERVICE_PIDS[gateway]}
echo "gateway_load.sh: gateway on $gateway ($max stream threads); load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
proc() { awk -v k="$1:" '$1 == k {print $2, $3}' "/proc/$gateway_pid/status"; }
echo "gateway at rest: $(proc VmRSS) resident, $(proc Threads) threads"

echo
echo "== pages: $requests requests of each kind, one at a time, $players rated players =="
python3 bench/gateway_load.py pages --gateway "$gateway" --players "$players" --requests "$requests"
echo "server time (the gateway's histogram, all page requests):"
curl -s "http://$metrics/metrics" | grep -E '^metropolis_gateway_request_seconds_(sum|count)\{route="/api/v1/(ladders/\{\}/leaderboard|players/\{\})"' |
  sed 's/^/  /'

echo
echo "== spectators: $spectators live streams of one game =="
"$build/tools/ctl/metropolisctl" --host "$host" --token "$host_admin" --json create-game \
  --seats watcher,b1,b2,b3 --builtin 1:heuristic --builtin 2:heuristic --builtin 3:heuristic >"$work/game.json"
game=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["game_id"])' <"$work/game.json")
seat_token=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["seat_tokens"][0])' <"$work/game.json")
python3 bench/gateway_load.py spectators --gateway "$gateway" --game "$game" --spectators "$spectators" \
  --ready-file "$work/ready" &
client=$!
while [[ ! -f $work/ready ]]; do
  kill -0 "$client" 2>/dev/null || { echo "gateway_load.sh: the load client failed" >&2; exit 1; }
  sleep 0.1
done
echo "gateway with every stream open: $(proc VmRSS) resident, $(proc Threads) threads, CPU $(ps -o times= -p "$gateway_pid" | tr -d ' ') s so far"
cpu_before=$(ps -o times= -p "$gateway_pid" | tr -d ' ')
game_start=$(date +%s.%N)
"$build/botkits/cpp/metropolis-bot" --host "$host" --game "$game" --token "$seat_token" \
  --bot "${GATEWAY_LOAD_SEAT_BOT:-search:ms=10}" --quiet >"$work/bot.out" 2>&1 &
bot=$!
peak=0
while kill -0 "$client" 2>/dev/null; do
  rss=$(proc VmRSS | cut -d' ' -f1)
  ((rss > peak)) && peak=$rss
  sleep 0.2
done
status=0
wait "$client" || status=$?
wait "$bot" || true
game_s=$(echo "$(date +%s.%N) - $game_start" | bc)
echo "the game: $(grep -o 'actions=[0-9]*' "$work/bot.out" | head -1 || true) in ${game_s% *} s;" \
  "gateway peak $peak kB resident, CPU $(( $(ps -o times= -p "$gateway_pid" | tr -d ' ') - cpu_before )) s while it was played"
curl -s "http://$metrics/metrics" | grep -E '^metropolis_gateway_(sse_bytes_total|spectators_refused_total)' | sed 's/^/  /'
exit "$status"
