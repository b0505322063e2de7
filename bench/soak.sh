#!/usr/bin/env bash
# Soak test of the whole stack on loopback: two matchmaker replicas, two game hosts,
# replays, ratings and the gateway (deploy/local/stack.sh) with their own PostgreSQL
# and Redis in a temporary folder. Network bots (metropolis-bot --ladder) queue on a
# ladder and play until --games games are stored or --minutes have passed, whichever
# comes first; meanwhile a reader asks the gateway for the leaderboard, the latest
# games, a stored game and the live games, once a second. A progress line every 10 s;
# at the end a table:
#
#   games stored per second; p50 / p99 of the decision round trip, the time to
#   match, the store and rate latency, the gateway's answers (from the services'
#   Prometheus histograms); each service's RSS at the start and the end; errors
#   (non-OK gRPC calls but the queue's own endings, PostgreSQL and Redis errors,
#   failed deliveries, gateway 5xx, log lines at level=error, failed bots); and
#   whether every finished game is stored and rated once.
#
#   bench/soak.sh [--games N] [--bots B] [--minutes M] [--bot SPEC] [--build DIR]
#
# Defaults: 2,000 games, 32 bots, at most 10 minutes, `random` bots, and the
# `release` preset built into build/release (SOAK_BUILD=0: use it as it is).
# Exit status 0 only when there were no errors and every game was stored and rated
# once (tests/CMakeLists.txt runs a short one as the ctest soak_e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
games=2000 bots=32 minutes=10 bot=random build=""
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --games) games=$2; shift 2 ;;
    --bots) bots=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --bot) bot=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "soak: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $games =~ ^[0-9]+$ && $bots =~ ^[0-9]+$ && $bots -ge 4 && $minutes =~ ^[0-9.]+$ ]] ||
  { echo "soak: --games and --minutes take numbers, --bots at least 4" >&2; exit 2; }
if [[ -z $build ]]; then
  build=build/release
  if [[ ${SOAK_BUILD:-1} != 0 ]]; then
    echo "soak: building the release preset (SOAK_BUILD=0 skips this)"
    cmake --preset release >/dev/null
    cmake --build build/release -j2 --target metropolis-gamehost metropolis-matchmaker metropolis-replays \
      metropolis-ratings metropolis-gateway metropolis-migrate metropolis-admin metropolisctl metropolis-bot |
      grep -E '^\[[0-9]+/[0-9]+\]' | awk 'NR % 25 == 0' || true
  fi
fi
build=$(cd "$build" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/metropolis-soak.XXXXXX")
chmod 755 "$work"
export METROPOLIS_STACK_DIR=$work/stack
pids=()
finish() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  deploy/local/stack.sh down >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap finish EXIT
METROPOLIS_MATCHMAKERS=2 METROPOLIS_GAMEHOSTS=2 deploy/local/stack.sh up "$build" >"$work/up.log" ||
  { cat "$work/up.log" >&2; exit 1; }
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
stack=$METROPOLIS_STACK_DIR
sql() { psql "$METROPOLIS_PG" -Atc "$1"; }
admin=$build/tools/admin/metropolis-admin
services=(replays ratings matchmaker matchmaker2 gamehost1 gamehost2 gateway)
rss() { awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$(cat "$stack/$1.pid")/status" 2>/dev/null || echo "-"; }
declare -A rss_start
for s in "${services[@]}"; do rss_start[$s]=$(rss "$s"); done
# Every metrics endpoint, the gateway's too.
targets="$METROPOLIS_METRICS_TARGETS gateway=$METROPOLIS_GATEWAY_METRICS"
scrape() {  # into $1: every endpoint's metrics, each line prefixed with its service
  local t
  : >"$1"
  for t in $targets; do
    curl -sf --max-time 5 "http://${t#*=}/metrics" | sed "s/^/${t%%=*} /" >>"$1" || true
  done
}

"$admin" create-ladder soak --title "Soak" --seats 4 --placement-games 2 --bots-after-ms 2000 >/dev/null
"$admin" create-season soak >/dev/null
"$admin" create-player house >/dev/null
mkdir -p "$stack/demo"
# Each bot may play twice its share, so that none runs out of partners before the
# total is reached; the bots are stopped once it is (the games they are playing
# then are finished by the fallback bot and stored too).
per_bot=$((2 * (games * 4 + bots - 1) / bots + 2))
echo "soak: registering $bots bots"
for i in $(seq 1 "$bots"); do
  "$admin" create-bot "soak-$i" --owner house >/dev/null
  "$admin" --json issue-token "soak-$i" --label soak |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])' >"$stack/demo/soak-$i.token"
