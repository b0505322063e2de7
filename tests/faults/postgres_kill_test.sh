#!/usr/bin/env bash
# PostgreSQL killed mid-load (label faults; docs/FAILURES.md, "PostgreSQL killed").
# The stack's PostgreSQL runs with the production durability settings (fsync,
# synchronous_commit and full_page_writes on: METROPOLIS_PG_DURABLE=1, checked and
# logged below); 8 bots play 4 ladder games each. With games finished and others
# live, every PostgreSQL process (the postmaster and each backend) gets SIGKILL at
# once — a crash, no shutdown checkpoint — and, once a game host's delivery has
# failed against the dead database, the server is started again on the same data
# folder and port: it recovers from its write-ahead log. The ladder plays on.
# Required: the server recovered from a crash; every game a host logged delivered
# (the replays and ratings services acknowledged it) is stored (the test's own
# VIOLATION lines otherwise); games are created and finished after the restart; and
# the checker: every game a seat saw end stored once, exactly as its seats saw it,
# and rated once; every game created stored or void.
#
# protection: deliver_until_acknowledged   (tests/faults/run.sh --negative switches it
#                                           off: a host drops a game whose delivery
#                                           failed, and the games that end while the
#                                           database is down are lost)
#
#   tests/faults/postgres_kill_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin postgres_kill_test "${1:-}"
say() { echo "postgres_kill_test: [${SECONDS} s] $*"; }

stack_up METROPOLIS_PG_DURABLE=1
# What the test proves holds only with production's durability: say so, and refuse less.
settings=$(sql "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings
                WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes')")
say "PostgreSQL runs with $settings"
[[ $settings == "fsync=on full_page_writes=on synchronous_commit=on" ]] ||
  fail "PostgreSQL does not run with the production durability settings: $settings"
pgdata=$METROPOLIS_STACK_DIR/services/pg/data
host=$(metrics_of gamehost1)
failed_deliveries() {
  curl -s "http://$host/metrics" |
    awk 'index($1, "metropolis_gamehost_outbox_delivery_failures_total{") == 1 { s += $2 } END { printf "%d", s }'
}
created() { grep -c 'msg="game created"' "$METROPOLIS_STACK_DIR"/logs/matchmaker*.log | awk -F: '{ s += $NF } END { print s }'; }

games=4
start_ladder_demo 8 $games
# Kill once every bot queues (the demo's set-up needs the database) and games are both
# over and live: the crash lands on stores, ratings and queueing at once.
ready() {
  grep -qs "bots queue on" "$work/demo.log" && (($(seats_over) >= 4)) &&
    (($(metric "$host" metropolis_gamehost_live_games) >= 1))
}
# At most 3 minutes: on two busy cores the demo's set-up alone can take a minute.
for _ in $(seq 1 1800); do
  ready && break
  kill -0 "$demo" 2>/dev/null || break
  sleep 0.1
done
ready || { cat "$work/demo.log" >&2; fail "no games over and live at once before the kill"; }
postmaster=$(head -1 "$pgdata/postmaster.pid")
# Every process of the server: the postmaster and its children, in one kill.
mapfile -t pg_pids < <(echo "$postmaster"; pgrep -P "$postmaster")
over_at_kill=$(seats_over) created_at_kill=$(created) failures_at_kill=$(failed_deliveries)
kill -KILL "${pg_pids[@]}"
say "killed ${#pg_pids[@]} PostgreSQL processes (SIGKILL) with $over_at_kill seats' games over and" \
  "$(metric "$host" metropolis_gamehost_live_games) games live"
for _ in $(seq 1 100); do
  alive=0
  for pid in "${pg_pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
  ((alive == 0)) && break
  sleep 0.1
done
((alive == 0)) || fail "PostgreSQL processes outlived SIGKILL"
# Down until a game that ended could not be delivered (at most 20 s), so that the crash
# meets a finished game: the host must keep it until the database is back.
for _ in $(seq 1 200); do
  (($(failed_deliveries) > failures_at_kill)) && break
  sleep 0.1
done
say "deliveries failed while PostgreSQL was down: $(($(failed_deliveries) - failures_at_kill))"
"$METROPOLIS_STACK_DIR/services/pg-ctl.sh" start || fail "PostgreSQL did not start again on its data folder"
grep -q "database system was interrupted\|not properly shut down" "$pgdata/../server.log" ||
  fail "PostgreSQL did not recover from a crash (no crash recovery in its log)"
say "PostgreSQL started again on its data folder: $(grep -o 'redo done at [^ ]*\|database system was not properly shut down[^"]*' \
  "$pgdata/../server.log" | head -2 | paste -sd ';')"

# The demo's status is read, not required: its bots' games are checked below
# (expect_games_per_bot), and its closing display (a leaderboard through ratings,
# which asks Accounts) is not what this test is about.
demo_status=0
wait "$demo" || demo_status=$?
# Until the host has delivered every game it finished (its retries back off while the
# database was down: two minutes at most).
for _ in $(seq 1 1200); do
  (($(metric "$host" metropolis_gamehost_outbox_backlog) == 0)) && break
  sleep 0.1
done

# The test's own check, beyond the checker's: every game a host logged delivered
# (acknowledged by replays and ratings) is stored and rated, crash or not.
lost=0
while read -r id; do
  if [[ $(sql "SELECT count(*) FROM games g JOIN rated_games r ON r.game_id = g.id WHERE g.id = '$id'") != 1 ]]; then
    echo "VIOLATION acknowledged but lost game=$id: a host logged it delivered; it is not stored and rated"
    lost=$((lost + 1))
  fi
done < <(sed -n 's/.*msg="game delivered".* game=\([^ ]*\).*/\1/p' "$METROPOLIS_STACK_DIR"/logs/gamehost*.log | sort -u)
delivered=$(cat "$METROPOLIS_STACK_DIR"/logs/gamehost*.log | grep -c 'msg="game delivered"' || true)
# The checker first, so that a failing run shows what it found; then the ladder's own checks.
expect_all_rated
expect_checked --ladder open --every-game-recorded --games-per-bot $games
((lost == 0)) || fail "$lost acknowledged games lost"
expect_games_per_bot $games
((demo_status == 0)) || say "every bot played its $games games; the demo itself ended with status $demo_status:" \
  "$(grep -v '^  ' "$work/demo.log" | tail -2 | paste -sd ' ')"
expect_no_identity_twice
expect_games_as_played open
expect_rated_once
(($(created) > created_at_kill)) || fail "no game was created after the crash"
(($(seats_over) > over_at_kill)) || fail "no game finished after the crash"
[[ -n $(log_count "database connection restored") ]] || fail "no service logged 'database connection restored'"
stored=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")
say "passed ($stored games stored ($delivered acknowledged to the host), each as its seats saw it, rated once; $(($(created) - created_at_kill)) created" \
  "after the crash; reconnected: $(log_count "database connection restored" | paste -sd, | sed 's/,/, /g'))"
