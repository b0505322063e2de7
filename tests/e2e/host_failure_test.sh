#!/usr/bin/env bash
# A game host that dies gets no new games (label e2e): the stack with two hosts;
# one is killed with SIGKILL; a ladder of 8 bots is then played to the end on the
# other, every game stored and rated once.
#
#   tests/e2e/host_failure_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin host_failure_test "${1:-}"

METROPOLIS_GAMEHOSTS=2 deploy/local/stack.sh up "$build" || fail "the stack did not start"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
ctl() { "$build/tools/ctl/metropolisctl" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
hosts_known() {
  ctl --host "$METROPOLIS_MATCHMAKER" --json queue --ladder open 2>/dev/null |
    python3 -c 'import json, sys; print(len(json.load(sys.stdin).get("hosts", [])))' 2>/dev/null || echo 0
}
# The ladder first (queue needs one), then both hosts announced.
scripts/ladder_demo.sh --bots 4 --games 1 >/dev/null || fail "the warm-up game was not played"
for _ in $(seq 1 100); do [[ $(hosts_known) == 2 ]] && break; sleep 0.1; done
[[ $(hosts_known) == 2 ]] || fail "the matchmaker does not know both hosts"

dead=$(cat "$METROPOLIS_STACK_DIR/gamehost2.pid")
kill -KILL "$dead"
echo "host_failure_test: killed game host 2 (pid $dead)"
before=$(find "$METROPOLIS_STACK_DIR/gamehost2/completed" -name '*.json' 2>/dev/null | wc -l)
scripts/ladder_demo.sh --bots 8 --games 2 || fail "the ladder was not played to its end"
after=$(find "$METROPOLIS_STACK_DIR/gamehost2/completed" -name '*.json' 2>/dev/null | wc -l)
[[ $after == "$before" ]] || fail "the dead host finished games"
expect_all_rated
expect_no_identity_twice
expect_rated_once
# The second run overwrote the warm-up bots' output; their record files keep every
# game (appended), so the checker sees all of them.
expect_checked --ladder open --every-game-recorded
games=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")
on_host1=$(find "$METROPOLIS_STACK_DIR/gamehost1/completed" -name '*.json' | wc -l)
[[ $((on_host1 + before)) == "$games" ]] || fail "$games games stored, $on_host1 + $before finished on the hosts"
grep -q "creating a game failed" "$METROPOLIS_STACK_DIR"/logs/matchmaker*.log &&
  echo "host_failure_test: the matchmaker dropped the dead host after a failed CreateGame"
echo "host_failure_test: passed ($games games, the survivor played every game after the kill)"
