#!/usr/bin/env bash
# The web app in headless Chromium against the whole stack (labels e2e, browser):
# the local stack with the gateway serving web/app, bots playing real ladder
# games and a small tournament, and a game kept waiting to be followed live.
# tests/browser/run.mjs then drives Chromium (playwright-core from web/'s
# lockfile): the landing page and its links, the lobby's default ladder (a second,
# three-seat ladder sorts first), the account page in two browsers (a session
# ended, the password changed, the other browser signed out) -> leaderboard -> player -> replay stepped to the end with every piece
# and score checked against the positions the gateway reports, a step link
# opened directly, the game browser, tournament standings, the replay's analysis
# asked for by a person and computed by the replays service (its marks and
# points move the replay), and the live game followed to its end. Screenshots go to BUILD_DIR/test-artifacts/browser/.
#
#   tests/browser/browser_test.sh BUILD_DIR
#
# Needs Node.js 20+ and Debian's chromium (scripts/setup.sh installs both;
# METROPOLIS_CHROMIUM names another binary). Without them it fails, never skips.
set -euo pipefail
# shellcheck source=tests/browser/lib/browser_stack.sh
source "$(dirname "$0")/lib/browser_stack.sh"
browser_stack_begin browser_test "${1:-}" browser tools/ctl/metropolisctl

# ---- The stack, with games to show -----------------------------------------------------

browser_stack_up

# A three-seat ladder whose id sorts before the demo's "open": the lobby and the
# leaderboards must open on the main ladder, not on the first id (home.mjs).
admin create-ladder casual --title "Casual, 3 players" --seats 3 --placement-games 1 >/dev/null
admin create-season casual >/dev/null

# Four bots compete in a small tournament (a round robin of four tables, so that
# every entrant has an interval) while the ladder's bots play.
admin create-player owner >/dev/null
for i in 1 2 3 4; do start_bot "cup$i" browser --compete --bot heuristic; done
"$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" \
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
# A nightly tournament taking registrations, one bot entered by an administrator.
ctl_mm() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
ctl_mm create-tournament nightly --format duplicate --starts-in 1d --repeat 1d --title "Nightly cup" \
  >"$work/nightly.log" 2>&1 || { cat "$work/nightly.log" >&2; fail "create-tournament nightly failed"; }
ctl_mm join-tournament nightly --identity cup1 --accounts "$METROPOLIS_ACCOUNTS" >/dev/null ||
  fail "an administrator could not enter cup1"
# An arena of the cup's bots, which have stopped: it runs, waiting for them.
ctl_mm create-tournament evening --format arena --arena 2h --entrants cup1,cup2,cup3,cup4 --accounts "$METROPOLIS_ACCOUNTS" \
  >"$work/evening.log" 2>&1 || { cat "$work/evening.log" >&2; fail "create-tournament evening --format arena failed"; }

# The live game, which run.mjs creates when it is ready to follow it: seat 0 waits
# for its player, whom run.mjs then starts; built-in bots play the other seats.
live_create=$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$build/tools/ctl/metropolisctl" \
  --host "$METROPOLIS_GAMEHOST" --token "$METROPOLIS_GAMEHOST_ADMIN_TOKEN" --json create-game \
  --seats watcher,b1,b2,b3 --builtin 1:heuristic --builtin 2:heuristic --builtin 3:heuristic --ladder exhibition --seed 7)
live_bot=$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$build/botkits/cpp/metropolis-bot" \
  --host "$METROPOLIS_GAMEHOST" --bot search:ms=15 --quiet)

# ---- The browser ------------------------------------------------------------------------

browser_checks run.mjs "the browser checks" \
  METROPOLIS_LIVE_CREATE="$live_create" METROPOLIS_LIVE_BOT="$live_bot" METROPOLIS_TOURNAMENT=cup \
  METROPOLIS_REGISTERING=nightly METROPOLIS_ARENA=evening
