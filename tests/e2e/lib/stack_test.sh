# shellcheck shell=bash
# What the stack's end-to-end tests share: a throwaway stack folder, the stack
# brought down and the folder removed on exit, a failure report with the
# services' last log lines, and checks over the stored games.
#
#   source tests/e2e/lib/stack_test.sh
#   stack_test_begin NAME BUILD_DIR     # sets $build, $work, METROPOLIS_STACK_DIR; cd to the repository
#   stack_up [VAR=VALUE...]             # deploy/local/stack.sh up with VARs; sources its stack.env
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
  # A command that fails outside a check (set -e) ends the test: say which, and where
  # (errtrace: in the helpers' functions too).
  set -E
  trap 'echo "$test_name: FAILED: line $LINENO: \"$BASH_COMMAND\" exited $?" >&2' ERR
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

# Keeps the stack's logs, the bots' output and the completed games' files in
# BUILD_DIR/test-artifacts/NAME/ for a look after the test has cleaned up.
fail() {
  echo "$test_name: FAILED: $*" >&2
  tail -n 5 "$METROPOLIS_STACK_DIR"/logs/*.log "$METROPOLIS_STACK_DIR"/demo/*.err >&2 2>/dev/null || true
  local keep=$build/test-artifacts/$test_name
  rm -rf "$keep" && mkdir -p "$keep"
  # A stack without the demo's bots has no demo/: copy what there is.
  cp -r "$METROPOLIS_STACK_DIR"/logs "$METROPOLIS_STACK_DIR"/demo "$METROPOLIS_STACK_DIR"/gamehost* "$keep/" 2>/dev/null ||
    true
  echo "$test_name: logs kept in $keep" >&2
  exit 1
}

sql() { psql "$METROPOLIS_PG" -Atc "$1"; }

# Bots competing in tournaments (metropolis-bot --compete, random play):
#   start_compete_bots PREFIX N MATCHMAKER CAPACITY [SESSIONS]
# creates the player "owner" and its bots PREFIX1 … PREFIXN, each with an API token
# (appended to bot_tokens), and starts them on MATCHMAKER, each recording every
# message it receives in $work/bots/PREFIX<i>.record; their pids go to bot_pids.
start_compete_bots() {
  local prefix=$1 n=$2 matchmaker=$3 capacity=$4 sessions=${5:-1} i token
  local admin=("$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG")
  "${admin[@]}" create-player owner >/dev/null
  mkdir -p "$work/bots"
  for i in $(seq 1 "$n"); do
    "${admin[@]}" create-bot "$prefix$i" --owner owner >/dev/null
    token=$("${admin[@]}" --json issue-token "$prefix$i" --label e2e |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
    bot_tokens+=("$token")
    "$build/botkits/cpp/metropolis-bot" --compete --matchmaker "$matchmaker" --api-token "$token" --bot random \
      --capacity "$capacity" --sessions "$sessions" --record "$work/bots/$prefix$i.record" \
      >"$work/bots/$prefix$i.out" 2>"$work/bots/$prefix$i.err" &
    bot_pids+=($!)
  done
}
stop_compete_bots() {
  local pid
  for pid in "${bot_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}

# The stack, started with the VAR=VALUEs given in its environment (its output in
# $work/up.log, shown if it fails to start), and its addresses read from stack.env.
stack_up() {
  env "$@" deploy/local/stack.sh up "$build" >"$work/up.log" || { cat "$work/up.log" >&2; fail "the stack did not start"; }
  # shellcheck source=/dev/null
  source "$METROPOLIS_STACK_DIR/stack.env"
}

# The ladder "open" (4 seats, 2 placement games) and scripts/ladder_demo.sh's BOTS
# bots queued on it for GAMES games each, in the background: $demo is its pid, its
# output in $work/demo.log. Built-in bots fill a table after 2 s, not 20: bots
# that finish their games early leave fewer than four in the queue at the end.
# shellcheck disable=SC2034 # demo is for the test that sources this
start_ladder_demo() {  # bots games [bot spec, default heuristic]
  "$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" create-ladder open --title "Open" --seats 4 \
    --placement-games 2 --bots-after-ms 2000 >/dev/null
  "$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" create-season open >/dev/null
  scripts/ladder_demo.sh --bots "$1" --games "$2" --bot "${3:-heuristic}" >"$work/demo.log" 2>&1 &
  demo=$!
}

# Waits, 3 minutes at most, until COMMAND ARGS... succeeds or the demo has ended;
# the test then checks what it waited for. The bound is for a demo that hangs, not
# for a slow machine: waiting costs nothing when the moment comes early.
wait_while_demo_plays() {  # command args...
  for _ in $(seq 1 1800); do
    "$@" && return 0
    kill -0 "$demo" 2>/dev/null || return 0
    sleep 0.1
  done
}

# Seats' games over so far: each of the demo's bots prints "game over" for each of its games.
seats_over() { cat "$METROPOLIS_STACK_DIR"/demo/*.out 2>/dev/null | grep -c "game over" || true; }

# Waits for the demo to end, then fails unless each of its bots played GAMES games
# and the open ladder stores exactly their games, each rated once; sets $stored,
# the stored games' count.
# shellcheck disable=SC2034 # stored is for the test that sources this
expect_demo_played() {  # games
  wait "$demo" || { cat "$work/demo.log" >&2; fail "the ladder was not played to its end"; }
  expect_games_per_bot "$1"
  expect_all_rated
  expect_no_identity_twice
  expect_games_as_played open
  expect_rated_once
  expect_checked --ladder open --every-game-recorded --games-per-bot "$1"
  stored=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")
}

# Waits until every stored game of the stack is rated (the hosts hand games over
# asynchronously, and retry with a growing back-off after a failed delivery), a
# minute at most, then fails unless all are.
expect_all_rated() {
  local games
  games=$(sql "SELECT count(*) FROM games")
  for _ in $(seq 1 600); do
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

# Fails unless the games the demo's bots say they finished ("game over: game=ID")
# are exactly the stored games of the ladder (default open): none lost, none stored
# that no bot played, each stored once (games.id is the primary key).
expect_games_as_played() {
  local ladder=${1:-open} played stored
  played=$(cat "$METROPOLIS_STACK_DIR"/demo/*.out | sed -n 's/.*game over: game=\([^ ]*\).*/\1/p' | sort -u)
  stored=$(sql "SELECT id FROM games WHERE ladder_id = '$ladder'" | sort)
  [[ -n $played ]] || fail "the bots finished no game"
  [[ $played == "$stored" ]] ||
    fail "stored games differ from the games the bots finished: $(comm -3 <(echo "$played") <(echo "$stored") | tr -s ' \t\n' ' ')"
}

