#!/usr/bin/env bash
# Tournaments end to end (label e2e): the whole stack, five bots competing
# (metropolis-bot --compete), a round robin of 4-seat tables and a duplicate set
# created with metropolisctl, then a tournament the bots enter themselves during
# its registration window and, meanwhile, a one-minute arena. The matchmaker is killed with SIGKILL in the
# middle of the round robin and started again; the bots reconnect. Checked:
# both tournaments finish; every pairing of the round robin is played exactly
# once, each game seated as scheduled; the duplicate set shares its board and
# dice and its rotations are played at once, each on a session of its own; the
# standings metropolisctl prints are those recomputed here from the
# stored games; every game is stored once.
#
#   tests/e2e/tournament_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin tournament_test "${1:-}"

deploy/local/stack.sh up "$build" >"$work/up.log" || { cat "$work/up.log" >&2; fail "the stack did not start"; }
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
ctl() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }

bot_pids=() bot_tokens=()
# Four sessions (Compete streams) of capacity 2 each: a round-robin game and the
# duplicate set's four rotations at once, each rotation on a session of its own.
start_compete_bots tb 5 "$METROPOLIS_MATCHMAKER" 2 4
trap 'stop_compete_bots; stack_test_end' EXIT

ctl create-tournament rr --format round-robin --entrants tb1,tb2,tb3,tb4,tb5 --seed 11 --decision-ms 2000 \
  --title "e2e round robin" >"$work/create.log" || { cat "$work/create.log" >&2; fail "create-tournament rr"; }
grep -q "20 games scheduled" "$work/create.log" || fail "round robin of 5 at tables of 4: not 20 games ($(cat "$work/create.log"))"
ctl create-tournament dup --format duplicate --entrants tb1,tb2,tb3,tb4 --seed 12 --decision-ms 2000 >/dev/null ||
  fail "create-tournament dup"
# Bad input is refused with a usage error or the service's status, and writes nothing.
if ctl create-tournament bad --format knockout --entrants tb1,tb2,tb3,tb4 2>"$work/bad.err"; then
  fail "a knockout tournament was accepted"
fi
grep -q "format" "$work/bad.err" || fail "the refusal does not name the format: $(cat "$work/bad.err")"
[[ $(sql "SELECT count(*) FROM tournaments WHERE id = 'bad'") == 0 ]] || fail "a refused tournament was written"

# A stored rotation of the duplicate set is not served before the set is revealed:
# export-game refuses it while the replays service holds no reveal of the set. A
# game served is a failure only when no reveal had been made by then.
replays_ctl() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_REPLAYS" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
hidden_seen=""
for _ in $(seq 1 600); do
  game=$(sql "SELECT id FROM games WHERE tournament_id = 'dup' ORDER BY finished_unix_ms LIMIT 1")
  if [[ -n $game ]]; then
    if replays_ctl export-game "$game" >/dev/null 2>"$work/hidden.err"; then
      [[ $(sql "SELECT count(*) FROM game_reveals WHERE tournament_id = 'dup'") != 0 ]] ||
        fail "duplicate game $game was served before its set was revealed"
    else
      grep -q "FAILED_PRECONDITION" "$work/hidden.err" || fail "export-game $game: $(cat "$work/hidden.err")"
      hidden_seen=$game
    fi
    break
  fi
  sleep 0.1
done
[[ -n $game ]] || fail "no rotation of the duplicate set was stored within a minute"
if [[ -n $hidden_seen ]]; then
  echo "tournament_test: duplicate game $game refused while its set plays"
else
  echo "tournament_test: duplicate game $game served, its set already revealed"
fi

# Kill the matchmaker in the middle of the round robin, then start it again as it was.
finished() { sql "SELECT count(*) FROM tournament_games WHERE tournament_id = '$1' AND state = 'finished'"; }
for _ in $(seq 1 600); do
  (($(finished rr) >= 6)) && break
  sleep 0.1
done
at_kill=$(finished rr)
((at_kill >= 6 && at_kill < 20)) || fail "the round robin was not under way before the restart ($at_kill finished)"
mm_pid=$(cat "$METROPOLIS_STACK_DIR/matchmaker.pid")
mapfile -d '' mm_cmd <"/proc/$mm_pid/cmdline"
kill -KILL "$mm_pid"
sleep 1
"${mm_cmd[@]}" >>"$METROPOLIS_STACK_DIR/logs/matchmaker.log" 2>&1 &
echo "$!" >>"$METROPOLIS_STACK_DIR/pids"
echo "$!" >"$METROPOLIS_STACK_DIR/matchmaker.pid"
echo "tournament_test: matchmaker killed and restarted after $at_kill of 20 round-robin games"

