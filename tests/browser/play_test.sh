#!/usr/bin/env bash
# People playing from the web app in headless Chromium (labels e2e, browser): the
# local stack with the gateway serving web/app; a ladder where two network bots
# queue; then tests/browser/play.mjs signs people up and plays by clicking only
# what the page offers: a whole practice game against three built-in bots (its
# board compared with the stored game's positions, a reload in the middle, offers
# from the bots answered and a bot's counter to one of the person's offers, and
# its analysis on the game-over screen once the replays service made it, then
# in the luck panel of the player's page), and
# two people matched with the two bots on the ladder, one offering a trade the
# other accepts, both playing on to the end; then the game's result on the
# ladder's leaderboard page and its replay. Then tests/browser/friends.mjs: two
# people at a friends' table rated on a casual ladder (created in the lobby,
# joined from its link on a phone, started by its creator), a trade between
# them, a resignation, the game-over summary with the rating change, and a
# rematch from the table. Screenshots go to BUILD_DIR/test-artifacts/play/.
#
#   tests/browser/play_test.sh BUILD_DIR
#
# Needs Node.js 20+ and Debian's chromium (scripts/setup.sh installs both;
# METROPOLIS_CHROMIUM names another binary). Without them it fails, never skips.
set -euo pipefail
# shellcheck source=tests/browser/lib/browser_stack.sh
source "$(dirname "$0")/lib/browser_stack.sh"
browser_stack_begin play_test "${1:-}" play
browser_stack_up

# The ladder of the two-person game: four seats, never filled by built-in bots, so
# that the table is the two people and the two network bots queued here. One
# placement game: the people's single game ranks them, so the leaderboard's
# first page shows them.
ladder=duo
admin create-ladder "$ladder" --title "Two people, two bots" --seats 4 --placement-games 1 >/dev/null
admin create-season "$ladder" >/dev/null
admin create-player owner >/dev/null
for i in 1 2; do start_bot "duo$i" play --ladder "$ladder" --bot heuristic --games 1; done
# The friends' table's casual ladder: four seats like the table, where nobody
# queues; one placement game, as above.
casual=casual
admin create-ladder "$casual" --title "Friends, rated" --seats 4 --placement-games 1 >/dev/null
admin create-season "$casual" >/dev/null

browser_checks play.mjs "the play checks" METROPOLIS_LADDER="$ladder"
friends_started=$SECONDS
browser_checks friends.mjs "the friends' table checks" METROPOLIS_CASUAL_LADDER="$casual"
echo "$test_name: the friends' table checks took $((SECONDS - friends_started)) s"
