# shellcheck shell=bash
# What the tests of metropolis-server on the test command's PostgreSQL and Redis
# share (single_process_test.sh, tls_test.sh): the programs, a throwaway folder, a
# database and a Redis prefix of the test's own, dropped on exit with every process
# the test started, the server started on a free port, and a ladder played by 4 bots.
#
#   source tests/e2e/lib/server_test.sh
#   server_test_begin NAME BUILD_DIR   # sets $build, $root, $work, $server, $gateway, $admin_bin,
#                                      # $ctl_bin, $bot_bin; cd to the repository; fails unless
#                                      # PostgreSQL and Redis are reachable
#   server_test_database KIND          # creates the database: sets $pg, $prefix; sql "QUERY"
#   start_server PORT ARGS...          # metropolis-server on 127.0.0.1:PORT: sets $addr, $server_pid
#   fail "what went wrong"

# shellcheck disable=SC2034 # the variables are for the test that sources this
server_test_begin() {
  local program
  test_name=$1
  build=$(cd "${2:?usage: $test_name BUILD_DIR}" && pwd)
  cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 1
  root=$PWD
  server=$build/tools/server/metropolis-server
  gateway=$build/services/gateway/metropolis-gateway
  admin_bin=$build/tools/admin/metropolis-admin
  ctl_bin=$build/tools/ctl/metropolisctl
  bot_bin=$build/botkits/cpp/metropolis-bot

  work=$(mktemp -d "${TMPDIR:-/tmp}/$test_name.XXXXXX")
  server_pid='' gateway_pid='' db='' prefix=''
  trap server_test_end EXIT
  # A command that fails outside a check (set -e) ends the test: say which, and where.
  trap 'echo "$test_name: FAILED: line $LINENO: \"$BASH_COMMAND\" exited $?" >&2' ERR

  [[ -n ${METROPOLIS_PG_CONNINFO:-} ]] || fail "METROPOLIS_PG_CONNINFO is unset (scripts/test.sh, or start_postgres of scripts/lib/services.sh, sets it)"
  [[ -n ${METROPOLIS_REDIS_ADDR:-} ]] || fail "METROPOLIS_REDIS_ADDR is unset (scripts/test.sh, or start_redis of scripts/lib/services.sh, sets it)"
  for program in "$server" "$admin_bin" "$ctl_bin" "$bot_bin"; do
    [[ -x $program ]] || fail "$program is not built"
  done
  psql "$METROPOLIS_PG_CONNINFO" -qAtc "SELECT 1" >/dev/null || fail "cannot reach PostgreSQL at '$METROPOLIS_PG_CONNINFO'"
  redis_cli ping | grep -q PONG || fail "cannot reach Redis at $METROPOLIS_REDIS_ADDR"
  # shellcheck source=scripts/lib/services.sh
  source "$root/scripts/lib/services.sh"  # free_port
}

