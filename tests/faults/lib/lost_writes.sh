# shellcheck shell=bash
# What the fault tests that make Redis lose acknowledged writes (redis_aof,
# redis_failover) check at the end, for tests that source tests/e2e/lib/stack_test.sh
# and run a ladder demo ($demo).

# Waits for the ladder to end (at most 3 minutes), and fails with the test's own
# violation — reported as the checker reports — if any game was void for another
# reason than "nobody joined": a game lost to the fault (paused past the limit, or a
# seat that saw steps the store lost). $1 names the fault ("the crash").
# shellcheck disable=SC2154 # $demo: start_ladder_demo sets it
expect_no_void() {
  local n
  voids() { cat "$METROPOLIS_STACK_DIR"/logs/gamehost*.log | grep 'msg="game void"' | grep -v 'reason="nobody joined"'; }
  for _ in $(seq 1 1800); do
    kill -0 "$demo" 2>/dev/null || break
    voids | grep -q . && break
    sleep 0.1
  done
  n=$(voids | grep -c . || true)
  if ((n > 0)); then
    echo "VIOLATION void: $n games void after $1:"
    voids | head -5
    fail "$n games void after $1"
  fi
  kill -0 "$demo" 2>/dev/null && fail "the ladder did not finish within 3 minutes of $1"
  return 0
}

# What the protections did in this run (each may be 0: the fault lands anywhere).
protections_report() {
  _count() { cat "$METROPOLIS_STACK_DIR"/logs/"$1"*.log | grep -c "$2" || true; }
  echo "checkpoints written again $(_count gamehost 'writing them again\|writing it again whole')," \
    "seats given again $(_count matchmaker 'player given again')," \
    "finished seats not resumed $(_count matchmaker 'seat not resumed')"
}
