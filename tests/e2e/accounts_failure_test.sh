#!/usr/bin/env bash
# metropolis-accounts killed in the middle of a ladder (label e2e): the stack, 4
# bots queued for 12 games each (the ladder outlasts the outage: the demo's last
# leaderboard read needs Accounts), and Accounts killed with SIGKILL once the first
# games are over. While it is down, a token the ratings service checked a moment
# ago still reads (its cache answers), and a token it never saw is refused with
# UNAVAILABLE, never as unknown; the ratings service counts the lookup that could
# not be answered. Accounts started again (as stack.sh starts a crashed service),
# that token reads again (how soon is logged: the channels' reconnect cap itself is
# tested in lib/common/tests/reconnect_test.cc), and every bot plays all its games,
# each stored and rated once.
#
#   tests/e2e/accounts_failure_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin accounts_failure_test "${1:-}"

stack_up METROPOLIS_MATCHMAKERS=1
admin() { "$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" "$@"; }
token_of() { python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'; }
admin create-player reader >/dev/null
seen=$(admin --json issue-token reader --label seen | token_of)
fresh=$(admin --json issue-token reader --label fresh | token_of)
leaderboard() {  # token: the ratings service's leaderboard of the open ladder, read with it
  "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_RATINGS" --token "$1" --timeout-ms 5000 \
    leaderboard --ladder open >"$work/read.out" 2>&1
}

start_ladder_demo 4 12
first_game_over() { (($(seats_over) >= 4)); }
wait_while_demo_plays first_game_over
leaderboard "$seen" || fail "a valid token did not read with Accounts up: $(cat "$work/read.out")"
kill -KILL "$(cat "$METROPOLIS_STACK_DIR/accounts.pid")"
echo "accounts_failure_test: killed metropolis-accounts after $(seats_over) seats' games"

leaderboard "$seen" || fail "a token checked a moment ago did not read with Accounts down: $(cat "$work/read.out")"
status=0
leaderboard "$fresh" || status=$?
{ [[ $status == 1 ]] && grep -q UNAVAILABLE "$work/read.out"; } ||
  fail "a token never seen, with Accounts down: exit $status, $(cat "$work/read.out") (expected UNAVAILABLE)"
ratings_metrics=$(echo "$METROPOLIS_METRICS_TARGETS" | tr ' ' '\n' | sed -n 's/^ratings=//p')
unavailable=$(curl -sf "http://$ratings_metrics/metrics" |
  awk '$1 ~ /^metropolis_auth_token_checks_total\{result="unavailable"\}/ { s += $2 } END { print s + 0 }')
((unavailable >= 1)) || fail "ratings counted $unavailable token checks Accounts could not answer"

# Down for 8 s, while the bots play on with the tokens the matchmaker remembers.
sleep 8
deploy/local/stack.sh start accounts >/dev/null || fail "metropolis-accounts did not start again"
# The services' channels to Accounts retry every second at most (gRPC's own backoff
# grows to 2 minutes over a long outage), so the fresh token reads again about a
# second after Accounts is back. How soon is logged, not asserted: a busy machine
# may take longer, and only "never" is a failure here (60 s).
back=$(date +%s%N)
until leaderboard "$fresh"; do
  (($(date +%s%N) - back < 60000000000)) || break
  sleep 0.1
done
leaderboard "$fresh" || fail "the fresh token did not read within 60 s of Accounts being back: $(cat "$work/read.out")"
echo "accounts_failure_test: the fresh token read $((($(date +%s%N) - back) / 1000000)) ms after Accounts was started again"

expect_demo_played 12
echo "accounts_failure_test: passed ($stored games; a cached token read and an unseen one was UNAVAILABLE" \
  "while Accounts was down; $unavailable unanswered lookups counted)"
