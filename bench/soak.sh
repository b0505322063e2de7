#!/usr/bin/env bash
# Soak test of the whole stack on loopback: two matchmaker replicas, two game hosts,
# accounts, replays, ratings and the gateway (deploy/local/stack.sh) with their own PostgreSQL
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
#                 [--fault-every SECONDS]
#
# Defaults: 2,000 games, 32 bots, at most 10 minutes, `random` bots, and the
# `release` preset built into build/release (SOAK_BUILD=0: use it as it is).
# Exit status 0 only when there were no errors, every game was stored and rated
# once and the game checker found no violation (tests/CMakeLists.txt runs a short
# one as the ctest soak_e2e).
#
# --fault-every SECONDS (default off) breaks something every SECONDS while the soak
# runs, in turn, and heals it (docs/FAILURES.md, "Soak with faults"):
#   host-kill   a game host (1 and 2 in turn) killed with SIGKILL and started again
#               1 s later with its data folder and port (deploy/local/stack.sh start),
#               as Kubernetes restarts a crashed pod;
#   redis-kill  Redis killed with SIGKILL and started again 1 s later from its
#               append-only file (its redis-ctl.sh);
#   partition   game host 2 cut off from Redis (its checkpoints go through a link,
#               tests/faults/lib/tcp_proxy.py) for 3 leases, then healed.
# The hosts then checkpoint into Redis with a 3 s lease and take over each other's
# games. Each fault is a progress line. The run lasts --minutes (no --games target
# unless one is given); the errors the faults cause are counted but do not fail it:
# the checker's violations, games not stored and rated exactly once, or a bot that
# failed do.
set -euo pipefail
cd "$(dirname "$0")/.."
games="" bots=32 minutes=10 bot=random build="" fault_every=0
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --games) games=$2; shift 2 ;;
    --bots) bots=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --bot) bot=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --fault-every) fault_every=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "soak: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $fault_every =~ ^[0-9]+$ && ($fault_every == 0 || $fault_every -ge 20) ]] ||
  { echo "soak: --fault-every takes a number of seconds, at least 20 (a fault and its healing take up to 10 s)" >&2; exit 2; }
# With faults, the run lasts --minutes unless a number of games is asked for.
if [[ -z $games ]]; then
  games=2000
  ((fault_every > 0)) && games=0
fi
[[ $games =~ ^[0-9]+$ && $bots =~ ^[0-9]+$ && $bots -ge 4 && $minutes =~ ^[0-9.]+$ ]] ||
  { echo "soak: --games and --minutes take numbers, --bots at least 4" >&2; exit 2; }
if [[ -z $build ]]; then
  build=build/release
  if [[ ${SOAK_BUILD:-1} != 0 ]]; then
    echo "soak: building the release preset (SOAK_BUILD=0 skips this)"
    cmake --preset release >/dev/null
    cmake --build build/release -j2 --target metropolis-accounts metropolis-gamehost metropolis-matchmaker metropolis-replays \
      metropolis-ratings metropolis-gateway metropolis-migrate metropolis-admin metropolisctl metropolis-bot \
      metropolis-check |
      grep -E '^\[[0-9]+/[0-9]+\]' | awk 'NR % 25 == 0' || true
  fi
