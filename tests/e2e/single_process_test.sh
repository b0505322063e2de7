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
# shellcheck source=tests/e2e/lib/server_test.sh
source "$(dirname "$0")/lib/server_test.sh"
server_test_begin single_process_test "${1:-}"

# --- Flags: --help, and precise refusals ---------------------------------------------
expect_help_mentions "$server" --listen --pg --redis --migrations --service-token --host-admin-token --data-dir \
  METROPOLIS_SERVER_PG
refused "$server" "--pg (or METROPOLIS_SERVER_PG) is required" --redis 127.0.0.1:1
refused "$server" "unknown flag" --pg x --redis 127.0.0.1:1 --no-such-flag
refused "$server" "--max-calls" --pg x --redis 127.0.0.1:1 --max-calls 0
refused "$server" "port 0 is not supported" --pg x --redis 127.0.0.1:1 --listen 127.0.0.1:0
refused "$server" "is not HOST:PORT" --pg x --redis 127.0.0.1:1 --listen nowhere
refused "$server" "--log-level: 'loud'" --pg x --redis 127.0.0.1:1 --log-level loud
refused "$server" "--fallback-bot" --pg x --redis 127.0.0.1:1 --fallback-bot nobody
refused "$server" "--fallback-bot: 'search:ms=5000' thinks up to 5000 ms per decision; this host's bots may think at \
most 2000 ms (--max-bot-think-ms)" --pg x --redis 127.0.0.1:1 --fallback-bot search:ms=5000
refused "$server" "--max-bot-think-ms" --pg x --redis 127.0.0.1:1 --max-bot-think-ms 0
refused "$server" "--coalesce-events-ms" --pg x --redis 127.0.0.1:1 --coalesce-events-ms 5000
refused "$server" "--redis: redis address 'y' is neither" --pg x --redis y
refused "$server" "--redis: redis address 'sentinel:m@a': sentinel 'a' is not HOST:PORT" --pg x --redis sentinel:m@a
# People keeps seat tokens only encrypted: a gateway token needs a seat key.
refused "$server" "--seat-key-file (or METROPOLIS_SERVER_SEAT_KEY_FILE) is required with --gateway-token" \
  --pg x --redis 127.0.0.1:1 --gateway-token gw
head -c 31 /dev/urandom >"$work/short.key"
refused "$server" "--seat-key-file $work/short.key: 31 bytes; a key needs at least 32" --pg x --redis 127.0.0.1:1 \
  --gateway-token gw --seat-key-file "$work/short.key"

# --- A database and a Redis prefix of its own ------------------------------------------
server_test_database single
port=$(free_port)
start_server "$port"
grep -q -- "--service-token svc-" "$work/server.out" || fail "the generated service token was not printed"
grep -q -- "--host-admin-token host-" "$work/server.out" || fail "the generated host admin token was not printed"
grep -q "msg=migrated" "$work/server.log" || fail "--migrations did not migrate"

services=(Replays Ratings Matchmaker Tournaments Accounts GameHost)
health_args=(--service "")
for s in "${services[@]}"; do health_args+=(--service "metropolis.v1.$s"); done
retry_until_ok "$work/health.txt" "$ctl_bin" --host "$addr" health "${health_args[@]}" ||
  fail "not every service is serving: $(cat "$work/health.txt")"

# --- A ladder, 4 bots, 2 games each, all through the one address -----------------------
play_ladder single "One process" 2 --bot heuristic --games 2
for i in 1 2 3 4; do
  n=$(grep -c "game over" "$work/bots/bot-$i.out" || true)
  [[ $n == 2 ]] || fail "bot-$i played $n games, not 2"
done

# Stored and rated: the host hands games over asynchronously, through its outbox.
wait_stored_and_rated single 2
((games >= 2)) || fail "$games games stored, expected at least 2"
[[ $(sql "SELECT count(*) FROM rated_games") == "$games" ]] ||
  fail "$(sql "SELECT count(*) FROM rated_games") of $games games rated"
expect_checked --ladder single --every-game-recorded --games-per-bot 2
[[ $(sql "SELECT string_agg(DISTINCT n::text, ',') FROM (SELECT identity_id, count(*) AS n FROM game_seats
          WHERE identity_id IS NOT NULL GROUP BY 1) x") == 2 ]] || fail "not every bot is in exactly 2 stored games"
[[ $(sql "SELECT string_agg(DISTINCT games::text, ',') FROM ratings") == 2 ]] || fail "a rating counts other than 2 games"
total=$("$ctl_bin" --host "$addr" --token "$admin_token" --json leaderboard --ladder single |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])')
[[ $total == 4 ]] || fail "the leaderboard ranks $total players, expected 4"
"$ctl_bin" --host "$addr" --token "$admin_token" stored-games --ladder single >"$work/stored.txt" ||
  fail "stored-games failed"
outbox_games() { find "$work/data/outbox" -maxdepth 1 -name '*.pb' | wc -l; }
for _ in $(seq 1 50); do (($(outbox_games) == 0)) && break; sleep 0.1; done
(($(outbox_games) == 0)) || fail "the outbox still holds $(outbox_games) games"
[[ -z $(ls -A "$work/data/outbox/refused") ]] || fail "the outbox set games aside: $(ls "$work/data/outbox/refused")"
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