# Fails unless every rated seat changed one rating once: one rating_history row per
# rated identity seat, and every rating counts as many games as its history rows.
expect_rated_once() {
  local seats history wrong
  seats=$(sql "SELECT count(*) FROM game_seats s JOIN rated_games r ON r.game_id = s.game_id
               WHERE r.rated AND s.identity_id IS NOT NULL")
  history=$(sql "SELECT count(*) FROM rating_history")
  [[ $history == "$seats" ]] || fail "$history rating history rows for $seats rated seats"
  wrong=$(sql "SELECT count(*) FROM ratings x WHERE x.games <> (SELECT count(*) FROM rating_history h
               WHERE (h.ladder_id, h.season, h.identity_id) = (x.ladder_id, x.season, x.identity_id))")
  [[ $wrong == 0 ]] || fail "$wrong ratings count their games wrong (a game rated twice or not at all)"
}

# Runs the game checker (tests/checker, docs/FAILURES.md "The checker") over the
# stack's database, the bots' record files (the demo's, and $work/bots/*.record
# of a test's own bots) and every game host's log, with
# the expectations given (e.g. --ladder open --every-game-recorded); fails on any
# violation. Its summary table goes to the test's output.
expect_checked() {  # metropolis-check flags...
  local records=() logs=() f
  for f in "$METROPOLIS_STACK_DIR"/demo/*.record "$work"/bots/*.record; do [[ -f $f ]] && records+=(--records "$f"); done
  for f in "$METROPOLIS_STACK_DIR"/logs/gamehost*.log; do [[ -f $f ]] && logs+=(--host-log "$f"); done
  ((${#records[@]} > 0)) || fail "no bot wrote a record file for the checker"
  # Its status is read, not left to set -e: a failing checker must show what it found.
  local status=0
  "$build/tests/checker/metropolis-check" --pg "$METROPOLIS_PG" "${records[@]}" "${logs[@]}" "$@" \
    >"$work/check.out" 2>&1 || status=$?
  cat "$work/check.out"
  ((status == 0)) || fail "the checker found violations (exit $status)"
}

# The metrics address (host:port) of one service of the stack, by its name in
# stack.env's METROPOLIS_METRICS_TARGETS, e.g. metrics_of gamehost1.
metrics_of() { tr ' ' '\n' <<<"$METROPOLIS_METRICS_TARGETS" | sed -n "s/^$1=//p"; }

# One sample of one service: metric ADDRESS 'NAME{labels}' (0 when absent).
metric() { curl -s "http://$1/metrics" | awk -v m="$2" '$1 == m { v = $2 } END { printf "%d", v }'; }

# The sum of a counter over every service's metrics endpoint (stack.env's
# METROPOLIS_METRICS_TARGETS), e.g. metric_sum metropolis_redis_errors_total.
metric_sum() {
  local target total=0 value
  for target in $METROPOLIS_METRICS_TARGETS; do
    value=$(curl -sf --max-time 5 "http://${target#*=}/metrics" |
      awk -v m="$1" '$1 == m || index($1, m "{") == 1 { s += $NF } END { printf "%d", s }') || value=0
    total=$((total + ${value:-0}))
  done
  echo "$total"
}

# Lines of the stack's service logs (logs/*.log) with msg="MESSAGE", as "file: count".
log_count() {
  grep -c "msg=\"$1\"" "$METROPOLIS_STACK_DIR"/logs/*.log 2>/dev/null | grep -v ':0$' | sed "s|.*/||; s|\.log:|: |" || true
}