done
echo "soak: $bots $bot bots, at most $per_bot games each, until $games games are stored or $minutes min have passed"
start=$(date +%s.%N)
for i in $(seq 1 "$bots"); do
  token=$(cat "$stack/demo/soak-$i.token")
  mm=$METROPOLIS_MATCHMAKER
  ((i % 2 == 0)) && mm=$METROPOLIS_MATCHMAKER2
  "$build/botkits/cpp/metropolis-bot" --ladder soak --matchmaker "$mm,$METROPOLIS_MATCHMAKER,$METROPOLIS_MATCHMAKER2" \
    --api-token "$token" --bot "$bot" --games "$per_bot" --quiet \
    --record "$stack/demo/soak-$i.record" >"$stack/demo/soak-$i.out" 2>"$stack/demo/soak-$i.err" &
  pids+=($!)
done
bot_pids=("${pids[@]}")

# The gateway's reader: what the web app asks for, once a second.
(
  while :; do
    for path in /api/v1/ladders/soak/leaderboard "/api/v1/games?ladder=soak&limit=20" /api/v1/live /readyz; do
      curl -s -o /dev/null --max-time 5 "$METROPOLIS_GATEWAY$path" || true
    done
    game=$(curl -s --max-time 5 "$METROPOLIS_GATEWAY/api/v1/games?ladder=soak&limit=1" |
      python3 -c 'import json, sys; g = json.load(sys.stdin).get("games", []); print(g[0]["game_id"] if g else "")' 2>/dev/null) || game=""
    if [[ -n $game ]]; then curl -s -o /dev/null --max-time 5 "$METROPOLIS_GATEWAY/api/v1/games/$game" || true; fi
    sleep 1
  done
) &
pids+=($!)

deadline=$(awk -v s="$start" -v m="$minutes" 'BEGIN { printf "%d", s + m * 60 }')
stored() { sql "SELECT count(*) FROM games WHERE ladder_id = 'soak'"; }
last=0
while :; do
  sleep 2
  now=$(date +%s)
  n=$(stored)
  running=0
  for pid in "${bot_pids[@]}"; do kill -0 "$pid" 2>/dev/null && running=$((running + 1)); done
  if ((now - last >= 10)); then
    last=$now
    echo "  $(awk -v s="$start" -v n="$now" 'BEGIN { printf "%4d", n - s }') s: $n games stored" \
      "($(awk -v s="$start" -v n="$now" -v g="$n" 'BEGIN { printf "%.2f", g / (n - s) }')/s), $running bots playing," \
      "RSS gamehost1 $(rss gamehost1) MiB, replays $(rss replays) MiB"
  fi
  ((n >= games || running == 0 || now >= deadline)) && break
done
elapsed=$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }')
stopped_early=""
((now >= deadline && $(stored) < games)) && stopped_early="(stopped at the time limit)"
# Stop the bots: a game in progress ends with its seats played by the fallback bot,
# and is still stored; wait for the outboxes to empty.
for pid in "${bot_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
failed_bots=0
for pid in "${bot_pids[@]}"; do
  rc=0
  wait "$pid" 2>/dev/null || rc=$?
  ((rc != 0 && rc != 143)) && failed_bots=$((failed_bots + 1))
