#!/usr/bin/env bash
# End to end through real services (label e2e): the local stack with two
# matchmaker replicas, 8 bots queueing on a ladder for 2 games each. Every bot
# plays its games, no ticket lands in two games, every game is stored and rated
# exactly once, and the leaderboard ranks all 8.
#
#   tests/e2e/ladder_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin ladder_test "${1:-}"

METROPOLIS_MATCHMAKERS=2 deploy/local/stack.sh up "$build" || fail "the stack did not start"
# With the main job's clocks (scripts/run.sh): a person on the demo ladder gets
# a person's time, not a bot's 10 s per decision.
scripts/ladder_demo.sh --bots 8 --games 2 --decision-ms 60000 --time-bank-ms 300000 ||
  fail "the bots did not play their games"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
clocks=$("$build/tools/admin/metropolis-admin" --json ladders |
  python3 -c 'import json, sys; l = [l for l in json.load(sys.stdin) if l["id"] == "open"][0]; print(l["decision_ms"], l["time_bank_ms"])')
[[ $clocks == "60000 300000" ]] || fail "the demo ladder's clocks are '$clocks' (ms per decision, bank), not the 60000 300000 asked"

expect_games_per_bot 2
expect_all_rated
games=$(sql "SELECT count(*) FROM games WHERE ladder_id = 'open'")
[[ $games -ge 4 ]] || fail "$games games stored, expected at least 4"
# Each bot in exactly 2 games (built-in fill-in seats have no identity), never twice in one.
expect_no_identity_twice
expect_rated_once
expect_checked --ladder open --every-game-recorded --games-per-bot 2
per_bot=$(sql "SELECT string_agg(DISTINCT n::text, ',') FROM (SELECT identity_id, count(*) AS n FROM game_seats
               WHERE identity_id IS NOT NULL GROUP BY 1) x")
[[ $per_bot == 2 ]] || fail "games per bot: $per_bot, expected 2 for every bot"
[[ $(sql "SELECT count(DISTINCT identity_id) FROM game_seats WHERE identity_id IS NOT NULL") == 8 ]] ||
  fail "not all 8 bots played"
# Rated exactly once: one history row per identity seat, 2 games per rating.
seats=$(sql "SELECT count(*) FROM game_seats s JOIN rated_games r ON r.game_id = s.game_id
             WHERE r.rated AND s.identity_id IS NOT NULL")
[[ $(sql "SELECT count(*) FROM rating_history") == "$seats" ]] || fail "rating history rows != rated seats"
[[ $(sql "SELECT string_agg(DISTINCT games::text, ',') FROM ratings") == 2 ]] || fail "a rating counts other than 2 games"

# One game followed through every service's log by its id, under the request id
# the matchmaker gave it (docs/OBSERVABILITY.md, "Following a game through the logs").
game=$(sql "SELECT game_id FROM rated_games WHERE rated ORDER BY game_id LIMIT 1")
logs=$METROPOLIS_STACK_DIR/logs
logged() {  # FILE MESSAGE: FILE has a MESSAGE line about $game under $request_id
  grep -h "msg=\"$2\"" "$1" | grep " game=$game\( \|$\)" | grep " request_id=$request_id\( \|$\)" >/dev/null
}
request_id=$(grep -h "msg=\"game created\"" "$logs"/matchmaker*.log | grep " game=$game " |
  sed -n 's/.* request_id=\([^ ]*\).*/\1/p')
[[ -n $request_id ]] || fail "no matchmaker's log says it created game $game with a request id"
logged "$logs/gamehost1.log" "game created" || fail "the game host's log has no 'game created' for $game ($request_id)"
logged "$logs/replays.log" "game stored" || fail "the replays log has no 'game stored' for $game ($request_id)"
logged "$logs/ratings.log" "game rated" || fail "the ratings log has no 'game rated' for $game ($request_id)"

total=$("$build/tools/ctl/metropolisctl" --host "$METROPOLIS_RATINGS" --token "$METROPOLIS_ADMIN_TOKEN" --json \
  leaderboard --ladder open | python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])')
[[ $total == 8 ]] || fail "the leaderboard ranks $total players, expected 8"

# A person through metropolisctl: an account and a token made over gRPC, queued
# with `enqueue` beside three bots, the printed seat played to the end.
ctl() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" "$@"; }
# The account and its token at the Accounts service (metropolis-accounts).
accounts_ctl() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_ACCOUNTS" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
accounts_ctl create-player person >/dev/null || fail "create-player over gRPC"
person_token=$(accounts_ctl --json issue-token person |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])') || fail "issue-token over gRPC"
ctl --token "$person_token" enqueue --ladder open >"$work/enqueue.out" 2>"$work/enqueue.err" &
enqueue=$!
bots=()
for token in $(ls "$METROPOLIS_STACK_DIR"/demo/*.token | head -3); do
  "$build/botkits/cpp/metropolis-bot" --ladder open --matchmaker "$METROPOLIS_MATCHMAKER" --api-token "$(cat "$token")" \
    --bot random --games 1 >/dev/null 2>&1 &
  bots+=($!)
done
wait "$enqueue" || { cat "$work/enqueue.err" >&2; fail "enqueue did not seat the person"; }
grep -q "^queued on ticket" "$work/enqueue.out" || fail "enqueue showed no progress: $(cat "$work/enqueue.out")"
play=$(grep "^play it: " "$work/enqueue.out" | sed 's/^play it: metropolis-bot //') || fail "enqueue printed no seat"
# shellcheck disable=SC2086 # the printed flags, split on purpose
"$build/botkits/cpp/metropolis-bot" $play --quiet >"$work/person.out" || fail "the person's seat was not played"
for pid in "${bots[@]}"; do wait "$pid" || fail "a bot beside the person failed"; done
person_games() { sql "SELECT count(*) FROM game_seats s JOIN identities i ON i.id = s.identity_id WHERE i.name = 'person'"; }
for _ in $(seq 1 100); do  # the host hands the game over after it ends
  [[ $(person_games) == 0 ]] || break
  sleep 0.1
done
person_games=$(person_games)
[[ $person_games == 1 ]] || fail "the person's game is stored $person_games times"
echo "ladder_test: passed ($games games, 8 bots, 2 matchmakers, a person queued with metropolisctl)"
