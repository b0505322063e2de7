#!/usr/bin/env bash
# A matchmaker replica killed in the middle of a ladder (label e2e): the stack
# with two matchmakers; 8 bots queue through the first of "mm2,mm1", and mm2 is
# killed with SIGKILL while they play. The bots queue again on mm1, resuming
# their tickets; every bot plays all its games, no identity sits twice in a game,
# and every game is stored and rated once.
#
#   tests/e2e/matchmaker_failure_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: matchmaker_failure_test.sh BUILD_DIR}" && pwd)
cd "$(dirname "$0")/../.."
work=$(mktemp -d "${TMPDIR:-/tmp}/mm-failure.XXXXXX")
chmod 755 "$work"
export METROPOLIS_STACK_DIR=$work/stack
cleanup() {
  deploy/local/stack.sh down >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "matchmaker_failure_test: FAILED: $*" >&2
  tail -n 5 "$METROPOLIS_STACK_DIR"/logs/*.log "$METROPOLIS_STACK_DIR"/demo/*.err >&2 || true
  exit 1
}

METROPOLIS_MATCHMAKERS=2 deploy/local/stack.sh up "$build" || fail "the stack did not start"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
scripts/ladder_demo.sh --bots 8 --games 4 --matchmakers "$METROPOLIS_MATCHMAKER2,$METROPOLIS_MATCHMAKER" \
  >"$work/demo.log" 2>&1 &
demo=$!
# Kill mm2 once the first games are over, while bots are queueing again.
for _ in $(seq 1 300); do
  n=$(cat "$METROPOLIS_STACK_DIR"/demo/*.out 2>/dev/null | grep -c "game over" || true)
  ((n >= 4)) && break
  sleep 0.1
done
kill -KILL "$(cat "$METROPOLIS_STACK_DIR/matchmaker2.pid")"
echo "matchmaker_failure_test: killed matchmaker 2 after $n seats' games"
wait "$demo" || { cat "$work/demo.log" >&2; fail "the ladder was not played to its end"; }

for out in "$METROPOLIS_STACK_DIR"/demo/*.out; do
  n=$(grep -c "game over" "$out" || true)
  [[ $n == 4 ]] || fail "$(basename "$out" .out) played $n games, not 4"
done
sql() { psql "$METROPOLIS_PG" -Atc "$1"; }
games=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")
for _ in $(seq 1 100); do
  [[ $(sql "SELECT count(*) FROM rated_games") == "$games" ]] && break
  sleep 0.1
done
[[ $(sql "SELECT count(*) FROM rated_games") == "$games" ]] || fail "not every game was rated"
twice=$(sql "SELECT count(*) FROM (SELECT game_id, identity_id FROM game_seats WHERE identity_id IS NOT NULL
             GROUP BY 1, 2 HAVING count(*) > 1) x")
[[ $twice == 0 ]] || fail "an identity holds two seats of one game"
retried=$(cat "$METROPOLIS_STACK_DIR"/demo/*.err | grep -c "queueing again" || true)
echo "matchmaker_failure_test: passed ($games games; bots queued again $retried times)"
