#!/usr/bin/env bash
# The web app in headless Chromium against the whole stack (labels e2e, browser):
# the local stack with the gateway serving web/app, bots playing real ladder
# games and a small tournament, and a game kept waiting to be followed live.
# tests/browser/run.mjs then drives Chromium (playwright-core from web/'s
# lockfile): leaderboard -> player -> replay stepped to the end with every piece
# and score checked against the positions the gateway reports, a step link
# opened directly, the game browser, tournament standings, and the live game
# followed to its end. Screenshots go to BUILD_DIR/test-artifacts/browser/.
#
#   tests/browser/browser_test.sh BUILD_DIR
#
# Needs Node.js 20+ and Debian's chromium (scripts/setup.sh installs both;
# METROPOLIS_CHROMIUM names another binary). Without them it fails, never skips.
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin browser_test "${1:-}"
root=$PWD
artifacts=$build/test-artifacts/browser
rm -rf "$artifacts"
mkdir -p "$artifacts"

# ---- What the test needs -------------------------------------------------------------

command -v node >/dev/null 2>&1 || fail "node is missing (Node.js 20 or later; scripts/setup.sh installs it)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 20)) || fail "Node.js $(node --version) is too old: 20 or later is needed"
chromium=${METROPOLIS_CHROMIUM:-$(command -v chromium || true)}
[[ -n $chromium && -x $chromium ]] ||
  fail "no Chromium: install Debian's chromium (scripts/setup.sh does) or set METROPOLIS_CHROMIUM"
if [[ ! -f web/node_modules/playwright-core/package.json ]]; then
  echo "browser_test: installing web/'s packages from its lockfile (npm ci)"
  npm ci --prefix web --no-audit --no-fund >"$work/npm.log" 2>&1 || { cat "$work/npm.log" >&2; fail "npm ci --prefix web failed"; }
fi
for program in services/gateway/metropolis-gateway botkits/cpp/metropolis-bot services/ctl/metropolisctl; do
  [[ -x $build/$program ]] || fail "no $program in $build: build the services first"
done

# ---- The stack, with games to show -----------------------------------------------------

export METROPOLIS_WEB_ROOT=$root/web/app
deploy/local/stack.sh up "$build" >"$work/stack-up.log" || { cat "$work/stack-up.log" >&2; fail "the stack did not start"; }
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
[[ -n ${METROPOLIS_GATEWAY:-} ]] || fail "the stack started no gateway"

# Four bots compete in a small tournament (a round robin of four tables, so that
# every entrant has an interval) while the ladder's bots play.
admin() { "$build/services/accounts/metropolis-admin" --pg "$METROPOLIS_PG" "$@"; }
admin create-player owner >/dev/null
bot_pids=()
stop_bots() { for pid in "${bot_pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap 'stop_bots; stack_test_end' EXIT
for i in 1 2 3 4; do
  admin create-bot "cup$i" --owner owner >/dev/null
  token=$(admin --json issue-token "cup$i" --label browser | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  "$build/botkits/cpp/metropolis-bot" --compete --matchmaker "$METROPOLIS_MATCHMAKER" --api-token "$token" \
    --bot heuristic >"$work/cup$i.out" 2>"$work/cup$i.err" &
  bot_pids+=($!)
done
"$build/services/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" \
  create-tournament cup --format round-robin --entrants cup1,cup2,cup3,cup4 --seed 5 \
  --title "Browser cup" >"$work/cup.log" 2>&1 || { cat "$work/cup.log" >&2; fail "create-tournament failed"; }

scripts/ladder_demo.sh --bots 4 --games 2 >"$work/demo.log" || { tail "$work/demo.log" >&2; fail "the bots did not play their games"; }
expect_all_rated
for _ in $(seq 1 1200); do
  [[ $(sql "SELECT state FROM tournaments WHERE id = 'cup'") == finished ]] && break
  sleep 0.1
done
[[ $(sql "SELECT state FROM tournaments WHERE id = 'cup'") == finished ]] || fail "the tournament did not finish"
stop_bots

# The live game, which run.mjs creates when it is ready to follow it: seat 0 waits
# for its player, whom run.mjs then starts; built-in bots play the other seats.
live_create=$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$build/services/ctl/metropolisctl" \
  --host "$METROPOLIS_GAMEHOST" --token "$METROPOLIS_GAMEHOST_ADMIN_TOKEN" --json create-game \
  --seats watcher,b1,b2,b3 --builtin 1:heuristic --builtin 2:heuristic --builtin 3:heuristic --ladder exhibition --seed 7)
live_bot=$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$build/botkits/cpp/metropolis-bot" \
  --host "$METROPOLIS_GAMEHOST" --bot search:ms=15 --quiet)

# ---- The browser ------------------------------------------------------------------------

METROPOLIS_GATEWAY=$METROPOLIS_GATEWAY METROPOLIS_CHROMIUM=$chromium METROPOLIS_ARTIFACTS=$artifacts \
  METROPOLIS_LIVE_CREATE=$live_create METROPOLIS_LIVE_BOT=$live_bot METROPOLIS_TOURNAMENT=cup \
  node tests/browser/run.mjs || fail "the browser checks failed (screenshots in $artifacts)"
echo "browser_test: passed (screenshots in $artifacts)"
