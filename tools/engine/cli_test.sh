#!/usr/bin/env bash
# Smoke test of the metropolis-engine program: every subcommand once, its exit
# codes and the messages a person relies on.
#
#   tools/engine/cli_test.sh path/to/metropolis-engine
set -euo pipefail

bin=${1:?usage: cli_test.sh path/to/metropolis-engine}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run NAME EXPECTED_EXIT ARGS...: runs the program, keeps stdout and stderr in
# $tmp/NAME.out and $tmp/NAME.err, and checks the exit code.
run() {
  local name=$1 expected=$2
  shift 2
  local code=0
  "$bin" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || code=$?
  if [[ $code != "$expected" ]]; then
    fail "$name: exit $code, expected $expected ($*)"
    sed 's/^/    /' "$tmp/$name.err" >&2
  fi
}

# expect NAME out|err TEXT: the output contains TEXT (a fixed string).
expect() {
  if ! grep -qF -- "$3" "$tmp/$1.$2"; then
    fail "$1: std$2 lacks '$3'"
    sed 's/^/    /' "$tmp/$1.$2" | head -20 >&2
  fi
}

# ---- help and flag errors ----------------------------------------------------
run help 0 --help
for cmd in sim replay apply perft sea-map reference; do
  expect help out "$cmd"
  run "help-$cmd" 0 "$cmd" --help
  expect "help-$cmd" out "usage: metropolis-engine $cmd"
done
run no-command 2
run bad-command 2 frobnicate
expect bad-command err "unknown command 'frobnicate'"
run bad-flag 2 sim --bogus
expect bad-flag err "unknown flag '--bogus'"
expect bad-flag err "usage: metropolis-engine sim"
run bad-value 2 sim --games many
expect bad-value err "flag '--games': 'many' is not an integer"
run bad-player 2 sim --players random,genius,random,random
expect bad-player err "unknown bot 'genius'"
run bad-seats 2 sim --players random,random --seats 4
expect bad-seats err "--players names 2 players for 4 seats"

# ---- sim ---------------------------------------------------------------------
sim_flags=(sim --games 20 --seed 11 --players greedy,random,random,random --max-actions 4000)
run sim 0 "${sim_flags[@]}" --threads 2 --jsonl "$tmp/games.jsonl"
grep -qE '^games +20$' "$tmp/sim.out" || fail "sim: the table does not report 20 games"
for row in "mean length (actions)" "mean length (turns)" "barbarian attacks per game" \
  "metropolises placed per game" "games at the length cap" "games/s" "actions/s"; do
  expect sim out "$row"
done
expect sim out "greedy"
lines=$(wc -l <"$tmp/games.jsonl")
[[ $lines == 20 ]] || fail "sim: $lines JSON lines, expected 20"
head -c 40 "$tmp/games.jsonl" | grep -qF '{"rules_version":1,' || fail "sim: JSON lines start oddly"
# Metropolises are counted by the action that places one (MET-2), not from
# events: the table agrees with the games' own records, with a seat that keeps
# a knowledge tracker (greedy: the engine is asked for events) and without
# (random only: it is asked for none).
check_metropolises() {  # NAME GAMES JSONL
  local placed want
  placed=$(grep -o '"place_metropolis [^"]*"' "$3" | wc -l)
  [[ $placed -gt 0 ]] || fail "$1: no metropolis placed in $2 games: the check would show nothing"
  want=$(awk -v n="$placed" -v g="$2" 'BEGIN { printf "%.2f", n / g }')
  grep -qE "^metropolises placed per game +$want\$" "$tmp/$1.out" ||
    fail "$1: the table's metropolises per game is not $want ($placed placed in the records)"
}
check_metropolises sim 20 "$tmp/games.jsonl"
run sim-random 0 sim --games 40 --seed 1 --threads 2 --jsonl "$tmp/random.jsonl"
check_metropolises sim-random 40 "$tmp/random.jsonl"

