#!/usr/bin/env bash
# One ratings replica that may not write the leaderboards (label faults;
# docs/FAILURES.md, "A replica that may not write the leaderboards"). The stack runs
# two ratings replicas on one Redis; the second logs in as a Redis ACL user that may
# read the leaderboard keys but not write them (%R~metropolis:lb:*), as a replica
# deployed with the wrong credentials would. Two game hosts rate their games, one
# through each replica; 16 bots play three ladder games each. Every rating through
# the second replica is committed in PostgreSQL while Redis refuses its board write
# (NOPERM, logged and counted). Read through the first replica early, the board is
# built in Redis before those writes are refused. Afterwards every read of the
# board, through either replica (the second one first), must equal the board
# computed from PostgreSQL: board versions (project issue #14) make each reader see
# that Redis is behind and rebuild the board (the first replica) or read PostgreSQL
# (the second, whose rebuild is refused too). Without the comparison both serve the
# board Redis kept, without the second replica's games: a VIOLATION line each.
# protection: board_versions   (tests/faults/run.sh --negative switches it off)
#
#   tests/faults/leaderboard_acl_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin leaderboard_acl_test "${1:-}"
user=leaderboard_reader
password=lb-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
stack_up METROPOLIS_RATINGS_REPLICAS=2 METROPOLIS_GAMEHOSTS=2 \
  METROPOLIS_RATINGS2_FLAGS="--redis-user $user --redis-password $password"
# The user exists from here on; the second replica connects on demand (its rebuild at
# start was refused: no such user yet). It may run any command, but only read the
# leaderboard keys, so its board writes are refused key by key.
redis-cli -h "${METROPOLIS_REDIS%:*}" -p "${METROPOLIS_REDIS##*:}" ACL SETUSER "$user" reset on ">$password" \
  "%R~metropolis:lb:*" +@all -@admin -@dangerous | grep -qx OK || fail "ACL SETUSER $user failed"

ctl() { "$build/tools/ctl/metropolisctl" --host "$1" --token "$METROPOLIS_ADMIN_TOKEN" --timeout-ms 10000 "${@:2}"; }
# The board of ladder open as a read through ADDRESS shows it: "identity games" by rank.
board_through() {
  ctl "$1" --json leaderboard --ladder open --limit 500 | python3 -c '
import json, sys
board = json.load(sys.stdin)
for e in board.get("entries", []):
    print(e.get("identityId", e.get("identity_id")), e.get("games", 0))'
}
# The same board computed from PostgreSQL: ranked players (placement played) by
# ordinal, then identity as text, both descending (as Redis orders ties).
board_in_postgres() {
  sql "SELECT identity_id || ' ' || games FROM ratings WHERE ladder_id = 'open' AND season = 1 AND games >= 2
       ORDER BY mu - 3 * sigma DESC, identity_id::text COLLATE \"C\" DESC LIMIT 500"
}

start_ladder_demo 16 3
# Once a player has played its placement games the board is read through the first
# replica, which builds it in Redis: the games rated through the second from then on
# are the writes Redis refuses.
placed() { (($(sql "SELECT count(*) FROM ratings WHERE games >= 2") > 0)); }
wait_while_demo_plays placed
placed || fail "no player finished its placement games"
board_through "$METROPOLIS_RATINGS" >/dev/null || fail "the first read of the board failed"
demo_status=0
wait "$demo" || demo_status=$?
((demo_status == 0)) || { cat "$work/demo.log" >&2; fail "the ladder was not played to its end"; }
expect_games_per_bot 3
expect_all_rated
expect_no_identity_twice
expect_games_as_played open
expect_rated_once

# The fault happened: both replicas rated games, and Redis refused the second's writes.
rated_by() { metric "$(metrics_of "$1")" 'metropolis_ratings_games_rated_total{result="rated"}'; }
rated1=$(rated_by ratings) rated2=$(rated_by ratings2)
refused=$(metric "$(metrics_of ratings2)" 'metropolis_ratings_leaderboard_write_failures_total{reason="refused"}')
((rated1 > 0 && rated2 > 0)) || fail "games were not rated through both replicas ($rated1 and $rated2)"
((refused > 0)) || fail "Redis refused no write of the second replica: the fault did not happen"
grep -q "leaderboard write refused by Redis" "$METROPOLIS_STACK_DIR/logs/ratings2.log" ||
  fail "the second replica did not log the writes Redis refused"

# Every read, through either replica, equals the board computed from PostgreSQL.
violations=0
violation() { echo "VIOLATION $1"; violations=$((violations + 1)); }
board_in_postgres >"$work/expected"
[[ -s $work/expected ]] || fail "PostgreSQL holds no ranked player"
for replica in ratings2 ratings ratings2 ratings; do
  address=$METROPOLIS_RATINGS
  [[ $replica == ratings2 ]] && address=$METROPOLIS_RATINGS2
  if ! board_through "$address" >"$work/shown" 2>"$work/read.err"; then
    violation "read: the board could not be read through $replica: $(tr '\n' ' ' <"$work/read.err")"
  elif ! cmp -s "$work/expected" "$work/shown"; then
    differ=$(diff "$work/expected" "$work/shown" | grep -c '^[<>]' || true)
    violation "board: read through $replica, $differ lines differ from PostgreSQL's board ($(wc -l <"$work/expected") ranked players)"
  fi
done
((violations == 0)) || fail "a board read differs from PostgreSQL ($violations reads)"
from_pg=$(metric "$(metrics_of ratings2)" metropolis_ratings_leaderboard_reads_from_postgres_total)
rebuilds=$(metric "$(metrics_of ratings)" metropolis_ratings_leaderboard_rebuilds_total)
expect_checked --ladder open --every-game-recorded --games-per-bot 3
echo "leaderboard_acl_test: passed ($rated1 + $rated2 games rated through the two replicas; Redis refused" \
  "$refused writes of the second; every read equals PostgreSQL's board: $rebuilds rebuilds by the first," \
  "$from_pg reads from PostgreSQL by the second)"
