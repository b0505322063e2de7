#!/usr/bin/env bash
# The Python SDK (botkits/python/metropolis_bot) through real services (label e2e): the
# whole stack with two matchmaker replicas. A ladder played by SDK bots that queue, each
# given both replicas: search_bot.py (searching with the local engine) and python3 -m
# metropolis_bot --bot random, two games each, built-in bots filling the tables. A round
# robin of four SDK bots holding Compete streams (python3 -m metropolis_bot --compete
# --bot heuristic). Checked: every bot exits 0 after its games, the ladder stores two
# games for each, the tournament finishes, and every game is stored exactly as its
# seats saw it (the checker).
#
#   tests/e2e/python_sdk_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin python_sdk_test "${1:-}"

# Debian's python3 has python3-grpcio; a python3 earlier on PATH (pyenv, a venv) may not.
PYTHON=
for candidate in /usr/bin/python3 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import grpc, google.protobuf' 2>/dev/null; then
    PYTHON=$(command -v "$candidate")
    break
  fi
done
[[ -n $PYTHON ]] || fail "no python3 with grpcio and protobuf (scripts/setup.sh installs python3-grpcio python3-protobuf)"
compgen -G "$build/python/metropolis/_core*.so" >/dev/null ||
  fail "$build/python/metropolis has no _core module: build the target metropolis_python_module"
botkits/python/generate.sh "$work/stubs" >"$work/stubs.log" 2>&1 || fail "botkits/python/generate.sh failed"
sdk=(env PYTHONPATH="$PWD/botkits/python:$build/python" METROPOLIS_PY_STUBS="$work/stubs" "$PYTHON")

stack_up METROPOLIS_MATCHMAKERS=2
admin=("$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG")
ctl() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
"${admin[@]}" create-ladder py --title "Python SDK" --seats 4 --placement-games 2 --bots-after-ms 2000 >/dev/null
"${admin[@]}" create-season py >/dev/null
"${admin[@]}" create-player owner >/dev/null
# A bot identity of the player "owner" and its API token.
token() {
  "${admin[@]}" create-bot "$1" --owner owner >/dev/null
  "${admin[@]}" --json issue-token "$1" --label e2e | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'
}

mkdir -p "$work/bots"
names=() pids=()
# Starts one SDK bot in the background: NAME COMMAND... (its output in $work/bots/NAME.*).
start() {
  local name=$1
  shift
  timeout 300 "$@" --record "$work/bots/$name.record" >"$work/bots/$name.out" 2>"$work/bots/$name.err" &
  names+=("$name")
  pids+=($!)
}

both="$METROPOLIS_MATCHMAKER,$METROPOLIS_MATCHMAKER2"
start py-search "${sdk[@]}" botkits/python/search_bot.py --ladder py --matchmaker "$both" \
  --api-token "$(token py-search)" --games 2 --seed 1 --iterations 50
start py-random "${sdk[@]}" -m metropolis_bot --ladder py --matchmaker "$METROPOLIS_MATCHMAKER2,$METROPOLIS_MATCHMAKER" \
  --api-token "$(token py-random)" --bot random --games 2 --seed 2

for i in 1 2 3 4; do tokens[i]=$(token "pc$i"); done
ctl create-tournament rr --format round-robin --entrants pc1,pc2,pc3,pc4 --seed 11 --decision-ms 5000 \
  --title "Python SDK round robin" >"$work/create.log" || { cat "$work/create.log" >&2; fail "create-tournament rr"; }
scheduled=$(sed -nE 's/.* ([0-9]+) games scheduled.*/\1/p' "$work/create.log")
[[ -n $scheduled ]] || fail "create-tournament printed no number of games: $(cat "$work/create.log")"
# Four entrants at tables of four: each sits in every game of the schedule.
for i in 1 2 3 4; do
  start "pc$i" "${sdk[@]}" -m metropolis_bot --compete --matchmaker "$both" --api-token "${tokens[i]}" \
    --bot heuristic --games "$scheduled" --seed "$((10 + i))"
done

failed=()
for i in "${!pids[@]}"; do
  if wait "${pids[i]}"; then rc=0; else rc=$?; fi
  ((rc == 0)) || failed+=("${names[i]} exited $rc: $(tail -n 2 "$work/bots/${names[i]}.err" | tr '\n' ' ')")
  echo "python_sdk_test: ${names[i]}: $(grep -c "game over" "$work/bots/${names[i]}.out") games over"
done
((${#failed[@]} == 0)) || fail "$(printf '%s; ' "${failed[@]}")"

for name in py-search py-random; do
  games=$(sql "SELECT count(*) FROM game_seats s JOIN identities i ON i.id = s.identity_id
               JOIN games g ON g.id = s.game_id WHERE i.name = '$name' AND g.ladder_id = 'py'")
  [[ $games == 2 ]] || fail "$name has $games ladder games stored, expected 2"
done
for _ in $(seq 1 300); do
  [[ $(sql "SELECT state FROM tournaments WHERE id = 'rr'") == finished ]] && break
  sleep 0.1
done
[[ $(sql "SELECT state FROM tournaments WHERE id = 'rr'") == finished ]] || fail "the round robin did not finish"
[[ $(sql "SELECT count(*) FROM games WHERE tournament_id = 'rr'") == "$scheduled" ]] ||
  fail "the round robin stored $(sql "SELECT count(*) FROM games WHERE tournament_id = 'rr'") games of $scheduled"
expect_checked --every-game-recorded
echo "python_sdk_test: PASS"
