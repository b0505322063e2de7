#!/usr/bin/env bash
# A person's own bot, made in the web app, playing a ladder game (labels e2e,
# browser): the local stack with the gateway serving web/app and a ladder whose
# empty seats built-in bots fill; tests/browser/bots.mjs then signs a person up in
# headless Chromium, creates a bot and its token on "My bots" (errors, quotas,
# revocation and another person's requests checked on the way) and plays one
# game with metropolis-bot and the token copied from the page, with a note on
# each answer, which the replay shows to the person only. Then the stored game is
# checked here: the person's bot held a seat of it, and only that seat has debug
# notes. Screenshots go to BUILD_DIR/test-artifacts/bots/.
#
#   tests/browser/bots_test.sh BUILD_DIR
#
# Needs Node.js 20+ and Debian's chromium (scripts/setup.sh installs both;
# METROPOLIS_CHROMIUM names another binary). Without them it fails, never skips.
set -euo pipefail
# shellcheck source=tests/browser/lib/browser_stack.sh
source "$(dirname "$0")/lib/browser_stack.sh"
browser_stack_begin bots_test "${1:-}" bots
browser_stack_up

ladder=selfserve
bot=sams-bot
admin create-ladder "$ladder" --title "Self-service bots" --seats 4 --placement-games 1 --bots-after-ms 500 >/dev/null
admin create-season "$ladder" >/dev/null

browser_checks bots.mjs "the bot checks" METROPOLIS_LADDER="$ladder" METROPOLIS_MATCHMAKER="$METROPOLIS_MATCHMAKER" \
  METROPOLIS_BOT="$build/botkits/cpp/metropolis-bot" METROPOLIS_BOT_NAME="$bot" METROPOLIS_BOT_LOG="$work/$bot"

# The stored game: sam's bot held one of its seats, and it is sam's.
seats=$(sql "SELECT count(*) FROM game_seats s JOIN games g ON g.id = s.game_id JOIN identities b ON b.id = s.identity_id
             JOIN identities o ON o.id = b.owner_id
             WHERE g.ladder_id = '$ladder' AND b.name = '$bot' AND b.kind = 'bot' AND o.name = 'sam'")
[[ $seats == 1 ]] || fail "$bot holds $seats seats of stored games on $ladder, not 1"
echo "$test_name: the stored game has $bot's seat"
# The host kept notes for the seat played over the network only.
noted=$(sql "SELECT string_agg(s.name, ',') FROM game_debug d JOIN games g ON g.id = d.game_id
             JOIN game_seats s ON s.game_id = d.game_id AND s.seat = d.seat WHERE g.ladder_id = '$ladder'")
[[ $noted == "$bot" ]] || fail "the stored game's debug notes are of '$noted', not of $bot alone"
echo "$test_name: the stored game has $bot's notes only"
