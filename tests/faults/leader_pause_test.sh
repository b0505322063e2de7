#!/usr/bin/env bash
# A tournament leader paused past its lease (label faults; docs/FAILURES.md, "A
# tournament leader paused"). Two matchmaker replicas schedule tournaments, one at
# a time by a lease in Redis (1 s here); four bots compete (metropolis-bot
# --compete, on the replica that does not lead) in a Swiss tournament of 3 rounds,
# one table a round. The leader is caught in the middle of starting the first game:
# the game host is stalled (SIGSTOP) so that the leader's CreateGame waits, and
# once the game is claimed ("starting") the leader gets SIGSTOP and the host
# SIGCONT. The other replica takes the lease and its fence; then the paused leader
# gets SIGCONT and finishes the pass it was in — CreateGame answers, it hands out
# the seats and marks the game playing — believing it still leads.
#
# Required: no schedule change the stale leader makes after its resumption is
# accepted (its log says the game started, a round was added or the tournament
# finished, before it leads again: VIOLATION stale leader); the tournament
# finishes; every scheduled game counted once, by a stored game of its own, and no
# stored game of the tournament left uncounted (a game played twice); the standings
# metropolisctl prints are those computed from the stored games; and the checker
# (every game stored once, exactly as its seats saw it).
#
# protection: tournament_fence   (tests/faults/run.sh --negative switches it off: the
#                                 stale leader's changes are accepted)
#
#   tests/faults/leader_pause_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin leader_pause_test "${1:-}"
say() { echo "leader_pause_test: $*"; }

stack_up METROPOLIS_MATCHMAKERS=2 METROPOLIS_MATCHMAKER_FLAGS="--lease-ms 1000 --tournament-pass-ms 100"
rcli() { redis-cli -h "${METROPOLIS_REDIS%:*}" -p "${METROPOLIS_REDIS##*:}" "$@" 2>/dev/null | tr -d '\r'; }
host_pid=$(cat "$METROPOLIS_STACK_DIR/gamehost1.pid")
bot_pids=() bot_tokens=() leader_pid=""
# Nothing stopped outlives the test: the stack's "down" asks each process to stop.
# shellcheck disable=SC2317 # the EXIT trap
end_leader_pause_test() {
  kill -CONT "$host_pid" ${leader_pid:+"$leader_pid"} 2>/dev/null || true
  stop_compete_bots
  stack_test_end
}
trap end_leader_pause_test EXIT

# The leader: the replica whose pid the lease names ("pid@host-random").
for _ in $(seq 1 100); do
  holder=$(rcli get "metropolis:{tournaments}:leader")
  [[ -n $holder ]] && break
  sleep 0.1
done
[[ -n $holder ]] || fail "no replica took the scheduler's lease"
if [[ ${holder%%@*} == "$(cat "$METROPOLIS_STACK_DIR/matchmaker.pid")" ]]; then
  leader=matchmaker other=matchmaker2 other_addr=$METROPOLIS_MATCHMAKER2
else
  leader=matchmaker2 other=matchmaker other_addr=$METROPOLIS_MATCHMAKER
fi
leader_pid=$(cat "$METROPOLIS_STACK_DIR/$leader.pid")
leader_log=$METROPOLIS_STACK_DIR/logs/$leader.log
other_log=$METROPOLIS_STACK_DIR/logs/$other.log
say "$leader leads the tournament scheduler; the bots compete on $other"

start_compete_bots pb 4 "$other_addr" 1
for _ in $(seq 1 100); do
  (($(rcli zcard "metropolis:{tournaments}:available") >= 4)) && break
  sleep 0.1
done
(($(rcli zcard "metropolis:{tournaments}:available") >= 4)) || fail "the four bots are not all competing"
ctl() { "$build/tools/ctl/metropolisctl" --host "$other_addr" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }

# The host stalls, so the leader's CreateGame of the first game waits for it.
# (The other's log is measured first: under load it may take the lease before this
# test runs its next line.)
other_lines=$(wc -l <"$other_log")
kill -STOP "$host_pid"
ctl create-tournament cup --format swiss --rounds 3 --entrants pb1,pb2,pb3,pb4 --seed 5 --decision-ms 2000 \
  >"$work/create.log" 2>&1 || { cat "$work/create.log" >&2; fail "create-tournament cup"; }
starting() { sql "SELECT coalesce(game_id, '') FROM tournament_games WHERE tournament_id = 'cup' AND state = 'starting'"; }
for _ in $(seq 1 100); do
  [[ -n $(starting) ]] && break
  sleep 0.05
done
first=$(starting)
[[ -n $first ]] || fail "the leader did not claim the first game"
kill -STOP "$leader_pid"
kill -CONT "$host_pid"
leader_lines=$(wc -l <"$leader_log")
say "$leader paused (SIGSTOP) while it starts $first; the host goes on"

# The other replica leads once the lease lapses, and takes the next fence.
for _ in $(seq 1 200); do
  tail -n +"$((other_lines + 1))" "$other_log" | grep -q 'msg="tournament scheduler fence taken"' && break
  sleep 0.05
done
took=$(tail -n +"$((other_lines + 1))" "$other_log" | grep -m1 'msg="tournament scheduler fence taken"' || true)
[[ -n $took ]] || fail "$other did not take the lease and a fence while $leader was paused"
say "$other took over: ${took##*msg=}"
kill -CONT "$leader_pid"
leader_pid=""
say "$leader resumed (SIGCONT)"