done
for _ in $(seq 1 600); do
  live=$(curl -sf "http://$(echo "$targets" | tr ' ' '\n' | sed -n 's/^gamehost1=//p')/metrics" "http://$(echo "$targets" |
    tr ' ' '\n' | sed -n 's/^gamehost2=//p')/metrics" | awk '$1 == "metropolis_gamehost_live_games" || $1 == "metropolis_gamehost_outbox_backlog" { s += $2 } END { print s + 0 }')
  [[ $live == 0 ]] && break
  sleep 0.5
done
for _ in $(seq 1 100); do
  [[ $(sql "SELECT count(*) FROM rated_games WHERE game_id IN (SELECT id FROM games WHERE ladder_id = 'soak')") == "$(stored)" ]] && break
  sleep 0.2
done
declare -A rss_end
for s in "${services[@]}"; do rss_end[$s]=$(rss "$s"); done
scrape "$work/metrics.txt"
n=$(stored)
rated=$(sql "SELECT count(*) FROM rated_games WHERE game_id IN (SELECT id FROM games WHERE ladder_id = 'soak')")
finished=$(($(find "$stack/gamehost1/completed" "$stack/gamehost2/completed" -name '*.json' 2>/dev/null | wc -l)))
twice=$(sql "SELECT count(*) FROM (SELECT game_id, identity_id FROM game_seats WHERE identity_id IS NOT NULL
             GROUP BY 1, 2 HAVING count(*) > 1) x")
