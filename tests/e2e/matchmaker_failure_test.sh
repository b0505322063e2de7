#!/usr/bin/env bash
# A matchmaker replica killed in the middle of a ladder (label e2e): the stack
# with two matchmakers; 8 bots queue through the first of "mm2,mm1", and mm2 is
# killed with SIGKILL while they play, with tickets waiting in its queue. The bots queue again on mm1, resuming
# their tickets; every bot plays all its games, no identity sits twice in a game,
# the stored games are exactly the games the bots finished (none lost, none played
# by the fallback bot in a bot's name), each stored and rated once, as many as the
# host finished; the bots' logs say they queued again, the surviving replica's
# that it resumed their tickets, and its metrics count the games it made.
#
#   tests/e2e/matchmaker_failure_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin matchmaker_failure_test "${1:-}"

METROPOLIS_MATCHMAKERS=2 deploy/local/stack.sh up "$build" || fail "the stack did not start"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
scripts/ladder_demo.sh --bots 8 --games 4 --matchmakers "$METROPOLIS_MATCHMAKER2,$METROPOLIS_MATCHMAKER" \
  >"$work/demo.log" 2>&1 &
demo=$!
# Kill mm2 once the first games are over, while bots wait in its queue. A seat
# reaches its stream within milliseconds of being written, so mm2 is first frozen
# (SIGSTOP) and killed only if a ticket is queued then: a queued ticket's seat, if
# any, can then only be written, never delivered by mm2, and the bot resumes the
# ticket on mm1. Otherwise mm2 goes on, and the test looks again.
for _ in $(seq 1 300); do
  n=$(cat "$METROPOLIS_STACK_DIR"/demo/*.out 2>/dev/null | grep -c "game over" || true)
  ((n >= 4)) && break
  sleep 0.1
done
mm2_pid=$(cat "$METROPOLIS_STACK_DIR/matchmaker2.pid")
queue_key='metropolis:{mm}:queue:open'
queued=0
for _ in $(seq 1 2000); do
  kill -STOP "$mm2_pid"
  queued=$(redis-cli -h "${METROPOLIS_REDIS%:*}" -p "${METROPOLIS_REDIS##*:}" ZCARD "$queue_key" 2>/dev/null || echo 0)
  ((queued > 0)) && break
  kill -CONT "$mm2_pid"
  sleep 0.005
done
kill -KILL "$mm2_pid"
((queued > 0)) || fail "no ticket was ever queued on matchmaker 2 while the bots played"
echo "matchmaker_failure_test: $queued tickets were in the queue"
echo "matchmaker_failure_test: killed matchmaker 2 after $n seats' games"
wait "$demo" || { cat "$work/demo.log" >&2; fail "the ladder was not played to its end"; }

expect_games_per_bot 4
expect_all_rated
expect_no_identity_twice
expect_games_as_played open
expect_rated_once
expect_checked --ladder open --every-game-recorded --games-per-bot 4
games=$(sql "SELECT count(*) FROM games")
finished=$(find "$METROPOLIS_STACK_DIR/gamehost1/completed" -name '*.json' | wc -l)
[[ $finished == "$games" ]] || fail "the host finished $finished games, $games are stored"
retried=$(cat "$METROPOLIS_STACK_DIR"/demo/*.err | grep -c "queueing again" || true)
((retried > 0)) || fail "no bot logged queueing again after its matchmaker died"
resumed=$(grep -c 'msg="ticket resumed"' "$METROPOLIS_STACK_DIR/logs/matchmaker.log" || true)
((resumed > 0)) || fail "the surviving matchmaker logged no resumed ticket"
mm1=$(echo "$METROPOLIS_METRICS_TARGETS" | tr ' ' '\n' | sed -n 's/^matchmaker=//p')
tables=$(curl -sf "http://$mm1/metrics" | awk '$1 ~ /^metropolis_matchmaker_tables_formed_total/ { s += $2 } END { print s + 0 }')
((tables > 0)) || fail "the surviving matchmaker's metropolis_matchmaker_tables_formed_total is $tables"
echo "matchmaker_failure_test: passed ($games games; bots queued again $retried times, $resumed tickets resumed;" \
  "the survivor formed $tables tables)"