# The same flags give the same games whatever the thread count.
run sim1 0 "${sim_flags[@]}" --threads 1 --jsonl "$tmp/games1.jsonl"
cmp -s "$tmp/games.jsonl" "$tmp/games1.jsonl" || fail "sim: games differ between 1 and 2 threads"
# Game i of seed S is game 0 of seed S+i.
run sim-one 0 sim --games 1 --seed 14 --players greedy,random,random,random --max-actions 4000 --jsonl "$tmp/one.jsonl"
sed -n 4p "$tmp/games.jsonl" | cmp -s - "$tmp/one.jsonl" || fail "sim: game 3 of seed 11 is not game 0 of seed 14"
# Every bot plays in sim, a search spec's commas included; the offers the
# heuristic makes are checked as they are applied.
run sim-bots 0 sim --games 2 --seed 1 --threads 2 --players heuristic,search:iterations=20,threads=1,greedy --max-actions 600
expect sim-bots out "search:iterations=20,threads=1"
expect sim-bots out "heuristic"

# ---- replay ------------------------------------------------------------------
run replay 0 replay --file "$tmp/games.jsonl" --line 3 --step 0 --step 10
expect replay out "== step 0 =="
expect replay out "== step 10: "
expect replay out "position: "
expect replay out "verified: "
sed -n 5p "$tmp/games.jsonl" >"$tmp/stdin.json"
run replay-stdin 0 replay <"$tmp/stdin.json"
expect replay-stdin out "verified: "
run replay-many 2 replay --file "$tmp/games.jsonl"
expect replay-many err "the input has 20 records; pick one with --line K"
sed -n 1p "$tmp/games.jsonl" | sed 's/"rules_version":1/"rules_version":999/' >"$tmp/future.json"
run replay-version 1 replay --file "$tmp/future.json"
expect replay-version err "rules version"
sed -n 1p "$tmp/games.jsonl" | sed 's/"actions":\["[^"]*"/"actions":["end_turn"/' >"$tmp/illegal.json"
run replay-illegal 1 replay --file "$tmp/illegal.json"
expect replay-illegal err "step 1: end_turn: "

# ---- analyse -----------------------------------------------------------------
run analyse 0 analyse --file "$tmp/games.jsonl" --line 3 --positions 12 --search-iterations 50
expect analyse out "production rolls"
expect analyse out "luck (cards)"
expect analyse out "chance of winning, seat by seat"
expect analyse out "13 positions of "
run analyse-json 0 analyse --file "$tmp/games.jsonl" --line 3 --positions 12 --search-iterations 50 --json
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); assert len(a["graph"]) == 13 and len(a["luck"]["seats"]) == 4' \
  "$tmp/analyse-json.out" || fail "analyse --json: not the expected JSON"
run analyse-illegal 1 analyse --file "$tmp/illegal.json"
expect analyse-illegal err "step 1: end_turn: "
run analyse-bad-flag 2 analyse --file "$tmp/illegal.json" --positions 0
expect analyse-bad-flag err "--positions"
run analyse-calibrate-file 2 analyse --calibrate 3 --file "$tmp/illegal.json"
run analyse-calibrate 0 analyse --calibrate 3 --positions 5
expect analyse-calibrate out "(best fit)"

# ---- apply -------------------------------------------------------------------
run apply-new 0 apply --new
expect apply-new out "position: "
expect apply-new out "next: seat 0, "
# The legal actions are the indented lines after "next:" (the board picture is indented too).
sed -n '/^next: /,$p' "$tmp/apply-new.out" | sed -n 's/^  //p' >"$tmp/legal.txt"
first=$(head -n1 "$tmp/legal.txt")
[[ -n $first ]] || fail "apply: no legal action listed for a new game"
run apply-legal 0 apply --new "$first"
expect apply-legal out "action 1 (seat 0): $first"
run apply-illegal 1 apply --new "$first" end_turn
expect apply-illegal err "action 2 'end_turn': "
run apply-malformed 1 apply --new "build_road e99"
expect apply-malformed err "action 1 'build_road e99': "
position=$(grep -m1 '^position: ' "$tmp/apply-legal.out" | sed 's/^position: //')
run apply-position 0 apply --position "$position"
grep -qF "position: $position" "$tmp/apply-position.out" || fail "apply: the position does not round-trip"
run apply-bad-position 1 apply --position "not a position"
expect apply-bad-position err "position: "
run apply-two-sources 2 apply --new --position "$position"
expect apply-two-sources err "give exactly one of --position, --position-file and --new"
# --json: the steps, the position and the next actions as one object; a refusal in it too (exit 1).
run apply-json 0 apply --new --json "$first"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["refused"] is None and len(o["steps"]) == 1 and o["steps"][0]["action"] == sys.argv[2] and o["next"]["legal"] and len(o["seats"]) == 4 and "longest_road" in o["seats"][0], o' \
  "$tmp/apply-json.out" "$first" || fail "apply --json: unexpected object"