history=$(sql "SELECT count(*) FROM rating_history WHERE ladder_id = 'soak'")
rated_seats=$(sql "SELECT count(*) FROM game_seats s JOIN rated_games r ON r.game_id = s.game_id
                   WHERE r.rated AND s.identity_id IS NOT NULL")
log_errors=$(cat "$stack"/logs/*.log | grep -c " level=error " || true)

status=0
python3 - "$work/metrics.txt" "$elapsed" "$n" "$rated" "$finished" "$twice" "$history" "$rated_seats" "$log_errors" \
  "$failed_bots" "$bots" "$stopped_early" "${services[*]}" "$(for s in "${services[@]}"; do echo -n "${rss_start[$s]} "; done)" \
  "$(for s in "${services[@]}"; do echo -n "${rss_end[$s]} "; done)" <<'PY' || status=1
import re, sys
(path, elapsed, stored, rated, finished, twice, history, rated_seats, log_errors, failed_bots, bots, early,
 names, rss0, rss1) = sys.argv[1:]
elapsed, stored = float(elapsed), int(stored)
samples = []  # (service, name, labels, value)
for line in open(path):
    m = re.match(r'(\S+) ([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$', line.strip())
    if m:
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(3) or ""))
        samples.append((m.group(1), m.group(2), labels, float(m.group(4))))

def total(name, where=lambda s, l: True):
    return sum(v for s, n, l, v in samples if n == name and where(s, l))

def quantiles(name, qs=(0.5, 0.99)):
    buckets = {}
    for s, n, l, v in samples:
        if n == name + "_bucket":
            le = float("inf") if l["le"] == "+Inf" else float(l["le"])
            buckets[le] = buckets.get(le, 0) + v
    if not buckets or buckets.get(float("inf"), 0) == 0:
        return "–"
    bounds = sorted(buckets)
    count = buckets[float("inf")]
    out = []
    for q in qs:
        rank, prev_b, prev_c = q * count, 0.0, 0.0
        for b in bounds:
            c = buckets[b]
            if c >= rank:
                if b == float("inf"):
                    value = prev_b
                else:
                    value = prev_b + (b - prev_b) * ((rank - prev_c) / (c - prev_c) if c > prev_c else 1)
                break
            prev_b, prev_c = b, c
        out.append(value)
    fmt = lambda x: f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"
    return " / ".join(fmt(x) for x in out) + f" ({int(count):,} samples)"

# Not failures: a stream its client closed (CANCELLED: bots stopped at the end),
# and a newcomer's rating that does not exist yet (the matchmaker asks ratings).
def benign(l):
    return l.get("code") in ("OK", "CANCELLED") or (l.get("method") == "GetPlayerRating" and l.get("code") == "NOT_FOUND")
grpc_errors = {}
for s, n, l, v in samples:
    if n == "metropolis_grpc_requests_total" and not benign(l) and v > 0:
        key = f'{s} {l.get("method")} {l.get("code")}'
        grpc_errors[key] = grpc_errors.get(key, 0) + v
storage = total("metropolis_database_errors_total") + total("metropolis_redis_errors_total")
deliveries = total("metropolis_gamehost_outbox_delivery_failures_total")
gateway5xx = total("metropolis_gateway_requests_total", lambda s, l: l.get("code", "").startswith("5"))
gateway_all = total("metropolis_gateway_requests_total")
timeouts = total("metropolis_gamehost_timeouts_total")
rejected = total("metropolis_gamehost_rejected_answers_total")
decisions = total("metropolis_gamehost_decisions_total")
errors = sum(grpc_errors.values()) + storage + deliveries + gateway5xx + int(log_errors) + int(failed_bots)
consistent = int(stored) == int(rated) == int(finished) and twice == "0" and history == rated_seats

print()
print(f"| soak: {bots} bots, {elapsed:.0f} s{' ' + early if early else ''} | |")
print("|---|---|")
print(f"| games stored, per second | {stored:,}, **{stored / elapsed:.2f}/s** |")
print(f"| decisions applied, per second | {int(decisions):,}, {decisions / elapsed:,.0f}/s |")
print(f"| decision round trip p50 / p99 | {quantiles('metropolis_gamehost_decision_round_trip_seconds')} |")
print(f"| time to match p50 / p99 | {quantiles('metropolis_matchmaker_time_to_match_seconds')} |")
print(f"| store p50 / p99 | {quantiles('metropolis_replays_store_seconds')} |")
print(f"| rate p50 / p99 | {quantiles('metropolis_ratings_rate_seconds')} |")
print(f"| gateway answer p50 / p99 | {quantiles('metropolis_gateway_request_seconds')} |")
print(f"| stored / rated / finished by the hosts | {stored} / {rated} / {finished} |")
print(f"| identities seated twice in a game; rating history rows / rated seats | {twice}; {history} / {rated_seats} |")
print(f"| decision timeouts, refused answers | {int(timeouts)}, {int(rejected)} |")
print(f"| errors: gRPC (non-OK) / storage / failed deliveries / gateway 5xx / error log lines / failed bots | "
      f"{int(sum(grpc_errors.values()))} / {int(storage)} / {int(deliveries)} / {int(gateway5xx)} / {log_errors} / {failed_bots} |")
for key, v in sorted(grpc_errors.items()):
    print(f"| gRPC errors: {key} | {int(v)} |")
print()
print("| service | RSS at the start | at the end | growth |")
print("|---|---|---|---|")
for name, a, b in zip(names.split(), rss0.split(), rss1.split()):
    growth = f"{int(b) - int(a):+d} MiB" if a != "-" and b != "-" else "–"
    print(f"| {name} | {a} MiB | {b} MiB | {growth} |")
print()
ok = errors == 0 and consistent
print("soak: " + ("passed: no errors; every finished game stored and rated once" if ok else
                  "FAILED: " + ("errors above; " if errors else "") + ("" if consistent else "games not stored or rated exactly once")))
sys.exit(0 if ok else 1)
PY

# The game checker (docs/FAILURES.md, "The checker") over what the bots recorded:
# each stored game replays to its result and each seat saw exactly its events. Not
# --every-game-recorded: the games in play when the bots are stopped are finished
# by the fallback bot and stored with nobody recording them.
records=()
for f in "$stack"/demo/soak-*.record; do [[ -f $f ]] && records+=(--records "$f"); done
"$build/tests/checker/metropolis-check" --pg "$METROPOLIS_PG" --ladder soak "${records[@]}" \
  $(for f in "$stack"/logs/gamehost*.log; do echo "--host-log $f"; done) || status=1
# A soak that stored fewer games than it was asked for has not shown what it names.
if ((n < games)); then
  echo "soak: FAILED: $n of the $games games asked for were stored in $minutes min" >&2
  status=1
fi
exit $status
