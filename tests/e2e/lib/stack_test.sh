# shellcheck shell=bash
# What the stack's end-to-end tests share: a throwaway stack folder, the stack
# brought down and the folder removed on exit, a failure report with the
# services' last log lines, and checks over the stored games.
#
#   source tests/e2e/lib/stack_test.sh
#   stack_test_begin NAME BUILD_DIR     # sets $build, $work, METROPOLIS_STACK_DIR; cd to the repository
#   fail "what went wrong"

# shellcheck disable=SC2034 # build and work are for the test that sources this
stack_test_begin() {
  test_name=$1
  build=$(cd "${2:?usage: $test_name BUILD_DIR}" && pwd)
  cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 1
  work=$(mktemp -d "${TMPDIR:-/tmp}/$test_name.XXXXXX")
  chmod 755 "$work"
  export METROPOLIS_STACK_DIR=$work/stack
  trap stack_test_end EXIT
}

# shellcheck disable=SC2317 # the EXIT trap
stack_test_end() {
  # METROPOLIS_KEEP_TEST_DIR=1 keeps the services' logs (in the test's folder) for a post-mortem.
  if [[ -n ${METROPOLIS_KEEP_TEST_DIR:-} ]]; then
    cp -r "$METROPOLIS_STACK_DIR/logs" "$work/logs" 2>/dev/null || true
    echo "$test_name: logs kept in $work/logs" >&2
  fi
  deploy/local/stack.sh down >/dev/null 2>&1 || true
  [[ -n ${METROPOLIS_KEEP_TEST_DIR:-} ]] || rm -rf "$work"
}

fail() {
  echo "$test_name: FAILED: $*" >&2
  tail -n 5 "$METROPOLIS_STACK_DIR"/logs/*.log "$METROPOLIS_STACK_DIR"/demo/*.err >&2 2>/dev/null || true
  exit 1
}

sql() { psql "$METROPOLIS_PG" -Atc "$1"; }

# Waits until every stored game of the stack is rated (the hosts hand games over
# asynchronously), then fails unless all are.
expect_all_rated() {
  local games
  games=$(sql "SELECT count(*) FROM games")
  for _ in $(seq 1 100); do
    [[ $(sql "SELECT count(*) FROM rated_games") == "$games" ]] && return 0
    sleep 0.1
  done
  fail "$(sql "SELECT count(*) FROM rated_games") of $games games rated"
}

# Fails if an identity holds two seats of one game.
expect_no_identity_twice() {
  local twice
  twice=$(sql "SELECT count(*) FROM (SELECT game_id, identity_id FROM game_seats WHERE identity_id IS NOT NULL
               GROUP BY 1, 2 HAVING count(*) > 1) x")
  [[ $twice == 0 ]] || fail "an identity holds two seats of one game"
}

# Fails unless every bot of the demo printed `n` finished games.
expect_games_per_bot() {
  local n=$1 out count
  for out in "$METROPOLIS_STACK_DIR"/demo/*.out; do
    count=$(grep -c "game over" "$out" || true)
    [[ $count == "$n" ]] || fail "$(basename "$out" .out) played $count games, not $n"
  done
}