# The tournament plays to its end (3 rounds of a game each; at most 2 minutes).
for _ in $(seq 1 1200); do
  [[ $(sql "SELECT state FROM tournaments WHERE id = 'cup'") == finished ]] && break
  sleep 0.1
done

# What the stale leader did once resumed, up to when it led again (if it did).
after=$(tail -n +"$((leader_lines + 1))" "$leader_log" | sed '/msg="leading the tournament scheduler"/,$d')
violations=0
while IFS= read -r line; do
  [[ -n $line ]] || continue
  echo "VIOLATION stale leader: $leader changed the schedule after $other took the lease: ${line##*msg=}"
  violations=$((violations + 1))
done < <(grep 'msg="tournament game started"\|msg="swiss round added"\|msg="tournament finished"' <<<"$after" || true)
refused=$(grep -c 'no longer starting; this attempt is void\|creating a tournament game failed' <<<"$after" || true)
say "$leader, resumed: $refused changes refused, $violations accepted"

# Every scheduled game counted once, by a stored game under the tournament; none
# stored and left uncounted (a game played twice).
while IFS='|' read -r number game stored; do
  [[ -n $number ]] || continue
  echo "VIOLATION counted but not stored: game $number of cup counts $game, which is not stored (${stored})"
  violations=$((violations + 1))
done < <(sql "SELECT tg.number, coalesce(tg.game_id, '-'), tg.state FROM tournament_games tg
              LEFT JOIN games g ON g.id = tg.game_id AND g.tournament_id = tg.tournament_id
              WHERE tg.tournament_id = 'cup' AND g.id IS NULL")
while IFS= read -r game; do
  [[ -n $game ]] || continue
  echo "VIOLATION played twice: $game is stored under cup and counts for no game of its schedule"
  violations=$((violations + 1))
done < <(sql "SELECT g.id FROM games g WHERE g.tournament_id = 'cup'
              AND g.id NOT IN (SELECT game_id FROM tournament_games WHERE tournament_id = 'cup' AND game_id IS NOT NULL)")

# The standings, recomputed from the stored games (as tournament_test.sh does):
# places by winner, then points, forfeits last; score (seats - place) / (seats - 1),
# ties sharing the mean of the places they span.
sql "SELECT s.identity_id, coalesce(g.winner, -1), s.seat, g.vp[s.seat + 1], s.forfeited
     FROM tournament_games tg JOIN games g ON g.id = tg.game_id JOIN game_seats s ON s.game_id = g.id
     WHERE tg.tournament_id = 'cup' AND tg.state = 'finished' ORDER BY g.id, s.seat" >"$work/seats.txt"
ctl --json standings cup >"$work/standings.json" || fail "standings cup"
if ! python3 - "$work/seats.txt" "$work/standings.json" <<'PY'; then
import collections, json, sys
rows = [line.strip().split("|") for line in open(sys.argv[1]) if line.strip()]
games = [rows[i:i + 4] for i in range(0, len(rows), 4)]
def key(s):
    who, winner, seat, vp, forfeited = s
    if forfeited == "t": return -10**9
    if int(seat) == int(winner): return 10**9
    return int(vp)
scores = collections.defaultdict(list)
for seats in games:
    places = [1 + sum(key(o) > key(s) for o in seats) for s in seats]
    for s, p in zip(seats, places):
        tied = places.count(p)
        scores[int(s[0])].append(sum((4 - q) / 3 for q in range(p, p + tied)) / tied)
want = {who: (sum(v) / len(v), len(v)) for who, v in scores.items()}
got = {int(s["identity_id"]): s for s in json.load(open(sys.argv[2]))["standings"]}
bad = [f"identity {who}: standings say {got.get(who, {}).get('score')} over {got.get(who, {}).get('games')} games,"
       f" the stored games {want.get(who)}" for who in sorted(set(want) | set(got))
       if who not in want or who not in got or abs(got[who]["score"] - want[who][0]) > 1e-9
       or got[who]["games"] != want[who][1]]
for b in bad: print("VIOLATION standings differ:", b)
print(f"standings from {len(games)} stored games:",
      ", ".join(f"{s['name']} {s['score']:.3f}" for s in sorted(got.values(), key=lambda s: s["rank"])))
sys.exit(1 if bad or len(games) != 3 else 0)
PY
  violations=$((violations + 1))
fi

# The checker: every game stored once, exactly as its seats saw it, decided on by ratings once.
expect_all_rated
expect_checked --every-game-recorded
((violations == 0)) || fail "$violations violations after the leader's pause"
[[ $(sql "SELECT state FROM tournaments WHERE id = 'cup'") == finished ]] ||
  fail "the tournament did not finish: $(sql "SELECT state || ' ' || count(*) FROM tournament_games WHERE tournament_id = 'cup' GROUP BY state")"
((refused > 0)) || fail "$leader made no change after it resumed: the pause did not land inside its pass"
grep -q 'msg="tournament game started"' "$other_log" || fail "$other started no game after it took over"
say "passed (3 games counted once, standings match the stored games; $leader's $refused changes after its" \
  "pause refused)"
