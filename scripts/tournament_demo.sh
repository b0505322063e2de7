#!/usr/bin/env bash
# Runs a tournament of built-in bots through the running local stack
# (deploy/local/stack.sh up): registers the bots as bot identities with their own
# API tokens (through metropolisctl), starts each one competing
# (metropolis-bot --compete), creates the tournament, follows it live and prints
# the standings with their confidence intervals (docs/TOURNAMENTS.md).
#
#   scripts/tournament_demo.sh [--id ID] [--format F] [--bots SPEC,SPEC,...] [--rounds N]
#
# Defaults: a round robin ("cup") of five bots — heuristic, heuristic, random,
# random, random — at tables of four: 20 games. --format swiss or duplicate work too.
set -euo pipefail
cd "$(dirname "$0")/.."
stack=${METROPOLIS_STACK_DIR:-/tmp/metropolis-stack}
id=cup format=round-robin specs=heuristic,heuristic,random,random,random rounds=
while [[ $# -gt 0 ]]; do
  case $1 in
    --id) id=$2; shift 2 ;;
    --format) format=$2; shift 2 ;;
    --bots) specs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "tournament_demo: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -f $stack/stack.env ]] || { echo "tournament_demo: no stack in $stack (deploy/local/stack.sh up)" >&2; exit 1; }
# shellcheck source=/dev/null
source "$stack/stack.env"
bin=$METROPOLIS_BUILD
ctl() { "$bin/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
# Accounts, bots and their tokens: the Accounts service.
accounts_ctl() { "$bin/tools/ctl/metropolisctl" --host "$METROPOLIS_ACCOUNTS" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }

IFS=, read -r -a bots <<<"$specs"
((${#bots[@]} >= 4)) || { echo "tournament_demo: --bots needs at least 4 bots" >&2; exit 2; }
work=$stack/tournament-$id
mkdir -p "$work"
accounts_ctl create-player house >/dev/null 2>&1 || true  # the bots' owner; it may exist already
names=() pids=()
stop_bots() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_bots EXIT
for i in "${!bots[@]}"; do
  spec=${bots[$i]}
  name="$id-${spec%%:*}-$((i + 1))"
  if [[ ! -f $work/$name.token ]]; then
    accounts_ctl create-bot "$name" --owner house >/dev/null
    accounts_ctl --json issue-token "$name" --label tournament |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])' >"$work/$name.token"
  fi
  "$bin/botkits/cpp/metropolis-bot" --compete --matchmaker "$METROPOLIS_MATCHMAKER,$METROPOLIS_MATCHMAKER2" \
    --api-token "$(cat "$work/$name.token")" --bot "$spec" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  names+=("$name")
done
args=(create-tournament "$id" --format "$format" --entrants "$(IFS=,; echo "${names[*]}")" --title "Demo $format")
[[ -n $rounds ]] && args+=(--rounds "$rounds")
ctl "${args[@]}"
ctl watch-tournament "$id"
echo
echo "every game:  build/release/tools/ctl/metropolisctl --host \$METROPOLIS_MATCHMAKER --token \$METROPOLIS_ADMIN_TOKEN tournament-games $id"
echo "as CSV:      ... export-tournament $id --csv"