fail() {
  echo "$test_name: FAILED: $*" >&2
  tail -n 20 "$work/server.log" "$work/gateway.log" >&2 2>/dev/null || true
  tail -n 5 "$work"/bots/*.err >&2 2>/dev/null || true
  exit 1
}

redis_cli() { redis-cli -h "${METROPOLIS_REDIS_ADDR%:*}" -p "${METROPOLIS_REDIS_ADDR##*:}" "$@"; }

# shellcheck disable=SC2317 # the EXIT trap
server_test_end() {
  local pid
  for pid in $(jobs -p); do kill "$pid" 2>/dev/null || true; done
  for pid in $gateway_pid $server_pid; do
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ -n $db ]]; then
    psql "$METROPOLIS_PG_CONNINFO" -qAtc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  if [[ -n $prefix ]]; then
    redis_cli --scan --pattern "$prefix*" | xargs -r redis-cli -h "${METROPOLIS_REDIS_ADDR%:*}" \
      -p "${METROPOLIS_REDIS_ADDR##*:}" del >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}

# A database metropolis_KIND_… and a Redis prefix KIND-… of the test's own.
# shellcheck disable=SC2034
server_test_database() {
  db=metropolis_$1_$$_$RANDOM
  psql "$METROPOLIS_PG_CONNINFO" -qAtc "CREATE DATABASE $db" || fail "cannot create the database $db"
  pg="$METROPOLIS_PG_CONNINFO dbname=$db"  # the last dbname wins
  prefix=$1-$$-$RANDOM
}

sql() { psql "$pg" -Atc "$1"; }

# A free port other than PORT.
free_port_besides() {
  local port
  port=$(free_port) || return 1
  while [[ $port == "$1" ]]; do port=$(free_port) || return 1; done
  echo "$port"
}

# Waits until PID listens on PORT; fails if NAME exits first, or does not listen in 20 s.
wait_listening() {  # name pid port
  for _ in $(seq 1 400); do
    ss -Htln "sport = :$3" | grep -q . && return 0
    kill -0 "$2" 2>/dev/null || fail "$1 exited at start"
    sleep 0.05
  done
  fail "$1 did not listen on port $3"
}

# metropolis-server on 127.0.0.1:PORT with the test's database, Redis prefix and
# migrations, its data in $work/data, its output in $work/server.out and .log.
# shellcheck disable=SC2034
start_server() {  # port args...
  local port=$1
  shift
  addr=127.0.0.1:$port
  "$server" --listen "$addr" --pg "$pg" --redis "$METROPOLIS_REDIS_ADDR" --redis-prefix "$prefix" \
    --migrations "$root/migrations" --data-dir "$work/data" "$@" >"$work/server.out" 2>"$work/server.log" &
  server_pid=$!
  wait_listening metropolis-server "$server_pid" "$port"
}

# Runs ARGS... every 0.1 s, 50 times at most, until it succeeds; its output in OUT.
retry_until_ok() {  # out args...
  local out=$1
  shift
  for _ in $(seq 1 50); do
    "$@" >"$out" 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

# Fails unless PROGRAM ARGS... exits with 2 (a usage error) saying EXPECTED.
# METROPOLIS_SERVER_PG is not passed on: a refusal must come from the flags alone.
refused() {  # program expected args...
  local program=$1 expected=$2 status=0
  shift 2
  env -u METROPOLIS_SERVER_PG "$program" "$@" >/dev/null 2>"$work/refused.err" || status=$?
  [[ $status == 2 ]] || fail "$(basename "$program") $* exited with $status, not 2"
  grep -qF -- "$expected" "$work/refused.err" ||
    fail "$(basename "$program") $*: '$(cat "$work/refused.err")' does not say '$expected'"
}

# Fails unless PROGRAM --help succeeds and mentions every FLAG.
expect_help_mentions() {  # program flag...
  local program=$1 flag
  shift
  "$program" --help >"$work/help.txt" || fail "$(basename "$program") --help failed"
  for flag in "$@"; do
    grep -q -- "$flag" "$work/help.txt" || fail "$(basename "$program") --help does not mention $flag"
  done
}

token_of() { python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'; }
admin() { "$admin_bin" --pg "$pg" "$@"; }

# An admin (its token in $admin_token) and a ladder LADDER ("TITLE", 4 seats,
# PLACEMENT placement games; built-in bots only after 20 s, so that the tables are
# the bots'), then 4 bots bot-1..bot-4 of the player "house" queued on it at $addr
# with BOT_ARGS (tokens labelled LADDER, output in $work/bots/); waits for them,
# failing if one fails.
# shellcheck disable=SC2034
play_ladder() {  # ladder title placement bot-args...
  local ladder=$1 title=$2 placement=$3 i token pid pids=()
  shift 3
  admin create-player admin >/dev/null
  admin_token=$(admin --json issue-token admin --admin --label "$ladder" | token_of)
  admin create-ladder "$ladder" --title "$title" --seats 4 --placement-games "$placement" --bots-after-ms 20000 >/dev/null
  admin create-season "$ladder" >/dev/null
  admin create-player house >/dev/null
  mkdir -p "$work/bots"
  for i in 1 2 3 4; do
    admin create-bot "bot-$i" --owner house >/dev/null
    token=$(admin --json issue-token "bot-$i" --label "$ladder" | token_of)
    "$bot_bin" --ladder "$ladder" --matchmaker "$addr" --api-token "$token" --record "$work/bots/bot-$i.record" "$@" \
      >"$work/bots/bot-$i.out" 2>"$work/bots/bot-$i.err" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || fail "a bot failed"; done
}

# Runs the game checker (docs/FAILURES.md, "The checker") over the test's database
# and play_ladder's bots' record files with the expectations given; fails on any
# violation, its summary table in the test's output.
expect_checked() {  # metropolis-check flags...
  local records=() f status=0
  for f in "$work"/bots/*.record; do [[ -f $f ]] && records+=(--records "$f"); done
  ((${#records[@]} > 0)) || fail "no bot wrote a record file for the checker"
  "$build/tests/checker/metropolis-check" --pg "$pg" "${records[@]}" "$@" >"$work/check.out" 2>&1 || status=$?
  cat "$work/check.out"
  ((status == 0)) || fail "the checker found violations (exit $status)"
}

# Waits, 10 s at most, until LADDER has at least MIN stored games and every stored
# game is rated (the host hands games over asynchronously, through its outbox);
# sets $games and $rated, which the test then checks.
# shellcheck disable=SC2034
wait_stored_and_rated() {  # ladder min
  games=0 rated=0
  for _ in $(seq 1 100); do
    games=$(sql "SELECT count(*) FROM games WHERE ladder_id = '$1'")
    rated=$(sql "SELECT count(*) FROM rated_games")
    ((games >= $2)) && [[ $rated == "$games" ]] && break
    sleep 0.1
  done
}