timeout 300 "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" \
  watch-tournament rr --interval-ms 500 >"$work/watch.log" 2>&1 || { cat "$work/watch.log" >&2; fail "watching rr"; }
grep -q "20/20 games finished" "$work/watch.log" || fail "watch-tournament did not see the end: $(tail -3 "$work/watch.log")"
for _ in $(seq 1 600); do
  [[ $(sql "SELECT state FROM tournaments WHERE id = 'dup'") == finished ]] && break
  sleep 0.1
done
[[ $(sql "SELECT string_agg(state, ',' ORDER BY id) FROM tournaments") == "finished,finished" ]] ||
  fail "tournaments not finished: $(sql "SELECT string_agg(id || '=' || state, ',') FROM tournaments")"
grep -q "competing again" "$work"/bots/*.err || fail "no bot reconnected after the matchmaker restart"

# Every pairing once, each game seated as scheduled and stored under its tournament.
[[ $(sql "SELECT count(DISTINCT entrants) FROM tournament_games WHERE tournament_id = 'rr'") == 20 ]] ||
  fail "the round robin's 20 seatings are not all distinct"
misseated=$(sql "SELECT count(*) FROM tournament_games tg JOIN game_seats s ON s.game_id = tg.game_id
                 JOIN tournament_entrants e ON e.tournament_id = tg.tournament_id AND e.entrant = tg.entrants[s.seat + 1]
                 WHERE s.identity_id <> e.identity_id")
[[ $misseated == 0 ]] || fail "$misseated seats held by another identity than scheduled"
[[ $(sql "SELECT count(*) FROM tournament_games tg JOIN games g ON g.id = tg.game_id AND g.tournament_id = tg.tournament_id") == 24 ]] ||
  fail "not every tournament game is stored under its tournament"
[[ $(sql "SELECT count(DISTINCT (verifiable_seed, config)) FROM games WHERE tournament_id = 'dup'") == 1 ]] ||
  fail "the duplicate set's games do not share board and dice"
# Rotations in lockstep (docs/TOURNAMENTS.md): the set's four games were played at
# the same time, and each bot played its four on four separate sessions.
[[ $(sql "SELECT max(created_at) < min(finished_at) FROM games WHERE tournament_id = 'dup'") == t ]] ||
  fail "the duplicate set's rotations were not played at the same time"
grep -h 'msg="tournament seat sent"' "$METROPOLIS_STACK_DIR"/logs/matchmaker*.log | grep 'game=t-dup-' |
  sed -E 's/.*identity=([0-9]+).*connection=([0-9a-f]+).*/\1 \2/' | sort -u | awk '{n[$1]++} END {for (i in n) print n[i]}' |
  sort -u >"$work/dup_sessions.txt"
[[ $(cat "$work/dup_sessions.txt") == 4 ]] ||
  fail "a bot's rotations of the duplicate set did not go to four separate sessions: $(tr '\n' ' ' <"$work/dup_sessions.txt")"