fi
build=$(cd "$build" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/metropolis-soak.XXXXXX")
chmod 755 "$work"
export METROPOLIS_STACK_DIR=$work/stack
pids=() link=""
keep_logs=0
# shellcheck disable=SC2317 # the EXIT trap
finish() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  # A failed soak keeps the services' logs, the bots' output and the faults' for a look.
  if ((keep_logs)); then
    local keep
    keep=$(mktemp -d "${TMPDIR:-/tmp}/metropolis-soak-logs.XXXXXX")
    cp -r "$METROPOLIS_STACK_DIR/logs" "$METROPOLIS_STACK_DIR/demo" "$keep/" 2>/dev/null || true
    cp "$work"/faults.* "$work/check.out" "$keep/" 2>/dev/null || true
    echo "soak: logs kept in $keep" >&2
  fi
  if [[ -n $link ]]; then kill "$link" 2>/dev/null || true; fi
  deploy/local/stack.sh down >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap finish EXIT
lease_ms=3000
stack_vars=(METROPOLIS_MATCHMAKERS=2 METROPOLIS_GAMEHOSTS=2)
if ((fault_every > 0)); then
  # Host 2's checkpoints go through a link the partition cuts (it starts cut).
  python3 tests/faults/lib/tcp_proxy.py --port-file "$work/link.port" --target-file "$work/link.target" \
    --mode reject 2>"$work/link.log" &
  link=$!
  for _ in $(seq 1 100); do [[ -s $work/link.port ]] && break; sleep 0.1; done
  [[ -s $work/link.port ]] || { echo "soak: the link (tcp_proxy.py) did not start: $(cat "$work/link.log")" >&2; exit 1; }
  stack_vars+=(METROPOLIS_GAMEHOST_CHECKPOINTS=1 "METROPOLIS_LEASE_MS=$lease_ms"
    METROPOLIS_GAMEHOST2_CHECKPOINT_REDIS="127.0.0.1:$(cat "$work/link.port")")
fi
env "${stack_vars[@]}" deploy/local/stack.sh up "$build" >"$work/up.log" ||
  { cat "$work/up.log" >&2; exit 1; }
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
if [[ -n $link ]]; then
  echo "$METROPOLIS_REDIS" >"$work/link.target"
  kill -USR2 "$link"
fi
stack=$METROPOLIS_STACK_DIR
sql() { psql "$METROPOLIS_PG" -Atc "$1"; }
admin=$build/tools/admin/metropolis-admin
services=(accounts replays ratings matchmaker matchmaker2 gamehost1 gamehost2 gateway)
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
((games > 0)) || per_bot=100000  # no target: the time limit ends the run
echo "soak: registering $bots bots"
for i in $(seq 1 "$bots"); do
  "$admin" create-bot "soak-$i" --owner house >/dev/null
  "$admin" --json issue-token "soak-$i" --label soak |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])' >"$stack/demo/soak-$i.token"
done
if ((games > 0)); then
  echo "soak: $bots $bot bots, at most $per_bot games each, until $games games are stored or $minutes min have passed"
else
  echo "soak: $bots $bot bots for $minutes min"
fi
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

