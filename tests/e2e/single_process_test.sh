#!/usr/bin/env bash
# metropolis-server end to end (label e2e): every service but the gateway in one
# process on one gRPC port, against the PostgreSQL and Redis the test command
# starts (METROPOLIS_PG_CONNINFO, METROPOLIS_REDIS_ADDR: the test fails when they
# are unset). In a database of its own and under a Redis prefix of its own, 4 bots
# queue on a ladder at that one address for 2 games each; every game is stored,
# rated exactly once and kept nowhere else (the outbox empties), the leaderboard
# ranks all 4, the health service answers for every service, and SIGTERM stops
# the process cleanly. Bad flags are refused with errors that name them.
#
#   tests/e2e/single_process_test.sh BUILD_DIR
set -euo pipefail
test_name=single_process_test
build=$(cd "${1:?usage: $test_name BUILD_DIR}" && pwd)
cd "$(dirname "$0")/../.."
root=$PWD
server=$build/services/server/metropolis-server
admin_bin=$build/services/accounts/metropolis-admin
ctl_bin=$build/services/ctl/metropolisctl
bot_bin=$build/botkits/cpp/metropolis-bot

work=$(mktemp -d "${TMPDIR:-/tmp}/$test_name.XXXXXX")
server_pid='' db='' prefix=''
fail() {
  echo "$test_name: FAILED: $*" >&2
  tail -n 20 "$work/server.log" >&2 2>/dev/null || true
  tail -n 5 "$work"/bots/*.err >&2 2>/dev/null || true
  exit 1
}
# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
  local pid
  for pid in $(jobs -p); do kill "$pid" 2>/dev/null || true; done
  if [[ -n $server_pid ]]; then
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ -n $db ]]; then
    psql "$METROPOLIS_PG_CONNINFO" -qAtc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  if [[ -n $prefix ]]; then
    redis-cli -h "${METROPOLIS_REDIS_ADDR%:*}" -p "${METROPOLIS_REDIS_ADDR##*:}" --scan --pattern "$prefix*" |
      xargs -r redis-cli -h "${METROPOLIS_REDIS_ADDR%:*}" -p "${METROPOLIS_REDIS_ADDR##*:}" del >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

[[ -n ${METROPOLIS_PG_CONNINFO:-} ]] || fail "METROPOLIS_PG_CONNINFO is unset (scripts/test.sh, or start_postgres of scripts/lib/services.sh, sets it)"
[[ -n ${METROPOLIS_REDIS_ADDR:-} ]] || fail "METROPOLIS_REDIS_ADDR is unset (scripts/test.sh, or start_redis of scripts/lib/services.sh, sets it)"
for program in "$server" "$admin_bin" "$ctl_bin" "$bot_bin"; do
  [[ -x $program ]] || fail "$program is not built"
done
psql "$METROPOLIS_PG_CONNINFO" -qAtc "SELECT 1" >/dev/null || fail "cannot reach PostgreSQL at '$METROPOLIS_PG_CONNINFO'"
redis-cli -h "${METROPOLIS_REDIS_ADDR%:*}" -p "${METROPOLIS_REDIS_ADDR##*:}" ping | grep -q PONG ||
  fail "cannot reach Redis at $METROPOLIS_REDIS_ADDR"
# shellcheck source=scripts/lib/services.sh
source "$root/scripts/lib/services.sh"  # free_port

# --- Flags: --help, and precise refusals ---------------------------------------------
"$server" --help >"$work/help.txt" || fail "--help failed"
for flag in --listen --pg --redis --migrations --service-token --host-admin-token --data-dir METROPOLIS_SERVER_PG; do
  grep -q -- "$flag" "$work/help.txt" || fail "--help does not mention $flag"
done
refused() {  # expected-text args...
  local expected=$1 status=0
  shift
  env -u METROPOLIS_SERVER_PG "$server" "$@" >/dev/null 2>"$work/refused.err" || status=$?
  [[ $status == 2 ]] || fail "metropolis-server $* exited with $status, not 2"
  grep -q -- "$expected" "$work/refused.err" || fail "metropolis-server $*: '$(cat "$work/refused.err")' does not say '$expected'"
}
refused "--pg (or METROPOLIS_SERVER_PG) is required" --redis 127.0.0.1:1
refused "unknown flag" --pg x --redis y --no-such-flag
refused "--max-calls" --pg x --redis y --max-calls 0
refused "port 0 is not supported" --pg x --redis y --listen 127.0.0.1:0
refused "is not HOST:PORT" --pg x --redis y --listen nowhere
refused "--log-level: 'loud'" --pg x --redis y --log-level loud
refused "--fallback-bot" --pg x --redis y --fallback-bot nobody

# --- A database and a Redis prefix of its own ------------------------------------------
db=metropolis_single_$$_$RANDOM
psql "$METROPOLIS_PG_CONNINFO" -qAtc "CREATE DATABASE $db" || fail "cannot create the database $db"
pg="$METROPOLIS_PG_CONNINFO dbname=$db"  # the last dbname wins
prefix=single-$$-$RANDOM
sql() { psql "$pg" -Atc "$1"; }

port=$(free_port)
addr=127.0.0.1:$port
"$server" --listen "$addr" --pg "$pg" --redis "$METROPOLIS_REDIS_ADDR" --redis-prefix "$prefix" \
  --migrations "$root/migrations" --data-dir "$work/data" >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 400); do
  ss -Htln "sport = :$port" | grep -q . && break
  kill -0 "$server_pid" 2>/dev/null || fail "metropolis-server exited at start"
  sleep 0.05
done
ss -Htln "sport = :$port" | grep -q . || fail "metropolis-server did not listen on $addr"
grep -q -- "--service-token svc-" "$work/server.out" || fail "the generated service token was not printed"
grep -q -- "--host-admin-token host-" "$work/server.out" || fail "the generated host admin token was not printed"
grep -q "msg=migrated" "$work/server.log" || fail "--migrations did not migrate"

services=(Replays Ratings Matchmaker Tournaments Accounts GameHost)
health_args=(--service "")
for s in "${services[@]}"; do health_args+=(--service "metropolis.v1.$s"); done
ok=0
for _ in $(seq 1 50); do
  "$ctl_bin" --host "$addr" health "${health_args[@]}" >"$work/health.txt" 2>&1 && { ok=1; break; }
  sleep 0.1
done
((ok)) || fail "not every service is serving: $(cat "$work/health.txt")"

# --- A ladder, 4 bots, 2 games each, all through the one address -----------------------
admin() { "$admin_bin" --pg "$pg" "$@"; }
token_of() { python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'; }
admin create-player admin >/dev/null
admin_token=$(admin --json issue-token admin --admin --label single | token_of)
admin create-ladder single --title "One process" --seats 4 --placement-games 2 --bots-after-ms 20000 >/dev/null
admin create-season single >/dev/null
admin create-player house >/dev/null
mkdir -p "$work/bots"
pids=()
for i in 1 2 3 4; do
  admin create-bot "bot-$i" --owner house >/dev/null
  token=$(admin --json issue-token "bot-$i" --label single | token_of)
  "$bot_bin" --ladder single --matchmaker "$addr" --api-token "$token" --bot heuristic --games 2 \
    >"$work/bots/bot-$i.out" 2>"$work/bots/bot-$i.err" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "a bot failed"; done
for i in 1 2 3 4; do
  n=$(grep -c "game over" "$work/bots/bot-$i.out" || true)
  [[ $n == 2 ]] || fail "bot-$i played $n games, not 2"
done

# Stored and rated: the host hands games over asynchronously, through its outbox.
games=0
for _ in $(seq 1 100); do
  games=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'single'")
  rated=$(sql "SELECT count(*) FROM rated_games")
  ((games >= 2)) && [[ $rated == "$games" ]] && break
  sleep 0.1
done
((games >= 2)) || fail "$games games stored, expected at least 2"
[[ $(sql "SELECT count(*) FROM rated_games") == "$games" ]] ||
  fail "$(sql "SELECT count(*) FROM rated_games") of $games games rated"
[[ $(sql "SELECT string_agg(DISTINCT n::text, ',') FROM (SELECT identity_id, count(*) AS n FROM game_seats
          WHERE identity_id IS NOT NULL GROUP BY 1) x") == 2 ]] || fail "not every bot is in exactly 2 stored games"
[[ $(sql "SELECT string_agg(DISTINCT games::text, ',') FROM ratings") == 2 ]] || fail "a rating counts other than 2 games"
total=$("$ctl_bin" --host "$addr" --token "$admin_token" --json leaderboard --ladder single |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])')
[[ $total == 4 ]] || fail "the leaderboard ranks $total players, expected 4"
"$ctl_bin" --host "$addr" --token "$admin_token" stored-games --ladder single >"$work/stored.txt" ||
  fail "stored-games failed"
for _ in $(seq 1 50); do [[ -z $(ls -A "$work/data/outbox") ]] && break; sleep 0.1; done
[[ -z $(ls -A "$work/data/outbox") ]] || fail "the outbox still holds $(find "$work/data/outbox" -type f | wc -l) games"
[[ $(find "$work/data/completed" -type f | wc -l) -ge $games ]] || fail "the host's archive misses games"

# --- An orderly stop -----------------------------------------------------------------
kill -TERM "$server_pid"
status=0
for _ in $(seq 1 200); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$server_pid" 2>/dev/null && fail "metropolis-server did not stop within 10 s of SIGTERM"
wait "$server_pid" || status=$?
server_pid=
[[ $status == 0 ]] || fail "metropolis-server exited with $status after SIGTERM"
grep -q "msg=\"shutting down\"" "$work/server.log" || fail "no shutdown in the log"
echo "$test_name: passed ($games games, 4 bots, one process on $addr)"
