#!/usr/bin/env bash
# Regenerates the golden playthroughs, engine/tests/testdata/golden/*.txt: a few
# short seeded games written out step by step by `metropolis-engine golden` (each
# position, each seat's view, the legal actions, the action chosen and its events).
# Run it only after an intended change of the rules or of the output, then review
# the diff: every changed line is a game that now goes differently. The ctest test
# golden_playthroughs checks the files against fresh output.
#
# Each file's first line records the flags that made it; the test reruns those.
# To add a game, add a line below (keep every file small: under 1 MB in all).
#
# Usage: scripts/regen-golden.sh [preset]   (default: check)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-check}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target metropolis-engine
bin="build/$preset/tools/engine/metropolis-engine"
dir=engine/tests/testdata/golden

# name: flags of `metropolis-engine golden`
games=(
  # Four random players offering trades: offers, answers, a trade, steals, a 7
  # with discards, the first barbarian attack, a progress card played.
  "random-trades: --seed 9 --trades --max-actions 150"
  # Four greedy players to a win at 5 VP: cards drawn and played, the merchant,
  # a barbarian attack, discards.
  "greedy-win: --seed 20 --players greedy,greedy,greedy,greedy --option victory_points=5"
  # Three seats on a random board, start player rolled, robber free from the
  # start, fiesepeter; two attacks, several cards played, a win at 6 VP.
  "three-seats: --seed 2 --players greedy,random,greedy --random-board --trades --option start_player=ROLL --option fiesepeter=true --option robber_locked_until_first_attack=false --option victory_points=6 --max-actions 180"
  # Card options: a draw on every red value, the strict hand limit of four,
  # the Saboteur against a city, an unlimited bank; Saboteur, Bishop,
  # Trade Monopoly and Inventor played, a trade.
  "card-options: --seed 10 --players greedy,random,greedy,random --trades --option red_die_table=6,6,6,6,6 --option progress_hand_limit=STRICT_FOUR --option saboteur=SABOTAGE_CITY --option defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK --option bank_limited=false --max-actions 120"
  # The base game (RULES.md 22) on a random board to a win at 6 VP: development
  # cards bought (the card seen by its buyer only), road building and knights
  # played, 7s with discards, trades.
  "base-game: --seed 3 --players greedy,random,greedy,random --random-board --trades --ruleset base --option victory_points=6 --max-actions 260"
)

mkdir -p "$dir"
rm -f "$dir"/*.txt
for game in "${games[@]}"; do
  name=${game%%:*}
  read -r -a flags <<<"${game#*: }"
  "$bin" golden "${flags[@]}" >"$dir/$name.txt"
done
du -ch "$dir"/*.txt
git --no-pager diff --stat -- "$dir" || true
