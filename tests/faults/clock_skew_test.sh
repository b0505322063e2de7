#!/usr/bin/env bash
# Matchmaker replicas whose clocks disagree by a minute (label faults;
# docs/FAILURES.md, "Clocks that disagree"). The stack runs two matchmakers on one
# Redis, the second with libfaketime a minute ahead; 16 bots alternate between
# them and play a ladder. Each replica judges tickets, hosts and claims the other
# wrote. On Redis's clock (the scripts read TIME) both judge alike: every bot plays
# all its games, none is void, each stored game is exactly what its seats saw,
# stored and rated once (the checker), no live ticket expires, the host is never
# taken for full, and the replica ahead takes part (it forms tables). On the
# replicas' own clocks the one ahead expires the other's live tickets, takes the
# host for gone, and may release tables the other is still placing. Both replicas
# run the ladder's rounds (--share-ladders 0): sharing the ladders out would leave
# the one ladder to one of them, and the other would judge nothing of it.
# protection: one_clock   (tests/faults/run.sh --negative switches it off)
#
#   tests/faults/clock_skew_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
# shellcheck source=tests/faults/lib/lost_writes.sh
source "$(dirname "$0")/lib/lost_writes.sh"
stack_test_begin clock_skew_test "${1:-}"
# libfaketime (the faketime package), preloaded into the replica itself (the
# faketime command would run it as its child, out of the stack's reach). It fakes
# the replica's every clock, realtime and monotonic alike, as a machine whose clock
# is set wrong shows them.
faketime_lib=$(compgen -G "/usr/lib/*/faketime/libfaketimeMT.so.1" | head -1 || true)
[[ -n $faketime_lib ]] || fail "libfaketime is missing (scripts/setup.sh installs faketime)"
skewed=(env "LD_PRELOAD=$faketime_lib" FAKETIME=+60s)
ahead=$(($(date -d "$("${skewed[@]}" date -Iseconds)" +%s) - $(date +%s)))
((ahead >= 55)) || fail "libfaketime does not move the clock ($ahead s)"
stack_up METROPOLIS_MATCHMAKERS=2 METROPOLIS_MATCHMAKER2_WRAPPER="${skewed[*]}" \
  METROPOLIS_MATCHMAKER_FLAGS="--share-ladders 0"
mm2=$(cat "$METROPOLIS_STACK_DIR/matchmaker2.pid")
tr '\0' '\n' <"/proc/$mm2/environ" | grep -q '^LD_PRELOAD=.*faketime' ||
  fail "the second matchmaker does not run with libfaketime"

start_ladder_demo 16 2
expect_no_void "clocks a minute apart"
# The violations below are counted once the bots are done, played or not.
demo_status=0
wait "$demo" || demo_status=$?
# What disagreeing clocks leave behind, each a violation: tickets expired while
# their bots were polling them (the bots queue again, so they still play), a
# replica that found no host with room while the one host had plenty, and games
# nobody joined or claims that lapsed (tables released while being placed).
violations=0
violation() { echo "VIOLATION $1"; violations=$((violations + 1)); }
expired=$(metric_sum metropolis_matchmaker_tickets_expired_total)
((expired == 0)) || violation "expired: $expired live tickets expired by a replica"
nohost=$(cat "$METROPOLIS_STACK_DIR"/logs/matchmaker*.log | grep -c "no game host has room" || true)
((nohost == 0)) || violation "no_host: $nohost tables found no host with room, while the host had plenty"
unjoined=$(cat "$METROPOLIS_STACK_DIR"/logs/gamehost*.log | grep -c 'reason="nobody joined"' || true)
lapsed=$(cat "$METROPOLIS_STACK_DIR"/logs/matchmaker*.log | grep -c "claim lapsed" || true)
((unjoined + lapsed == 0)) || violation "tables: $unjoined games nobody joined, $lapsed claims lapsed"
((violations == 0)) || fail "replicas a minute apart disagreed ($violations kinds of violation)"
((demo_status == 0)) || { cat "$work/demo.log" >&2; fail "the ladder was not played to its end"; }
# expect_demo_played's checks, on the demo that has ended.
expect_games_per_bot 2
expect_all_rated
expect_no_identity_twice
expect_games_as_played open
expect_rated_once
expect_checked --ladder open --every-game-recorded --games-per-bot 2
stored=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")
formed=$(curl -sf --max-time 5 "http://$(metrics_of matchmaker2)/metrics" |
  awk 'index($1, "metropolis_matchmaker_tables_formed_total") == 1 { s += $NF } END { printf "%d", s }')
((formed > 0)) || fail "the replica a minute ahead formed no table: it took no part"
echo "clock_skew_test: passed ($stored games stored, each as its seats saw it, rated once;" \
  "the replica a minute ahead formed $formed tables)"
echo "clock_skew_test: $(protections_report)"