run apply-json-refused 1 apply --new --json end_turn
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["refused"]["index"] == 1 and o["refused"]["error"].startswith("SET-2: "), o' \
  "$tmp/apply-json-refused.out" || fail "apply --json: the refusal is not in the object"
# --option with a position replaces that option in it; what cannot apply is refused precisely.
run apply-position-option 0 apply --position "$position" --option victory_points=12
expect apply-position-option out "opts=[victory_points=12]"
run apply-position-ruleset 2 apply --position "$position" --option ruleset=base
expect apply-position-ruleset err "--option ruleset=base: a position's ruleset is the second word of its notation"
run apply-position-seats 2 apply --position "$position" --seats 3
expect apply-position-seats err "--seats only applies with --new"
run apply-position-bad-option 2 apply --position "$position" --option victory_points=banana # rulebook-lint: not a rules value
expect apply-position-bad-option err "--option victory_points=banana: " # rulebook-lint: not a rules value
# The text picture gives each seat's longest road.
expect apply-position out ", longest road "

# ---- perft -------------------------------------------------------------------
run perft 0 perft --new --depth 2 --divide
legal=$(wc -l <"$tmp/legal.txt")
grep -qE "^1 +$legal " "$tmp/perft.out" || fail "perft: depth 1 is not the $legal legal actions of a new game"
grep -qE '^2 +[0-9]+ ' "$tmp/perft.out" || fail "perft: no count at depth 2"
expect perft out "divide at depth 2:"
run perft-fixed 0 perft --new --depth 2 --chance fixed --seed 3
run perft-bad 2 perft --new --chance sometimes
expect perft-bad err "--chance sometimes: expected 'expand' or 'fixed'"

# ---- the base game (RULES.md 22) ---------------------------------------------
base_flags=(sim --games 12 --seed 5 --players greedy,random,random,random --random-board)
run sim-base 0 "${base_flags[@]}" --ruleset base --threads 2 --jsonl "$tmp/base.jsonl"
expect sim-base out "options: ruleset=base"
for row in "development cards bought per game" "development cards played per game" \
  "games ending with Largest Army held"; do
  expect sim-base out "$row"
done
grep -qE '^games at the length cap +0$' "$tmp/sim-base.out" || fail "sim-base: base games hit the length cap"
head -c 400 "$tmp/base.jsonl" | grep -qF 'ruleset=base' || fail "sim-base: the JSON lines do not record the ruleset"
# --option ruleset=base is the same configuration, so the same games.
run sim-base-option 0 "${base_flags[@]}" --option ruleset=base --threads 1 --jsonl "$tmp/base1.jsonl"
cmp -s "$tmp/base.jsonl" "$tmp/base1.jsonl" || fail "sim: --ruleset base and --option ruleset=base play different games"
run sim-base-validate 0 sim --ruleset base --games 4 --seed 2 --validate --threads 2
run sim-bad-ruleset 2 sim --ruleset chess
expect sim-bad-ruleset err "--ruleset chess: "
sed -n 2p "$tmp/base.jsonl" >"$tmp/base-one.json"
run replay-base 0 replay --file "$tmp/base-one.json" --step 20
expect replay-base out "verified: "
run apply-base 0 apply --new --ruleset base
expect apply-base out "position: v1 base "
run perft-base 0 perft --new --ruleset base --depth 2
grep -qE '^1 +54 ' "$tmp/perft-base.out" || fail "perft-base: a new base game does not offer 54 settlements"
run arena-base 0 arena --ruleset base --candidate heuristic --opponents random --games 8 --seed 1 --threads 2
expect arena-base out "candidate wins"
expect arena-base out "options: ruleset=base"
grep -qE '^games at the length cap +0$' "$tmp/arena-base.out" || fail "arena-base: base games hit the length cap"
expect arena-base out "95% interval by set (t, 2 sets)"
expect arena-base out "design effect"
# --independent: every game its own board and dice (the control for duplicate sets).
run arena-independent 0 arena --ruleset base --candidate heuristic --opponents random --games 8 --seed 1 --threads 2 \
  --independent --json "$tmp/arena-independent.json"
