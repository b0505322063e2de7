#!/usr/bin/env bash
# Live games survive a game host's death (label e2e; docs/GAMEHOST.md,
# "Checkpoints and takeover"): the stack with two hosts checkpointing into Redis
# (append-only); 40 network bots play 100 ladder games; in the middle, with
# games live on both hosts, host 2 is killed with SIGKILL. Host 1 takes host 2's
# games over at their checkpointed step, the bots' seats reconnect to it, and:
# every game finishes, none is lost (every game either host created is stored),
# none is stored or rated twice, and the logs and metrics say what happened.
#
#   tests/e2e/host_takeover_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin host_takeover_test "${1:-}"

METROPOLIS_GAMEHOSTS=2 deploy/local/stack.sh up "$build" >/dev/null || fail "the stack did not start"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
host1_metrics=$(metrics_of gamehost1)
host2_metrics=$(metrics_of gamehost2)

scripts/ladder_demo.sh --bots 40 --games 10 >"$work/ladder.log" 2>&1 &
ladder=$!

# The kill: once some games are stored and host 2 runs several. Waited for as long as
# the ladder plays (ctest's timeout bounds it): on a loaded machine the first games
# take minutes.
killed=
while :; do
  kill -0 "$ladder" 2>/dev/null || break
  stored=$(sql "SELECT count(*) FROM games" 2>/dev/null || echo 0)
  live2=$(metric "$host2_metrics" metropolis_gamehost_live_games)
  if ((stored >= 10 && ${live2%.*} >= 3)); then
    dead=$(cat "$METROPOLIS_STACK_DIR/gamehost2.pid")
    kill -KILL "$dead"
    killed=$live2
    echo "host_takeover_test: killed game host 2 (pid $dead) with $live2 live games, $stored games stored"
    break
  fi
  sleep 0.2
done
[[ -n $killed ]] || { wait "$ladder" || true; fail "host 2 never ran 3 games at once while the ladder played"; }
wait "$ladder" || { cat "$work/ladder.log" >&2; fail "the ladder was not played to its end"; }

expect_all_rated
expect_no_identity_twice
games=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")
# 40 bots x 10 games fill at least 100 tables; when the delayed games leave a few
# bots behind at the end, the ladder seats house bots beside them after 20 s
# (--bots-after-ms), so a few more games are fine. What matters: every bot played
# its 10, and the stored games are exactly the ones the bots finished.
((games >= 100)) || fail "$games games stored, fewer than 100"
expect_games_per_bot 10
expect_games_as_played

# None lost: every game either host created is stored.
expect_rated_once
# Every game a host logged as created is stored or void, every stored game
# replays to its stored result, each seat saw exactly the stored game's events
# (across the takeover), each rated once.
expect_checked --ladder open --every-game-recorded --games-per-bot 10 --min-games 100

taken=$(grep -c 'msg="game taken over"' "$METROPOLIS_STACK_DIR/logs/gamehost1.log" || true)
((taken >= 1)) || fail "host 1 logged no takeover"
in=$(metric "$host1_metrics" 'metropolis_gamehost_takeovers_total{direction="in"}')
[[ ${in%.*} == "$taken" ]] || fail "host 1 counts $in takeovers and logged $taken"
grep -q "trying game host" "$METROPOLIS_STACK_DIR"/demo/*.err "$METROPOLIS_STACK_DIR"/demo/*.out 2>/dev/null ||
  fail "no bot reconnected to another host"
echo "host_takeover_test: passed (host 2 killed with $killed live games; host 1 took $taken over; $games games" \
  "stored and rated once each)"
