#!/usr/bin/env bash
# PostgreSQL or Redis restarted in the middle of a ladder (label e2e): the stack
# with two matchmakers; 8 bots queue for 10 games each; once some games are over,
# the store is stopped for a few seconds and started again on its port with its
# data (Redis with its append-only file). Checked:
#
#   - a call that needs the store fails with UNAVAILABLE while it is down, and
#     works again once it is back, with nothing restarted but the store;
#   - new games are created after the restart, and every bot plays all its games;
#   - the stored games are exactly the games the bots finished, each stored once,
#     each rated once (none lost, none counted twice), as many as the host finished;
#   - the services' logs say the store was lost and restored, and their metrics
#     count the failures (metropolis_database_errors_total, metropolis_redis_errors_total).
#
#   tests/e2e/storage_restart_test.sh postgres|redis BUILD_DIR [--down SECONDS]
set -euo pipefail
case ${1:-} in
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  postgres | redis) store=$1 ;;
  *) echo "usage: $0 postgres|redis BUILD_DIR [--down SECONDS] (see --help)" >&2; exit 2 ;;
esac
down=4
[[ ${3:-} == --down ]] && down=${4:?--down takes seconds}
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin "${store}_restart_test" "${2:-}"
say() { echo "$test_name: $*"; }

stack_up METROPOLIS_MATCHMAKERS=2
export METROPOLIS_SERVICES_DIR=$METROPOLIS_STACK_DIR/services
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh
ctl() { "$build/tools/ctl/metropolisctl" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
# A call that needs the store: stored games read PostgreSQL (replays), the queue
# reads Redis (matchmaker).
probe() {
  if [[ $store == postgres ]]; then
    ctl --host "$METROPOLIS_REPLAYS" stored-games --ladder open --limit 1
  else
    ctl --host "$METROPOLIS_MATCHMAKER" queue --ladder open
  fi
}
# Stop the store only once the demo has issued every bot's token (the admin tool
# needs PostgreSQL) and all its bots queue: what is tested is the services riding
# out the restart, not the demo's own set-up.
some_over() { grep -q "bots queue on" "$work/demo.log" && (($(seats_over) >= 8)); }
created() { cat "$METROPOLIS_STACK_DIR"/logs/matchmaker*.log | grep -c 'msg="game created"' || true; }

bots=8 games=10
start_ladder_demo $bots $games
wait_while_demo_plays some_over
some_over || { cat "$work/demo.log" >&2; fail "no games were over before the restart"; }
[[ $store == redis ]] && redis-cli -h "${METROPOLIS_REDIS%:*}" -p "${METROPOLIS_REDIS#*:}" set metropolis:restart-test kept >/dev/null
say "$(seats_over) seats' games over, $(created) games created; stopping $store for $down s"
"$METROPOLIS_SERVICES_DIR/$([[ $store == postgres ]] && echo pg || echo redis)-ctl.sh" stop || fail "$store did not stop"
stopped_at=$(date +%s.%N)
sleep 1
probe >"$work/probe.out" 2>"$work/probe.err" && fail "a call that needs $store succeeded while it was down"
grep -q UNAVAILABLE "$work/probe.err" || fail "a call while $store was down did not fail with UNAVAILABLE: $(cat "$work/probe.err")"
sleep $((down - 1))
"$METROPOLIS_SERVICES_DIR/$([[ $store == postgres ]] && echo pg || echo redis)-ctl.sh" start || fail "$store did not start again"
started_at=$(date +%s.%N)
created_at_restart=$(created)
over_at_restart=$(seats_over)
recovered=""
for _ in $(seq 1 300); do
  if probe >/dev/null 2>&1; then recovered=$(date +%s.%N); break; fi
  sleep 0.1
done
[[ -n $recovered ]] || fail "calls that need $store still fail 30 s after it came back"
say "$store back; calls work again $(awk -v a="$started_at" -v b="$recovered" 'BEGIN { printf "%.1f", b - a }') s later"
if [[ $store == redis ]]; then
  kept=$(redis-cli -h "${METROPOLIS_REDIS%:*}" -p "${METROPOLIS_REDIS#*:}" get metropolis:restart-test)
  [[ $kept == kept ]] || fail "Redis lost its data in the restart (is the append-only file on?)"
fi

expect_demo_played $games
finished=$(find "$METROPOLIS_STACK_DIR/gamehost1/completed" -name '*.json' | wc -l)
[[ $finished == "$stored" ]] || fail "the host finished $finished games, $stored are stored"
created_after=$(($(created) - created_at_restart))
((created_after > 0)) || fail "no game was created after $store came back"
(($(seats_over) > over_at_restart)) || fail "no game finished after $store came back"

# What the logs and metrics say.
if [[ $store == postgres ]]; then
  lost="database connection lost" restored="database connection restored" metric=metropolis_database_errors_total
else
  lost="redis connection lost" restored="redis connection restored" metric=metropolis_redis_errors_total
fi
[[ -n $(log_count "$lost") ]] || fail "no service logged '$lost'"
[[ -n $(log_count "$restored") ]] || fail "no service logged '$restored'"
errors=$(metric_sum $metric)
((errors > 0)) || fail "$metric is 0 on every service"
retried=$(cat "$METROPOLIS_STACK_DIR"/demo/*.err | grep -c "queueing again" || true)

echo
echo "| $store down at $(date -u -d "@${stopped_at%.*}" +%T), for $down s | |"
echo "|---|---|"
echo "| games stored / finished by the host / rated | $stored / $finished / $(sql "SELECT count(*) FROM rated_games WHERE rated") |"
echo "| games created after the restart | $created_after |"
echo "| \`$metric\` (all services) | $errors |"
echo "| '$lost' logged by | $(log_count "$lost" | paste -sd, | sed 's/,/, /g') |"
echo "| '$restored' logged by | $(log_count "$restored" | paste -sd, | sed 's/,/, /g') |"
echo "| bots' queueing again | $retried |"
echo
say "passed"
