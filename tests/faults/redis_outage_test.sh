#!/usr/bin/env bash
# Redis down for longer than the lease while two game hosts run games (label faults;
# docs/FAILURES.md, "Redis down longer than the lease"). 16 network search bots play
# 2 ladder games each on two hosts. With games live on both, Redis is stopped for 3.5 s
# (the lease is 1.5 s) and started again from its append-only file, three times: on Redis's clock
# every lease lapsed meanwhile (Redis keeps an expiry as an absolute time), and no
# owner could renew. The hosts pause their games; when Redis is back, each owner
# renews its leases and plays on, because Redis refuses every takeover until it has
# served a whole lease since the outage. The test requires that no game moved
# between hosts, that games paused, and the checker (every seat saw exactly the
# stored game, no step went backwards, each game stored and rated once). A stall
# (SIGSTOP) is the same gap to Redis's clock; the unit tests cover it.
#
# protection: redis_clock   (tests/faults/run.sh --negative switches it off: games move)
#
#   tests/faults/redis_outage_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin redis_outage_test "${1:-}"

stack_up METROPOLIS_GAMEHOSTS=2 METROPOLIS_LEASE_MS=1500
redis_ctl=$METROPOLIS_STACK_DIR/services/redis-ctl.sh
[[ -x $redis_ctl ]] || fail "the stack wrote no Redis control script ($redis_ctl)"

host1=$(metrics_of gamehost1)
host2=$(metrics_of gamehost2)
live() { metric "$1" metropolis_gamehost_live_games; }
writes() { metric "$1" 'metropolis_gamehost_checkpoint_writes_total{result="ok"}'; }
moved() { metric_sum 'metropolis_gamehost_takeovers_total{direction="in"}'; }
# Games live on both hosts, each host past `$1` writes.
ready() {
  (($(live "$host1") >= 1 && $(live "$host2") >= 1)) &&
    (($(writes "$host1") >= $1 && $(writes "$host2") >= $1))
}

# Search bots that think 15 ms a decision; enough of them for several tables a host.
start_ladder_demo 16 2 search:ms=15
# Three outages: each lets the first host back race the other's renewals once.
live_at=()
for outage in 1 2 3; do
  floor=$((($(writes "$host1") > $(writes "$host2") ? $(writes "$host1") : $(writes "$host2")) + 50))
  while ! ready "$floor" && kill -0 "$demo" 2>/dev/null; do sleep 0.1; done
  ready "$floor" || fail "outage $outage: the hosts never both ran a game past its first steps"
  live_at+=($(($(live "$host1") + $(live "$host2"))))
  "$redis_ctl" stop || fail "Redis did not stop"
  echo "redis_outage_test: outage $outage: stopped Redis with ${live_at[-1]} live games; starting it again in 3.5 s" \
    "(the lease is 1.5 s)"
  sleep 3.5
  "$redis_ctl" start || fail "Redis did not start again"
done

expect_demo_played 2
paused=$(cat "$METROPOLIS_STACK_DIR"/logs/gamehost*.log | grep -c 'msg="game paused' || true)
((paused >= 1)) || fail "no host logged a pause while Redis was down"
n=$(moved)
if ((n > 0)); then
  # What this test guards, beyond the checker: reported as the checker reports.
  echo "VIOLATION moved: $n games moved to the other host after the outage (their owners could renew)"
  fail "$n games moved to the other host after the outage"
fi
! grep -q 'reason="store unavailable"' "$METROPOLIS_STACK_DIR"/logs/gamehost*.log ||
  fail "a game was void for an outage far shorter than the pause limit"
echo "redis_outage_test: passed (${live_at[*]} games live at the outages, $paused paused, none moved;" \
  "$stored games stored, each as its seats saw it, rated once)"