# --fault-every: one fault every SECONDS, in turn, each healed before the next (in
# the background; each is a progress line, and a line in $work/faults.log).
metrics_of() { tr ' ' '\n' <<<"$METROPOLIS_METRICS_TARGETS" | sed -n "s/^$1=//p"; }
metric() { { curl -s --max-time 5 "http://$1/metrics" || true; } | awk -v m="$2" '$1 == m { v = $2 } END { printf "%d", v }'; }
since_start() { awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%4d", n - s }'; }
inject_faults() {
  local k=0 h m live outbox before cut_s=$((3 * lease_ms / 1000))
  set +e  # a fault that goes wrong is reported, not the end of the injector
  while :; do
    for _ in $(seq 1 "$fault_every"); do
      [[ -f $work/faults.stop ]] && return 0
      sleep 1
    done
    k=$((k + 1))
    case $((k % 3)) in
      1)
        h=$((((k - 1) / 3) % 2 + 1)) m=$(metrics_of "gamehost$h")
        live=$(metric "$m" metropolis_gamehost_live_games) outbox=$(metric "$m" metropolis_gamehost_outbox_backlog)
        kill -KILL "$(cat "$stack/gamehost$h.pid")"
        sleep 1
        if deploy/local/stack.sh start "gamehost$h" >>"$work/faults.out" 2>&1; then
          echo "  $(since_start) s: fault $k: game host $h killed (SIGKILL) with $live live games and $outbox in" \
            "its outbox; started again 1 s later"
          echo host-kill >>"$work/faults.log"
        else
          echo "  $(since_start) s: fault $k: game host $h killed; it did NOT start again: $(tail -3 "$work/faults.out")"
          echo "host-kill not healed" >>"$work/faults.log"
        fi
        ;;
      2)
        "$METROPOLIS_REDIS_CTL" kill >>"$work/faults.out" 2>&1
        sleep 1
        if "$METROPOLIS_REDIS_CTL" start >>"$work/faults.out" 2>&1; then
          echo "  $(since_start) s: fault $k: Redis killed (SIGKILL); started again 1 s later from its append-only file"
          echo redis-kill >>"$work/faults.log"
        else
          echo "  $(since_start) s: fault $k: Redis killed; it did NOT start again: $(tail -3 "$work/faults.out")"
          echo "redis-kill not healed" >>"$work/faults.log"
        fi
        ;;
      0)
        m=$(metrics_of gamehost1)
        before=$(metric "$m" 'metropolis_gamehost_takeovers_total{direction="in"}')
        live=$(metric "$(metrics_of gamehost2)" metropolis_gamehost_live_games)
        kill -USR1 "$link"
        sleep "$cut_s"
        kill -USR2 "$link"
        echo "  $(since_start) s: fault $k: game host 2 (with $live live games) cut off from Redis for ${cut_s} s" \
          "(3 leases), healed; host 1 took $(($(metric "$m" 'metropolis_gamehost_takeovers_total{direction="in"}') - before))" \
          "games over meanwhile"
        echo partition >>"$work/faults.log"
        ;;
    esac
  done
}
injector=""
if ((fault_every > 0)); then
  : >"$work/faults.log"
  echo "soak: a fault every $fault_every s, in turn: host-kill, redis-kill, partition"
  inject_faults &
  injector=$!
  pids+=("$injector")
fi

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
  (((games > 0 && n >= games) || running == 0 || now >= deadline)) && break
done
# The last fault is healed before the bots stop.
if [[ -n $injector ]]; then
  touch "$work/faults.stop"
  wait "$injector" || true
fi
elapsed=$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }')
stopped_early=""
((games > 0 && now >= deadline && $(stored) < games)) && stopped_early="(stopped at the time limit)"
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
    tr ' ' '\n' | sed -n 's/^gamehost2=//p')/metrics" | awk '$1 == "metropolis_gamehost_live_games" || $1 == "metropolis_gamehost_outbox_backlog" { s += $2 } END { print s + 0 }') || live=1
  # With faults, also until no checkpoint is left in Redis: a killed host's games are
  # live nowhere until their leases lapse and a host takes them over.
  if [[ $live == 0 ]] && ((fault_every > 0)); then
    live=$(redis-cli -h "${METROPOLIS_REDIS%:*}" -p "${METROPOLIS_REDIS##*:}" scard gh:live 2>/dev/null | tr -d '\r') || live=1
  fi
  [[ $live == 0 ]] && break
  sleep 0.5
done
# Until every stored game is rated: a delivery that failed is retried after a back-off
# of up to 30 s (two minutes at most; a run without failures does not wait).
for _ in $(seq 1 600); do
  [[ $(sql "SELECT count(*) FROM rated_games WHERE game_id IN (SELECT id FROM games WHERE ladder_id = 'soak')") == "$(stored)" ]] && break
  sleep 0.2
done
declare -A rss_end
for s in "${services[@]}"; do rss_end[$s]=$(rss "$s"); done
scrape "$work/metrics.txt"
n=$(stored)
rated=$(sql "SELECT count(*) FROM rated_games WHERE game_id IN (SELECT id FROM games WHERE ladder_id = 'soak')")
# A game taken over finished may be in both hosts' folders: counted once.
finished=$(find "$stack/gamehost1/completed" "$stack/gamehost2/completed" -name '*.json' -printf '%f\n' 2>/dev/null |
  sort -u | wc -l)
