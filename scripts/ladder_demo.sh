#!/usr/bin/env bash
# Plays a ladder through the running local stack (deploy/local/stack.sh up):
# creates the ladder and its first season if they are missing, registers built-in
# bots as bot identities with their own API tokens, lets each bot queue at the
# matchmaker and play its games (metropolis-bot --ladder), shows progress, and
# prints the leaderboard and the latest stored games.
#
#   scripts/ladder_demo.sh [--ladder ID] [--bots N] [--games G] [--bot SPEC] [--matchmakers A,B]
#                          [--decision-ms N] [--time-bank-ms N]
#
# Defaults: ladder "open", 8 bots, 3 games each, heuristic. --decision-ms and
# --time-bank-ms set the clocks of a ladder this creates (the ladder's defaults,
# 10 s and 60 s, are a bot's pace; the main job gives people on its ladder 60 s
# and 5 minutes); a ladder that exists keeps its own. With a second
# matchmaker replica (METROPOLIS_MATCHMAKERS=2) the bots alternate between them;
# --matchmakers gives every bot that list instead (it fails over along it).
set -euo pipefail
cd "$(dirname "$0")/.."
stack=${METROPOLIS_STACK_DIR:-/tmp/metropolis-stack}
ladder=open bots=8 games=3 bot=heuristic matchmakers='' clocks=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --ladder) ladder=$2; shift 2 ;;
    --bots) bots=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --bot) bot=$2; shift 2 ;;
    --matchmakers) matchmakers=$2; shift 2 ;;
    --decision-ms | --time-bank-ms)
      [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "ladder_demo: $1 takes milliseconds, not '${2:-}'" >&2; exit 2; }
      clocks+=("$1" "$2"); shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "ladder_demo: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $bots =~ ^[0-9]+$ && $bots -ge 1 && $games =~ ^[0-9]+$ && $games -ge 1 ]] ||
  { echo "ladder_demo: --bots and --games take positive numbers" >&2; exit 2; }
[[ -f $stack/stack.env ]] || { echo "ladder_demo: no stack in $stack (deploy/local/stack.sh up)" >&2; exit 1; }
# shellcheck source=/dev/null
source "$stack/stack.env"
bin=$METROPOLIS_BUILD
admin=$bin/tools/admin/metropolis-admin
ctl() { "$bin/tools/ctl/metropolisctl" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }

if ! "$admin" --json ladders | python3 -c "import json, sys; sys.exit(0 if any(l['id'] == '$ladder' for l in json.load(sys.stdin)) else 1)"; then
  "$admin" create-ladder "$ladder" --title "Open ladder, 4 players" --seats 4 --placement-games 2 --bots-after-ms 20000 \
    "${clocks[@]}" >/dev/null
  "$admin" create-season "$ladder" >/dev/null
  echo "ladder_demo: created ladder $ladder, season 1"
elif [[ ${#clocks[@]} -gt 0 ]]; then
  echo "ladder_demo: ladder $ladder exists and keeps its clocks (${clocks[*]} not applied)" >&2
fi
"$admin" --json identities | python3 -c "import json, sys; sys.exit(0 if any(i['name'] == 'house' for i in json.load(sys.stdin)) else 1)" ||
  "$admin" create-player house >/dev/null
work=$stack/demo
mkdir -p "$work"
# Every bot's identity and token first, then every bot at once: the ladder's first
# tables form together, as players arriving for a round would, rather than one a
# few seconds after another (and a short game over before the last one starts).
for i in $(seq 1 "$bots"); do
  name=${bot%%:*}-$i # the bot's kind: a spec's parameters (search:ms=15) make no identity name
  if [[ ! -f $work/$name.token ]]; then
    "$admin" create-bot "$name" --owner house >/dev/null 2>&1 || true
    "$admin" --json issue-token "$name" --label demo |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])' >"$work/$name.token"
  fi
done
pids=()
for i in $(seq 1 "$bots"); do
  name=${bot%%:*}-$i
  matchmaker=$METROPOLIS_MATCHMAKER
  ((i % 2 == 0)) && matchmaker=$METROPOLIS_MATCHMAKER2
  [[ -n $matchmakers ]] && matchmaker=$matchmakers
  "$bin/botkits/cpp/metropolis-bot" --ladder "$ladder" --matchmaker "$matchmaker" --api-token "$(cat "$work/$name.token")" \
    --bot "$bot" --games "$games" --record "$work/$name.record" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
done
total=$((bots * games))
echo "ladder_demo: $bots bots queue on $ladder for $games games each"
while :; do
  running=0
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && running=$((running + 1)); done
  done_games=$(cat "$work"/*.out 2>/dev/null | grep -c "game over" || true)
  echo "  $done_games of $total seats' games over, $running bots playing"
  ((running == 0)) && break
  sleep 2
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
if ((failed > 0)); then
  echo "ladder_demo: $failed bots failed; their errors:" >&2
  cat "$work"/*.err >&2
  exit 1
fi
sleep 1  # the last games' hand-off to replays and ratings
# The closing reads: a service of the stack may be restarting (stack.sh brings a
# crashed one back), so a read that fails is tried again, 30 times 1 s apart,
# saying why, before the demo gives up.
show() {  # host ctl-args...: metropolisctl's answer, or its last error after 30 tries
  local host=$1 out attempt
  shift
  for attempt in $(seq 1 30); do
    if out=$(ctl --host "$host" "$@" 2>"$work/show.err"); then
      echo "$out"
      return 0
    fi
    ((attempt == 1)) && echo "ladder_demo: $1 failed, trying again (30 tries, 1 s apart): $(cat "$work/show.err")" >&2
    sleep 1
  done
  cat "$work/show.err" >&2
  return 1
}
echo
show "$METROPOLIS_RATINGS" leaderboard --ladder "$ladder" --limit 20
echo
show "$METROPOLIS_REPLAYS" stored-games --ladder "$ladder" --limit 5