expect arena-independent out "every game its own board and dice"
grep -qF '"independent":true' "$tmp/arena-independent.json" || fail "arena-independent: the JSON does not say so"
grep -qF '"sets":2,' "$tmp/arena-independent.json" || fail "arena-independent: the JSON has no sets"
# The pairs a tournament takes: the candidate minus one opponent seat, per set.
grep -qE '^random \(first seat\) +2 +' "$tmp/arena-independent.out" || fail "arena-independent: no pair row"
grep -qE '"pairs":\[\{"opponent":"random","sets":2,"mean":[0-9.-]+,"sd":[0-9.]+\}\]' "$tmp/arena-independent.json" ||
  fail "arena-independent: the JSON has no pairs"
run arena-independent-board 2 arena --independent --default-board --games 4
expect arena-independent-board err "cannot be combined with --default-board"
# --sprt-runs: the tournament's sequential test run on sets drawn from the arena's.
run arena-sprt 0 arena --ruleset base --candidate heuristic --opponents random --games 8 --seed 1 --threads 2 \
  --sprt-runs 20 --sprt-cap 50 --json "$tmp/arena-sprt.json"
grep -qE '^random +mean of 3 seats +played +2 ' "$tmp/arena-sprt.out" || fail "arena-sprt: no row for the played pool"
expect arena-sprt out "centred+0.1"
grep -qF '"sprt":{"runs":20,"cap":50,' "$tmp/arena-sprt.json" || fail "arena-sprt: the JSON has no sequential test"
run arena-sprt-bad 2 arena --games 4 --sprt-runs -1

# ---- Seafarers (RULES.md 23): refused as a ruleset, its maps printed ---------
run sim-seafarers 2 sim --games 1 --ruleset seafarers
expect sim-seafarers err "seafarers, RULES.md 23, is not playable yet"
run sea-map 0 sea-map --scenario THROUGH_THE_DESERT --seats 4
expect sea-map out "THROUGH_THE_DESERT for 4 seats: 76 hexes, 186 nodes, 261 edges, 9 harbors"
run sea-map-regions 0 sea-map --scenario NEW_SHORES --seats 3 --regions
expect sea-map-regions out "robber off the board"
run sea-map-json 0 sea-map --scenario NEW_SHORES --seats 3 --board random:7 --json
expect sea-map-json out '{"scenario":"NEW_SHORES","seats":3,'
run sea-map-bad 2 sea-map --scenario GREATER_CATAN
expect sea-map-bad err "expected NEW_SHORES or THROUGH_THE_DESERT"
run sea-map-bad-seats 2 sea-map --scenario NEW_SHORES --seats 5

# ---- reference (docs/PROTOCOL.md; the test protocol_reference compares the whole) ----
run reference-md 0 reference --markdown
expect reference-md out "# Protocol reference"
expect reference-md out '| 12 | `BUILD_ROAD` | `build_road e<edge>`'
run reference-json 0 reference --json
expect reference-json out '"constant": "MOVE_ROBBER"'
run reference-none 2 reference
expect reference-none err "give exactly one of --markdown and --json"
run reference-both 2 reference --markdown --json
expect reference-both err "give exactly one of --markdown and --json"

if ((failures)); then
  echo "cli_test: $failures failures" >&2
  exit 1
fi
echo "cli_test: all passed"
