#!/usr/bin/env bash
# End to end: the example bots play whole games against each other on a real game host,
# three games at once over gRPC on the loopback. Game A: seat 0 the Python random bot,
# seat 1 the Node.js random bot, seats 2 and 3 the C++ kit's heuristic and random bots.
# Game B, the Python SDK (botkits/python/metropolis_bot): seat 0 its example search_bot.py,
# which searches with the local engine (with debug notes), seat 1 python3 -m metropolis_bot
# --bot random, seat 2 python3 -m metropolis_bot --bot heuristic (the local engine's), seat
# 3 the C++ random bot. Game C, the Node.js kit: seat 0 engine_bot.js (the heuristic
# through the engine addon, with debug notes), seat 1 random_bot.js, seats 2 and 3 the
# Python and C++ random bots. Passes when every bot exits 0, the host reports the games
# finished with every seat having answered its own decisions (none taken by the fallback
# bot), no answer of the Node.js engine bot (each with a note) was refused, and the
# checker finds that what each seat recorded is the stored game.
#
#   tests/e2e/example_bots_test.sh BUILD_DIR      (from anywhere; ctest runs it)
#
# Needs the build's metropolis-gamehost, metropolisctl, metropolis-bot, metropolis-check,
# the engine's Python module (BUILD_DIR/python) and Node.js addon
# (BUILD_DIR/botkits/node), Python 3 with grpcio and protobuf, protoc with
# grpc_python_plugin, and Node.js 20+ with botkits/node's npm packages (scripts/setup.sh
# installs them).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [[ $# -ne 1 || ! -d $1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd)
GAMEHOST=$BUILD/services/gamehost/metropolis-gamehost
CTL=$BUILD/tools/ctl/metropolisctl
CPP_BOT=$BUILD/botkits/cpp/metropolis-bot
NODE_ADDON=$BUILD/botkits/node/metropolis_engine.node
BOT_TIMEOUT_S=300

# shellcheck source=scripts/lib/services.sh
source "$ROOT/scripts/lib/services.sh"  # free_port

WORK=$(mktemp -d "${TMPDIR:-/tmp}/metropolis-e2e-bots.XXXXXX")
host_pid=
bot_pids=()
passed=false

say() { echo "example_bots_test: $*"; }
fail() {
  say "FAIL: $*" >&2
  exit 1
}

