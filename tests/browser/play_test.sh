#!/usr/bin/env bash
# People playing from the web app in headless Chromium (labels e2e, browser): the
# local stack with the gateway serving web/app; a ladder where two network bots
# queue; then tests/browser/play.mjs signs people up and plays by clicking only
# what the page offers: a whole practice game against three built-in bots (its
# board compared with the stored game's positions, a reload in the middle), and
# two people matched with the two bots on the ladder, one offering a trade the
# other accepts. Screenshots go to BUILD_DIR/test-artifacts/play/.
#
#   tests/browser/play_test.sh BUILD_DIR
#
# Needs Node.js 20+ and Debian's chromium (scripts/setup.sh installs both;
# METROPOLIS_CHROMIUM names another binary). Without them it fails, never skips.
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin play_test "${1:-}"
root=$PWD
artifacts=$build/test-artifacts/play
rm -rf "$artifacts"
mkdir -p "$artifacts"

command -v node >/dev/null 2>&1 || fail "node is missing (Node.js 20 or later; scripts/setup.sh installs it)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 20)) || fail "Node.js $(node --version) is too old: 20 or later is needed"
chromium=${METROPOLIS_CHROMIUM:-$(command -v chromium || true)}
[[ -n $chromium && -x $chromium ]] ||
  fail "no Chromium: install Debian's chromium (scripts/setup.sh does) or set METROPOLIS_CHROMIUM"
if [[ ! -f web/node_modules/playwright-core/package.json ]]; then
  echo "play_test: installing web/'s packages from its lockfile (npm ci)"
  npm ci --prefix web --no-audit --no-fund >"$work/npm.log" 2>&1 || { cat "$work/npm.log" >&2; fail "npm ci --prefix web failed"; }
fi
for program in services/gateway/metropolis-gateway botkits/cpp/metropolis-bot services/accounts/metropolis-admin; do
  [[ -x $build/$program ]] || fail "no $program in $build: build the services first"
done

export METROPOLIS_WEB_ROOT=$root/web/app
deploy/local/stack.sh up "$build" >"$work/stack-up.log" || { cat "$work/stack-up.log" >&2; fail "the stack did not start"; }
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
[[ -n ${METROPOLIS_GATEWAY:-} ]] || fail "the stack started no gateway"

# The ladder of the two-person game: four seats, never filled by built-in bots, so
# that the table is the two people and the two network bots queued here.
admin() { "$build/services/accounts/metropolis-admin" --pg "$METROPOLIS_PG" "$@"; }
ladder=duo
admin create-ladder "$ladder" --title "Two people, two bots" --seats 4 --placement-games 2 >/dev/null
admin create-season "$ladder" >/dev/null
admin create-player owner >/dev/null
bot_pids=()
stop_bots() { for pid in "${bot_pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap 'stop_bots; stack_test_end' EXIT
for i in 1 2; do
  admin create-bot "duo$i" --owner owner >/dev/null
  token=$(admin --json issue-token "duo$i" --label play | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  "$build/botkits/cpp/metropolis-bot" --ladder "$ladder" --matchmaker "$METROPOLIS_MATCHMAKER" --api-token "$token" \
    --bot heuristic --games 1 >"$work/duo$i.out" 2>"$work/duo$i.err" &
  bot_pids+=($!)
done

METROPOLIS_GATEWAY=$METROPOLIS_GATEWAY METROPOLIS_CHROMIUM=$chromium METROPOLIS_ARTIFACTS=$artifacts \
  METROPOLIS_LADDER=$ladder node tests/browser/play.mjs || fail "the play checks failed (screenshots in $artifacts)"
echo "play_test: passed (screenshots in $artifacts)"