# Verifiable chance (docs/CHANCE.md, CHANCE-2): every stored game has a secret seed
# and its commitment, none a known 64-bit one.
[[ $(sql "SELECT count(*) FROM games WHERE tournament_id IN ('rr', 'dup') AND
          (verifiable_seed IS NULL OR chance_commitment IS NULL OR chance_seed <> 0)") == 0 ]] ||
  fail "a tournament game without a verifiable seed"
# Each game exactly as its seats saw it, decided on by ratings once; a bot with
# capacity 2 plays a game of each tournament at once.
expect_all_rated
expect_checked --every-game-recorded --concurrent-games

# The standings, recomputed from the stored games: the winner first, then by
# points (ties share), forfeits last; score (seats - place) / (seats - 1),
# ties taking the mean of the places they span.
sql "SELECT tg.tournament_id, s.identity_id, g.winner, s.seat, g.vp[s.seat + 1], s.forfeited
     FROM tournament_games tg JOIN games g ON g.id = tg.game_id JOIN game_seats s ON s.game_id = g.id
     WHERE tg.tournament_id = 'rr' ORDER BY g.id, s.seat" >"$work/seats.txt"
ctl --json standings rr >"$work/standings.json"
python3 - "$work/seats.txt" "$work/standings.json" <<'PY' || fail "standings differ from the stored games"
import collections, json, sys
# Rows come ordered by game, then seat: a game's seats are consecutive.
rows = [line.strip().split("|") for line in open(sys.argv[1])]
games = [rows[i:i + 4] for i in range(0, len(rows), 4)]
games = [[(int(who), int(winner) if winner else -1, int(seat), int(vp), forfeited == "t")
          for _, who, winner, seat, vp, forfeited in g] for g in games]
def key(s):
    who, winner, seat, vp, forfeited = s
    if forfeited: return -10**9
    if seat == winner: return 10**9
    return vp
scores = collections.defaultdict(list)
for seats in games:
    places = [1 + sum(key(o) > key(s) for o in seats) for s in seats]
    for s, p in zip(seats, places):
        tied = places.count(p)
        scores[s[0]].append(sum((4 - q) / 3 for q in range(p, p + tied)) / tied)
want = {who: sum(v) / len(v) for who, v in scores.items()}
got = {int(s["identity_id"]): s for s in json.load(open(sys.argv[2]))["standings"]}
assert len(games) == 20 and all(len(g) == 4 for g in games), len(games)
assert set(want) == set(got), (want, got)
for who, mean in want.items():
    assert abs(got[who]["score"] - mean) < 1e-9, (who, got[who]["score"], mean)
    assert got[who]["games"] == 16, got[who]
    assert got[who]["ci_low"] <= got[who]["score"] <= got[who]["ci_high"], got[who]
ranked = sorted(got.values(), key=lambda s: s["rank"])
assert all(a["score"] >= b["score"] for a, b in zip(ranked, ranked[1:])), ranked
print("standings match:", ", ".join(f'{s["name"]} {s["score"]:.3f}' for s in ranked))
PY

# The tables people read, and the export.
ctl standings rr >"$work/standings.txt" || fail "standings rr"
grep -q "95% CI" "$work/standings.txt" || fail "standings print no interval column"
ctl export-tournament rr --csv >"$work/rr.csv" || fail "export-tournament rr --csv"
[[ $(grep -c ",finished," "$work/rr.csv") == 20 ]] || fail "the CSV export does not hold 20 finished games"
ctl tournament-games dup >/dev/null || fail "tournament-games dup"

# What the replays service shows (docs/TOURNAMENTS.md, "Duplicate sets stay hidden"):
# the tournaments service revealed the round robin whole and the duplicate set by
# its four counted games, and every one of them is served.
for _ in $(seq 1 100); do
  [[ $(sql "SELECT count(*) FROM tournament_games WHERE tournament_id = 'dup' AND revealed") == 4 ]] && break
  sleep 0.1
done
[[ $(sql "SELECT string_agg(tournament_id || '/' || game_id, ',' ORDER BY tournament_id, game_id) FROM game_reveals") == \
  "$(sql "SELECT string_agg('dup/' || game_id, ',' ORDER BY game_id) FROM tournament_games WHERE tournament_id = 'dup'"),rr/" ]] ||
  fail "the reveals are not the duplicate set's games and the whole round robin: $(sql "SELECT string_agg(tournament_id || '/' || game_id, ',') FROM game_reveals")"
for game in $(sql "SELECT game_id FROM tournament_games WHERE tournament_id IN ('dup', 'rr') ORDER BY game_id"); do
  "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_REPLAYS" --token "$METROPOLIS_ADMIN_TOKEN" \
    export-game "$game" >/dev/null || fail "revealed game $game is not served"
done
# Registration (docs/TOURNAMENTS.md, "Registration and recurring tournaments"): a
# tournament that takes entrants until its start. The bots enter themselves with
# their own tokens; the fifth finds it full; one withdraws and the fifth enters;
# a bot cannot enter another; at the start the schedule is made from those
# entered, and nobody enters after it.
as_bot() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "${bot_tokens[$1]}" "${@:2}"; }
# Meanwhile an arena of the five: paired as they become free, for a minute.
ctl create-tournament blitz --format arena --arena 1m --entrants tb1,tb2,tb3,tb4,tb5 --decision-ms 2000 \
  >"$work/blitz.log" || { cat "$work/blitz.log" >&2; fail "create-tournament blitz --format arena"; }
# Its start is an hour ahead; once the entries are checked the test moves it to now
# (the scheduler decides on the database's clock), so no step races a real window.
ctl create-tournament open --format round-robin --starts-in 1h --max-entrants 4 --decision-ms 2000 \
  >"$work/open.log" || { cat "$work/open.log" >&2; fail "create-tournament open --starts-in 1h"; }
grep -q "taking entrants until" "$work/open.log" || fail "no registration announced: $(cat "$work/open.log")"
for i in 0 1 2 3; do as_bot "$i" join-tournament open >/dev/null || fail "tb$((i + 1)) could not enter"; done
if as_bot 4 join-tournament open 2>"$work/full.err"; then fail "a fifth entrant entered a tournament of at most 4"; fi
grep -q "FAILED_PRECONDITION.*full" "$work/full.err" || fail "the fifth entry's refusal: $(cat "$work/full.err")"
as_bot 1 leave-tournament open >/dev/null || fail "tb2 could not withdraw"
as_bot 4 join-tournament open >/dev/null || fail "tb5 could not enter after tb2 withdrew"
if as_bot 0 join-tournament open --identity tb2 --accounts "$METROPOLIS_ACCOUNTS" 2>"$work/other.err"; then
  fail "a bot entered another identity"
fi
grep -q "PERMISSION_DENIED" "$work/other.err" || fail "entering another identity: $(cat "$work/other.err")"
[[ $(sql "SELECT string_agg(i.name, ',' ORDER BY e.entrant) FROM tournament_entrants e JOIN identities i
          ON i.id = e.identity_id WHERE e.tournament_id = 'open'") == "tb1,tb3,tb4,tb5" ]] ||
  fail "the entrants are not tb1,tb3,tb4,tb5 in order of entry"
[[ $(sql "SELECT state || '/' || (SELECT count(*) FROM tournament_games WHERE tournament_id = 'open')
          FROM tournaments WHERE id = 'open'") == "registering/0" ]] || fail "the tournament did not wait for its start"
timeout 400 "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" \
  watch-tournament open --interval-ms 500 >"$work/open-watch.log" 2>&1 &
watch_pid=$!
for _ in $(seq 1 100); do
  grep -q "registering" "$work/open-watch.log" 2>/dev/null && break
  sleep 0.1
done
sql "UPDATE tournaments SET starts_at = now() WHERE id = 'open'" >/dev/null
wait "$watch_pid" || { cat "$work/open-watch.log" >&2; fail "watching open"; }
grep -q "registering): 4/4 entered" "$work/open-watch.log" || fail "watch-tournament did not show the registration"
grep -q "4/4 games finished" "$work/open-watch.log" || fail "the registered tournament did not finish: $(tail -3 "$work/open-watch.log")"
[[ $(sql "SELECT count(DISTINCT s.identity_id) || '/' || count(*) FILTER (WHERE i.name = 'tb2') FROM tournament_games tg
          JOIN game_seats s ON s.game_id = tg.game_id JOIN identities i ON i.id = s.identity_id
          WHERE tg.tournament_id = 'open'") == "4/0" ]] || fail "the games of 'open' are not those of its four entrants"
if as_bot 1 join-tournament open 2>"$work/late.err"; then fail "an entry after the start was accepted"; fi
grep -q "registration closed" "$work/late.err" || fail "the late entry's refusal: $(cat "$work/late.err")"
echo "tournament_test: a tournament with a registration window started with its four entrants and finished"
timeout 300 "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" \
  watch-tournament blitz --interval-ms 500 >"$work/blitz-watch.log" 2>&1 || { cat "$work/blitz-watch.log" >&2; fail "watching blitz"; }
grep -q "(arena, finished): paired until" "$work/blitz-watch.log" || fail "the arena did not finish: $(tail -3 "$work/blitz-watch.log")"
blitz_games=$(sql "SELECT count(*) FROM tournament_games tg JOIN games g ON g.id = tg.game_id
                   WHERE tg.tournament_id = 'blitz' AND tg.state = 'finished' AND g.tournament_id = 'blitz'")
((blitz_games >= 2)) || fail "the arena played $blitz_games stored games in its minute"
# Each pairing is a table of four distinct entrants of the five.
[[ $(sql "SELECT count(*) FROM tournament_games WHERE tournament_id = 'blitz' AND
          (SELECT count(DISTINCT e) FROM unnest(entrants) e WHERE e BETWEEN 0 AND 4) <> 4") == 0 ]] ||
  fail "an arena game is not a table of four distinct entrants"
ctl --json standings blitz >"$work/blitz.json" || fail "standings blitz"
python3 - "$work/blitz.json" "$blitz_games" <<'PY' || fail "the arena's standings do not count its games"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["format"] == "arena" and t["arena_ms"] == "60000", (t["format"], t.get("arena_ms"))
assert sum(s["games"] for s in t["standings"]) == 4 * int(sys.argv[2]), t["standings"]
PY
echo "tournament_test: the arena paired the five for a minute: $blitz_games games"

stop_compete_bots
echo "tournament_test: passed ($(sql "SELECT count(*) FROM games") games; $at_kill finished before the restart)"