# Stops what we started (by pid), prints every log when the test failed, removes
# the scratch folder.
cleanup() {
  local status=$? pid log
  for pid in "${bot_pids[@]}" $host_pid; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${bot_pids[@]}" $host_pid; do
    wait "$pid" 2>/dev/null || true
  done
  if ! $passed; then
    for log in "$WORK"/*.log; do
      [[ -f $log ]] || continue
      printf '\n----- %s -----\n' "$(basename "$log")" >&2
      cat "$log" >&2
    done
    [[ $status -ne 0 ]] || status=1
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT

# --- What the test needs ---------------------------------------------------------

for program in "$GAMEHOST" "$CTL" "$CPP_BOT"; do
  [[ -x $program ]] || fail "$program is missing: build the services first"
done

# Debian's python3 has python3-grpcio; a python3 earlier on PATH (pyenv, a venv) may not.
PYTHON=
for candidate in /usr/bin/python3 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import grpc, google.protobuf' 2>/dev/null; then
    PYTHON=$(command -v "$candidate")
    break
  fi
done
[[ -n $PYTHON ]] || fail "no python3 with grpcio and protobuf (scripts/setup.sh installs python3-grpcio python3-protobuf)"
# The SDK's seats import the SDK from the tree and the engine's module from the build.
compgen -G "$BUILD/python/metropolis/_core*.so" >/dev/null ||
  fail "$BUILD/python/metropolis has no _core module: build the target metropolis_python_module"
SDK_PYTHONPATH=$ROOT/botkits/python:$BUILD/python

command -v node >/dev/null 2>&1 || fail "node is missing (Node.js 20 or later)"
[[ -f $NODE_ADDON ]] || fail "$NODE_ADDON is missing: build metropolis_node_addon (Node.js's headers are needed)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[[ $node_major -ge 20 ]] || fail "Node.js $(node --version) is too old: the Node bot needs 20 or later"

say "generating the Python stubs"
"$ROOT/botkits/python/generate.sh" "$WORK/stubs" >"$WORK/stubs.log" 2>&1 || fail "botkits/python/generate.sh failed"

node_dir=$ROOT/botkits/node
# shellcheck source=scripts/lib/npm.sh
source "$ROOT/scripts/lib/npm.sh"
npm_ready "$ROOT" botkits/node || fail "botkits/node's npm packages are missing or older than its lockfile: run scripts/setup.sh"

# --- The game host -----------------------------------------------------------------

ADMIN=admin-$RANDOM$RANDOM$RANDOM
SPECTATOR=spectator-$RANDOM$RANDOM$RANDOM

# Waits until the host answers its health check; fails at once if it exits.
wait_healthy() {
  for _ in $(seq 1 300); do
    kill -0 "$host_pid" 2>/dev/null || return 1
    if "$CTL" --host "$ADDR" --token "$ADMIN" --timeout-ms 1000 health >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  fail "the game host did not become healthy on $ADDR within 30 s"
}

# A free port can be taken between free_port and the host's bind: try again then.
for attempt in 1 2 3; do
  port=$(free_port)
  metrics_port=$(free_port)
  [[ $metrics_port != "$port" ]] || continue
  ADDR=127.0.0.1:$port
  say "starting the game host on $ADDR (attempt $attempt)"
  "$GAMEHOST" --listen "$ADDR" --metrics-listen "127.0.0.1:$metrics_port" \
    --admin-token "$ADMIN" --spectator-token "$SPECTATOR" \
    --data-dir "$WORK/data" --decision-ms 10000 >>"$WORK/host.log" 2>&1 &
  host_pid=$!
  if wait_healthy; then break; fi
  wait "$host_pid" 2>/dev/null || true
  host_pid=
done
[[ -n $host_pid ]] || fail "the game host would not start"

# --- The games ---------------------------------------------------------------------

ctl() { "$CTL" --host "$ADDR" --token "$ADMIN" "$@"; }

# Creates a game with these seat names and seed; sets GAME and tokens.
create_game() {
  local seats=$1 seed=$2 out=$WORK/create-$2.json
  ctl create-game --seats "$seats" --seed "$seed" --json >"$out" 2>"$WORK/create-$seed.log" ||
    fail "metropolisctl create-game failed"
  mapfile -t created < <("$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
print(d["game_id"])
for token in d["seat_tokens"]:
    print(token)
' <"$out") || fail "create-game printed no usable JSON: $(cat "$out")"
  GAME=${created[0]:-}
  tokens=("${created[@]:1}")
  [[ -n $GAME && ${#tokens[@]} -eq 4 ]] || fail "create-game printed no game id or not 4 tokens: $(cat "$out")"
}

create_game python,node,cpp-heuristic,cpp-random 7
GAME_A=$GAME
tokens_a=("${tokens[@]}")
create_game sdk-search,sdk-random,sdk-heuristic,cpp-random 8
GAME_B=$GAME
tokens_b=("${tokens[@]}")
create_game node-engine,node-random,python,cpp-random 9
GAME_C=$GAME
tokens_c=("${tokens[@]}")
say "games $GAME_A, $GAME_B and $GAME_C created; the twelve bots start"

# One entry per bot: game, seat, name. Seeded so that the games replay (no seat should
# ever time out).
players=("$GAME_A 0 python" "$GAME_A 1 node" "$GAME_A 2 cpp-heuristic" "$GAME_A 3 cpp-random"
         "$GAME_B 0 sdk-search" "$GAME_B 1 sdk-random" "$GAME_B 2 sdk-heuristic" "$GAME_B 3 cpp-random"
         "$GAME_C 0 node-engine" "$GAME_C 1 node-random" "$GAME_C 2 python" "$GAME_C 3 cpp-random")
sdk=(env PYTHONPATH="$SDK_PYTHONPATH" METROPOLIS_PY_STUBS="$WORK/stubs" "$PYTHON")
bot_command() {
  case $1 in
    python) bot=("$PYTHON" "$ROOT/botkits/python/random_bot.py" --stubs "$WORK/stubs" --seed 1) ;;
    node) bot=(node "$ROOT/botkits/node/random_bot.js" --seed 2) ;;
    cpp-heuristic) bot=("$CPP_BOT" --bot heuristic --seed 3 --view-deltas) ;;
    cpp-random) bot=("$CPP_BOT" --bot random --seed 4) ;;
    sdk-search) bot=("${sdk[@]}" "$ROOT/botkits/python/search_bot.py" --iterations 100 --seed 5 --debug-notes --view-deltas) ;;
    sdk-random) bot=("${sdk[@]}" -m metropolis_bot --bot random --seed 6) ;;
    sdk-heuristic) bot=("${sdk[@]}" -m metropolis_bot --bot heuristic --seed 7) ;;
    node-engine) bot=(env METROPOLIS_ENGINE_ADDON="$NODE_ADDON" node "$ROOT/botkits/node/engine_bot.js" --bot heuristic
      --seed 8 --debug-notes) ;;
    node-random) bot=(node "$ROOT/botkits/node/random_bot.js" --seed 9) ;;
  esac
}
for i in "${!players[@]}"; do
  read -r game seat name <<<"${players[i]}"
  case $game in
    "$GAME_A") token=${tokens_a[seat]} ;;
    "$GAME_B") token=${tokens_b[seat]} ;;
    *) token=${tokens_c[seat]} ;;
  esac
  bot_command "$name"
  timeout "$BOT_TIMEOUT_S" "${bot[@]}" --host "$ADDR" --game "$game" --token "$token" \
    --record "$WORK/bot-$i.record" >"$WORK/bot-$i-$name.log" 2>&1 &
  bot_pids+=($!)
done

failed=()
for i in "${!players[@]}"; do
  read -r game seat name <<<"${players[i]}"
  if wait "${bot_pids[i]}"; then rc=0; else rc=$?; fi
  if [[ $rc -eq 124 ]]; then
    failed+=("game $game seat $seat ($name) timed out after $BOT_TIMEOUT_S s")
  elif [[ $rc -ne 0 ]]; then
    failed+=("game $game seat $seat ($name) exited $rc")
  fi
done
bot_pids=()
for i in "${!players[@]}"; do
  read -r game seat name <<<"${players[i]}"
  say "game $game seat $seat ($name): $(tail -n 1 "$WORK/bot-$i-$name.log")"
  # The host refuses an answer whose note is too long or whose evaluation is not a
  # number: the engine bot's notes must all have gone through.
  if [[ $name == node-engine ]] && ! tail -n 1 "$WORK/bot-$i-$name.log" | grep -q ' rejected=0 '; then
    failed+=("game $game seat $seat ($name) had answers refused")
  fi
done
[[ ${#failed[@]} -eq 0 ]] || fail "$(printf '%s; ' "${failed[@]}")"

# --- What the host says ------------------------------------------------------------

for GAME in "$GAME_A" "$GAME_B" "$GAME_C"; do
  ctl get-game "$GAME" --json >"$WORK/game-$GAME.json" 2>"$WORK/get-game.log" || fail "metropolisctl get-game failed"
  "$PYTHON" - "$WORK/game-$GAME.json" "$GAME" <<'EOF' || fail "the host's record of game $GAME is not as expected"
import json, sys

info = json.load(open(sys.argv[1]))
problems = []
if info.get("status") not in ("GAME_STATUS_FINISHED", 2):
    problems.append(f"status is {info.get('status')}, not GAME_STATUS_FINISHED")
players = info.get("players", [])
if len(players) != 4:
    problems.append(f"{len(players)} players, expected 4")
for p in players:
    seat = p.get("seat", 0)
    decisions = int(p.get("decisions", 0))
    fallback = int(p.get("fallback_decisions", p.get("fallbackDecisions", 0)))
    print(f"example_bots_test: {sys.argv[2]} seat {seat} ({p.get('name')}): {decisions} decisions, {fallback} by the fallback bot")
    if decisions <= 0:
        problems.append(f"seat {seat} answered no decision")
    if fallback != 0:
        problems.append(f"seat {seat} had {fallback} decisions taken by the fallback bot")
r = info.get("result", {})
print(f"example_bots_test: {sys.argv[2]} result {r.get('reason')}, winner {r.get('winner')}, vp {r.get('vp')}, "
      f"{r.get('actions')} actions, {r.get('turns')} turns")
for problem in problems:
    print(f"example_bots_test: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
done

# --- What each seat saw --------------------------------------------------------------
# Every kit (the Python example, the Python SDK, Node.js, C++) recorded its seat; the checker replays the game
# the host stored and requires each seat's digest of the events it received to
# match the stored game masked for it: the kits hash the same lines.
checker=$BUILD/tests/checker/metropolis-check
[[ -x $checker ]] || fail "$checker is not built"
records=()
for i in "${!players[@]}"; do
  [[ -s $WORK/bot-$i.record ]] || fail "${players[i]} wrote no record"
  records+=(--records "$WORK/bot-$i.record")
done
"$checker" --completed "$WORK/data/completed" "${records[@]}" --every-game-recorded --games-per-bot 1 \
  >"$WORK/check.out" 2>&1 || { cat "$WORK/check.out" >&2; fail "the checker found what the seats saw differs from the stored game"; }
sed 's/^/example_bots_test: /' "$WORK/check.out"

passed=true
say "PASS"