twice=$(sql "SELECT count(*) FROM (SELECT game_id, identity_id FROM game_seats WHERE identity_id IS NOT NULL
             GROUP BY 1, 2 HAVING count(*) > 1) x")
history=$(sql "SELECT count(*) FROM rating_history WHERE ladder_id = 'soak'")
rated_seats=$(sql "SELECT count(*) FROM game_seats s JOIN rated_games r ON r.game_id = s.game_id
                   WHERE r.rated AND s.identity_id IS NOT NULL")
log_errors=$(cat "$stack"/logs/*.log | grep -c " level=error " || true)

# The game checker (docs/FAILURES.md, "The checker") over what the bots recorded:
# each stored game replays to its result and each seat saw exactly its events. Not
# --every-game-recorded: the games in play when the bots are stopped are finished
# by the fallback bot and stored with nobody recording them. Its violations are a
# row of the table; its report follows the table.
records=() host_logs=()
for f in "$stack"/demo/soak-*.record; do [[ -f $f ]] && records+=(--records "$f"); done
for f in "$stack"/logs/gamehost*.log; do [[ -f $f ]] && host_logs+=(--host-log "$f"); done
status=0
"$build/tests/checker/metropolis-check" --pg "$METROPOLIS_PG" --ladder soak "${records[@]}" "${host_logs[@]}" \
  >"$work/check.out" 2>&1 || status=1
violations=$(grep -c '^VIOLATION' "$work/check.out" || true)
faults=""
if ((fault_every > 0)); then
  faults=$(sort "$work/faults.log" | uniq -c | awk '{ n = $1; $1 = ""; printf "%s%s %d", (NR > 1 ? ", " : ""), substr($0, 2), n }')
  faults="${faults:-none} (every $fault_every s)"
fi

python3 - "$work/metrics.txt" "$elapsed" "$n" "$rated" "$finished" "$twice" "$history" "$rated_seats" "$log_errors" \
  "$failed_bots" "$bots" "$stopped_early" "${services[*]}" "$(for s in "${services[@]}"; do echo -n "${rss_start[$s]} "; done)" \
  "$(for s in "${services[@]}"; do echo -n "${rss_end[$s]} "; done)" "$violations" "$faults" <<'PY' || status=1
import re, sys
(path, elapsed, stored, rated, finished, twice, history, rated_seats, log_errors, failed_bots, bots, early,
 names, rss0, rss1, violations, faults) = sys.argv[1:]
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
if faults:
    print(f"| faults injected | {faults} |")
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
print(f"| game checker: violations | **{violations}** |")
print()
print("| service | RSS at the start | at the end | growth |")
print("|---|---|---|---|")
for name, a, b in zip(names.split(), rss0.split(), rss1.split()):
    growth = f"{int(b) - int(a):+d} MiB" if a != "-" and b != "-" else "–"
    print(f"| {name} | {a} MiB | {b} MiB | {growth} |")
print()
# Under faults errors are expected (counted above); what the players were promised is not.
errors_fail = errors > 0 and not (faults and int(failed_bots) == 0 and "not healed" not in faults)
ok = not errors_fail and consistent and violations == "0" and "not healed" not in faults
problems = ((("errors above; " if not faults else f"{failed_bots} bots failed; ") if errors_fail else "") + ("" if consistent else "games not stored or rated exactly once; ")
            + ("" if violations == "0" else f"{violations} checker violations; ")
            + ("a fault was not healed; " if "not healed" in faults else ""))
print("soak: " + (("passed: every finished game stored and rated once, no checker violation"
                   + (f" ({int(errors)} errors under the faults)" if faults else "; no errors")) if ok else
                  "FAILED: " + problems.rstrip("; ")))
sys.exit(0 if ok else 1)
PY
cat "$work/check.out"

# A soak that stored fewer games than it was asked for has not shown what it names.
if ((games > 0 && n < games)); then
  echo "soak: FAILED: $n of the $games games asked for were stored in $minutes min" >&2
  status=1
fi
((status == 0)) || keep_logs=1
exit $status
