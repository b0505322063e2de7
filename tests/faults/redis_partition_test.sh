#!/usr/bin/env bash
# A game host cut off from Redis alone (label faults; docs/FAILURES.md, "A host cut
# off from Redis"). Two hosts checkpoint into Redis, host 2 through a loopback link
# the test cuts (tests/faults/lib/tcp_proxy.py; METROPOLIS_LINK_MODE=reject, the
# default, refuses connections as a firewall's REJECT does; =drop makes requests time
# out as a lost route does). 16 network search bots play 2 ladder games each. With
# games live on host 2, its link is cut until host 1 has taken one of them over,
# then healed. Host 2's games pause rather than play on unwritten steps; host 1
# takes them over when their leases lapse; host 2, fenced off once it reaches Redis
# again, stops and sends its seats there. The checker then requires that every seat
# saw exactly the stored game and no step went backwards, each game stored and rated
# once.
#
# protection: pause   (tests/faults/run.sh --negative switches it off: the checker fails)
#
#   tests/faults/redis_partition_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
# shellcheck source=tests/faults/lib/link.sh
source "$(dirname "$0")/lib/link.sh"
stack_test_begin redis_partition_test "${1:-}"

# Reject by default: a host that played on while cut off (the negative control) then
# plays at full speed, so what its seats saw differs from the stored game by many steps.
start_link "${METROPOLIS_LINK_MODE:-reject}"

stack_up METROPOLIS_GAMEHOSTS=2 METROPOLIS_LEASE_MS=3000 \
  METROPOLIS_GAMEHOST2_CHECKPOINT_REDIS="127.0.0.1:$(cat "$work/link.port")"
echo "$METROPOLIS_REDIS" >"$work/link.target"
kill -USR2 "$link" # the link starts cut: now it forwards

host1=$(metrics_of gamehost1)
host2=$(metrics_of gamehost2)
written_on_2() { (($(metric "$host2" 'metropolis_gamehost_checkpoint_writes_total{result="ok"}') >= 100)); }
live_on_2() { (($(metric "$host2" metropolis_gamehost_live_games) >= 1)) && written_on_2; }
taken_by_1() { (($(metric "$host1" 'metropolis_gamehost_takeovers_total{direction="in"}') >= 1)); }

# Search bots that think 15 ms a decision: a game lasts long enough for a cut to
# fall in its middle, and they play unlike the fallback bot that a takeover starts with.
start_ladder_demo 16 2 search:ms=15
# Until then, or the demo's end (ctest's timeout bounds the test).
while ! live_on_2 && kill -0 "$demo" 2>/dev/null; do sleep 0.1; done
live_on_2 || fail "host 2 never ran a game past its first steps while the ladder played"
live=$(metric "$host2" metropolis_gamehost_live_games)
kill -USR1 "$link"
echo "redis_partition_test: cut host 2 from Redis with $live live games"
wait_while_demo_plays taken_by_1
taken_by_1 || fail "host 1 took no game over while host 2 was cut off"
kill -USR2 "$link"
echo "redis_partition_test: healed the link after host 1 took $(metric "$host1" \
  'metropolis_gamehost_takeovers_total{direction="in"}') games over"

expect_demo_played 2
paused=$(grep -c 'msg="game paused' "$METROPOLIS_STACK_DIR/logs/gamehost2.log" || true)
((paused >= 1)) || fail "host 2 logged no pause"
out=$(metric "$host2" 'metropolis_gamehost_takeovers_total{direction="out"}')
((out >= 1)) || fail "host 2 counts no game taken from it"
! grep -q 'reason="store unavailable"' "$METROPOLIS_STACK_DIR"/logs/gamehost*.log ||
  fail "a game was void for an outage far shorter than the pause limit"
echo "redis_partition_test: passed ($live games live on host 2 at the cut, $paused paused, $out taken over;" \
  "$stored games stored, each as its seats saw it, rated once)"
