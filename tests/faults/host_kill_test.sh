#!/usr/bin/env bash
# A game host killed with finished games it has not delivered yet (label faults;
# docs/FAILURES.md, "A game host killed with games in its outbox"). Two hosts
# checkpoint into Redis; 16 network search bots play 2 ladder games each. The
# replays service is stalled (SIGSTOP) once host 2 plays, so the games that end
# wait in the hosts' outboxes (DATA_DIR/outbox/*.pb, metropolis_gamehost_outbox_backlog).
# With at least one finished game in host 2's outbox and one live, host 2 gets
# SIGKILL and is not started again: its disk is gone with it, as a pod's whose node
# died. Host 1 must take over host 2's live games and its finished, undelivered ones
# (their checkpoints stay in Redis until the replays service holds them) and store
# them. Then replays resumes and the ladder plays to its end. The test requires
# every game of host 2's outbox stored (its own VIOLATION lines otherwise) and the
# checker: every game a seat saw end stored once, exactly as its seats saw it, and
# rated once; every game created stored or void.
#
# It found a defect, fixed since: a game host 1 took over finished was stored with
# host 1's clock at the takeover as its finish time, so its players' next game
# looked as if it began while this one still ran (checker: "identity at two tables
# at once"); the finish time is now written with the game's last step.
#
# protection: keep_until_delivered   (tests/faults/run.sh --negative switches it off:
#                                     a host drops a game's checkpoint as soon as the
#                                     game is in its local outbox, and the games in
#                                     the dead host's outbox are lost)
#
#   tests/faults/host_kill_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin host_kill_test "${1:-}"

stack_up METROPOLIS_GAMEHOSTS=2 METROPOLIS_LEASE_MS=3000
replays=$(cat "$METROPOLIS_STACK_DIR/replays.pid")
# A stalled replays service must not outlive the test: the stack's "down" asks it to stop.
# shellcheck disable=SC2317 # the EXIT trap
end_host_kill_test() {
  kill -CONT "$replays" 2>/dev/null || true
  stack_test_end
}
trap end_host_kill_test EXIT

host1=$(metrics_of gamehost1)
host2=$(metrics_of gamehost2)
host2_addr=$(awk '{ print $2 }' <<<"$METROPOLIS_GAMEHOST_ADDRS")
outbox2=$METROPOLIS_STACK_DIR/gamehost2/outbox
rcli() { redis-cli -h "${METROPOLIS_REDIS%:*}" -p "${METROPOLIS_REDIS##*:}" "$@" 2>/dev/null | tr -d '\r'; }
live() { metric "$1" metropolis_gamehost_live_games; }
backlog() { metric "$1" metropolis_gamehost_outbox_backlog; }
taken_in() { metric "$host1" 'metropolis_gamehost_takeovers_total{direction="in"}'; }
# Host 2 plays: a game live past its first checkpoint writes.
playing_on_2() {
  (($(live "$host2") >= 1 && $(metric "$host2" 'metropolis_gamehost_checkpoint_writes_total{result="ok"}') >= 50))
}
# What the kill needs: a finished game waiting in host 2's outbox and one live.
ready() { (($(backlog "$host2") >= 1 && $(live "$host2") >= 1)); }
# Games whose checkpoint host 2 holds in Redis (owner "FENCE HOST").
held_by_2() {
  local id
  for id in $(rcli smembers gh:live); do
    [[ $(rcli get "gh:{$id}:owner") == *" $host2_addr" ]] && echo "$id"
  done
  return 0
}

start_ladder_demo 16 2 search:ms=15
while ! playing_on_2 && kill -0 "$demo" 2>/dev/null; do sleep 0.1; done
playing_on_2 || fail "host 2 never played a game while the ladder played"
kill -STOP "$replays"
echo "host_kill_test: replays stalled (SIGSTOP) with $(live "$host2") games live on host 2"
wait_while_demo_plays ready
ready || fail "host 2 never had a finished game in its outbox and one live at once (backlog" \
  "$(backlog "$host2"), live $(live "$host2"))"

kill -KILL "$(cat "$METROPOLIS_STACK_DIR/gamehost2.pid")"
outbox_ids=$(find "$outbox2" -maxdepth 1 -name '*.pb' -printf '%f\n' | sed 's/\.pb$//' | sort)
held=$(held_by_2 | sort)
live_at_kill=$(comm -23 <(echo "$held") <(echo "$outbox_ids") | grep -c . || true)
outbox_at_kill=$(echo "$outbox_ids" | grep -c . || true)
# Its disk is gone with it: nothing of host 2 is delivered by anyone but host 1.
rm -rf "$METROPOLIS_STACK_DIR/gamehost2"
echo "host_kill_test: killed host 2 (SIGKILL, not restarted, its data removed) with $outbox_at_kill" \
  "finished games in its outbox and $live_at_kill live; $(echo "$held" | grep -c . || true) checkpoints in Redis are host 2's"
((outbox_at_kill >= 1)) || fail "host 2's outbox was empty at the kill"

# Host 1 takes over what Redis holds of host 2 (a lease, 3 s, after the kill), while
# replays still stalls: the finished games go to host 1's outbox. Then replays resumes.
want=$(echo "$held" | grep -c . || true)
for _ in $(seq 1 150); do
  (($(taken_in) >= want)) && break
  sleep 0.1
done
echo "host_kill_test: host 1 took over $(taken_in) games ($want of host 2's in Redis); replays resumes"
kill -CONT "$replays"

wait "$demo" || { cat "$work/demo.log" >&2; fail "the ladder was not played to its end"; }
# Until every checkpoint is gone (each game stored and delivered) and host 1's outbox is empty.
settled() { [[ $(rcli scard gh:live) == 0 ]] && (($(live "$host1") == 0 && $(backlog "$host1") == 0)); }
for _ in $(seq 1 300); do settled && break; sleep 0.1; done
settled || echo "host_kill_test: after 30 s, $(rcli scard gh:live) checkpoints remain and host 1's outbox holds" \
  "$(backlog "$host1") games"

# The test's own check, beyond the checker's: every game of host 2's outbox is stored.
lost=0
for id in $outbox_ids; do
  if [[ $(sql "SELECT count(*) FROM games WHERE id = '$id'") != 1 ]]; then
    echo "VIOLATION outbox game lost game=$id: in host 2's outbox when it was killed, never stored"
    lost=$((lost + 1))
  fi
done
# The checker first, so that a failing run shows what it found; then the ladder's own checks.
expect_all_rated
expect_checked --ladder open --every-game-recorded --games-per-bot 2
((lost == 0)) || fail "$lost of the $outbox_at_kill games in host 2's outbox were lost"
expect_games_per_bot 2
expect_no_identity_twice
expect_games_as_played open
expect_rated_once
stored=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")

taken=$(grep -c 'msg="game taken over"' "$METROPOLIS_STACK_DIR/logs/gamehost1.log" || true)
((taken >= want)) || fail "host 1 logged $taken takeovers, fewer than host 2's $want checkpoints"
failures=$(curl -s "http://$host1/metrics" |
  awk 'index($1, "metropolis_gamehost_outbox_delivery_failures_total{") == 1 { s += $2 } END { printf "%d", s }')
echo "host_kill_test: passed (host 2 killed with $outbox_at_kill undelivered and $live_at_kill live games;" \
  "host 1 took $taken over; $stored games stored, each as its seats saw it, rated once; host 1's failed" \
  "deliveries while replays stalled: $failures)"
