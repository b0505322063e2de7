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
metrics_of() { # NAME -> host:port of its metrics
  tr ' ' '\n' <<<"$METROPOLIS_METRICS_TARGETS" | sed -n "s/^$1=//p"
}
metric() { # ADDRESS NAME{labels} -> value (0 when absent)
  curl -s "http://$1/metrics" | awk -v m="$2" '$1 == m { v = $2 } END { print v + 0 }'
}
host1_metrics=$(metrics_of gamehost1)
host2_metrics=$(metrics_of gamehost2)

scripts/ladder_demo.sh --bots 40 --games 10 >"$work/ladder.log" 2>&1 &
ladder=$!

# The kill: once some games are stored and host 2 runs several.
killed=
for _ in $(seq 1 600); do
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
[[ $games == 100 ]] || fail "$games games stored, not 100"
expect_games_per_bot 10

# None lost: every game either host created is stored.
created=$(grep -ho 'msg="game created" game=[^ ]*' "$METROPOLIS_STACK_DIR"/logs/gamehost*.log |
  sed 's/.*game=//' | sort -u)
missing=0
for id in $created; do
  [[ $(sql "SELECT count(*) FROM games WHERE id = '$id'") == 1 ]] || { echo "lost: $id" >&2; missing=$((missing + 1)); }
done
((missing == 0)) || fail "$missing created games were never stored"
[[ $(wc -w <<<"$created") == "$games" ]] || fail "$(wc -w <<<"$created") games created, $games stored"
# None rated twice: one rating row per seat of each game.
twice=$(sql "SELECT count(*) FROM (SELECT game_id FROM rated_games GROUP BY 1 HAVING count(*) > 1) x")
[[ $twice == 0 ]] || fail "$twice games rated twice"

# The logs and metrics say what happened.
taken=$(grep -c 'msg="game taken over"' "$METROPOLIS_STACK_DIR/logs/gamehost1.log" || true)
((taken >= 1)) || fail "host 1 logged no takeover"
in=$(metric "$host1_metrics" 'metropolis_gamehost_takeovers_total{direction="in"}')
[[ ${in%.*} == "$taken" ]] || fail "host 1 counts $in takeovers and logged $taken"
grep -q "trying game host" "$METROPOLIS_STACK_DIR"/demo/*.err "$METROPOLIS_STACK_DIR"/demo/*.out 2>/dev/null ||
  fail "no bot reconnected to another host"
echo "host_takeover_test: passed (host 2 killed with $killed live games; host 1 took $taken over; $games games" \
  "stored and rated once each)"
