#!/usr/bin/env bash
# Nobody can know the dice in advance (label faults; docs/CHANCE.md). Four bots
# compete (metropolis-bot --compete, their every received message recorded) in a
# duplicate set and a round robin at once. While the duplicate set plays, its
# stored rotations are hidden, and every later rotation will meet their seed:
# those are the unrevealed seeds. Until the set is revealed, each round of probes
# calls, as a participant, every HTTP endpoint of the gateway (anonymous) and
# every RPC an entrant's API token may call (replays, tournaments, game host),
# for the tournaments, for every game id of them and for the hidden ones by id.
#
# Required: no answer, and no message the bots received, holds an unrevealed seed
# or anything derived from one (tests/faults/lib/chance_leak.py lists the
# encodings: VIOLATION leak); at least one round of probes saw a hidden seed; and
# the inversion attack of the old scheme (a tournament seed recovered by inverting
# the 64-bit mix of any number a revealed game shows) finds nothing in what the
# round robin's first revealed game shows (VIOLATION attack). As a control, the
# same attack run on the schedule's chance numbers, which only an administrator
# sees while the tournament runs, does recover the tournament's seed: the attack
# works, and those numbers alone are what it needs.
#
# protection: hidden_games   (tests/faults/run.sh --negative switches it off: the
#                             replays service serves a stored rotation, seed and
#                             all, while its set still plays)
#
#   tests/faults/chance_leak_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
stack_test_begin chance_leak_test "${1:-}"
say() { echo "chance_leak_test: $*"; }
leak=$(dirname "$0")/lib/chance_leak.py

stack_up METROPOLIS_GAMEHOSTS=2  # two hosts: the set's rotations meet the same seed on either (one key)
ctl() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" "$@"; }
# An entrant's calls: its own API token, at each service.
as_entrant() {
  local host=$1
  shift
  "$build/tools/ctl/metropolisctl" --host "$host" --token "$entrant_token" "$@" 2>&1 || true
}
api() { curl -s "$METROPOLIS_GATEWAY$1" || true; }

mkdir -p "$work/seen"
bot_pids=() bot_tokens=()
trap 'stop_compete_bots; stack_test_end' EXIT
start_compete_bots tb 4 "$METROPOLIS_MATCHMAKER" 2
entrant_token=${bot_tokens[0]}

ctl create-tournament dup --format duplicate --entrants tb1,tb2,tb3,tb4 --rounds 3 --seed 12 --decision-ms 2000 \
  >/dev/null ||
  fail "create-tournament dup"
ctl create-tournament rr --format round-robin --entrants tb1,tb2,tb3,tb4 --seed 11 --decision-ms 2000 >/dev/null ||
  fail "create-tournament rr"

# What anyone may ask about the tournaments as a whole, into folder $1.
probe_all() {
  local dir=$1
  for path in /api/v1/tournaments /api/v1/tournaments/dup /api/v1/tournaments/dup/games /api/v1/tournaments/rr/games \
    "/api/v1/games?tournament=dup" "/api/v1/games?tournament=rr" /api/v1/live /api/v1/players/tb1; do
    api "$path" >"$dir/http${path//[^a-z0-9]/_}"
  done
  as_entrant "$METROPOLIS_MATCHMAKER" tournaments >"$dir/rpc_tournaments"
  as_entrant "$METROPOLIS_MATCHMAKER" standings dup >"$dir/rpc_standings"
  as_entrant "$METROPOLIS_MATCHMAKER" tournament-games dup >"$dir/rpc_tournament_games"
  as_entrant "$METROPOLIS_MATCHMAKER" export-tournament dup >"$dir/rpc_export_tournament"
  as_entrant "$METROPOLIS_REPLAYS" stored-games >"$dir/rpc_stored_games"
  as_entrant "$METROPOLIS_GAMEHOST" list-games >"$dir/rpc_list_games"
  as_entrant "$METROPOLIS_RATINGS" leaderboard --ladder open >"$dir/rpc_leaderboard"
  as_entrant "$METROPOLIS_MATCHMAKER" queue --ladder open >"$dir/rpc_queue"
}
# What anyone may ask about game $2, into folder $1.
probe_game() {
  local dir=$1 id=$2
  for path in "/api/v1/games/$id" "/api/v1/games/$id/record" "/api/v1/games/$id/positions/0" "/api/v1/live/$id"; do
    api "$path" >"$dir/http${path//[^a-z0-9]/_}"
  done
  as_entrant "$METROPOLIS_REPLAYS" export-game "$id" >"$dir/rpc_export_$id"
  as_entrant "$METROPOLIS_GAMEHOST" get-game "$id" >"$dir/rpc_get_game_$id"
  # Spectating, over gRPC and as server-sent events, from the start: refused for
  # a hidden game, and cut after 2 s for any other.
  timeout 2 "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_GAMEHOST" --token "$entrant_token" watch "$id" \
    --json >"$dir/rpc_watch_$id" 2>&1 || true
  curl -s --max-time 2 "$METROPOLIS_GATEWAY/api/v1/live/$id/events?from_start=1" >"$dir/http_events_$id" || true
}

# The seeds of the duplicate sets' stored rotations that no reveal names yet.
unrevealed() {
  sql "SELECT encode(g.verifiable_seed, 'hex') FROM games g WHERE g.tournament_id = 'dup'
         AND g.verifiable_seed IS NOT NULL AND NOT EXISTS (SELECT 1 FROM game_reveals r
           WHERE r.tournament_id = 'dup' AND (r.game_id = '' OR r.game_id = g.id))" | sort -u
}
# Probe until every rotation of every set has been played. A round's secrets are
# the seeds unrevealed both before and after it: one revealed in between may be
# served by right. A round is the tournaments as a whole, or one game: a round of
# every game at once took longer (4 s a live game) than a set stays hidden once its
# first rotation is stored, and could miss every secret.
mkdir -p "$work/secrets"
rounds=0 with_secret=0 attacked=0
round() {  # what to probe and its arguments after the folder
  unrevealed >"$work/before"
  mkdir -p "$work/seen/round$rounds"
  "$1" "$work/seen/round$rounds" "${@:2}"
  unrevealed >"$work/after"
  comm -12 "$work/before" "$work/after" >"$work/secrets/round$rounds"
  [[ -s $work/secrets/round$rounds ]] && with_secret=$((with_secret + 1))
  rounds=$((rounds + 1))
}
for _ in $(seq 1 2400); do
  [[ $(sql "SELECT count(*) FROM tournament_games WHERE tournament_id = 'dup' AND state <> 'finished'") == 0 ]] &&
    break
  round probe_all
  for id in $(sql "SELECT game_id FROM tournament_games WHERE tournament_id = 'dup' AND game_id IS NOT NULL"); do
    round probe_game "$id"
  done
  # The attack, once the round robin has a revealed game and games still to play.
  if ((attacked == 0)); then
    first=$(sql "SELECT g.id FROM games g JOIN game_reveals r ON r.tournament_id = g.tournament_id
                   AND (r.game_id = '' OR r.game_id = g.id)
                 WHERE g.tournament_id = 'rr' ORDER BY g.finished_unix_ms LIMIT 1")
    if [[ -n $first ]]; then
      api "/api/v1/games/$first" >"$work/attack_game.json"
      api "/api/v1/tournaments/rr/games" >"$work/attack_schedule.json"
      attacked=1
    fi
  fi
  sleep 0.2
done
cat "$work"/secrets/round* | sort -u >"$work/all_secrets"
say "$rounds rounds of probes, $with_secret of them while $(wc -l <"$work/all_secrets") unrevealed seed(s) were known"
((with_secret > 0)) || fail "no round of probes ran while a stored rotation was hidden: nothing was tested"
for _ in $(seq 1 600); do
  [[ $(sql "SELECT count(*) FROM tournament_games WHERE tournament_id = 'rr' AND state <> 'finished'") == 0 ]] && break
  sleep 0.5
done
stop_compete_bots
wait "${bot_pids[@]}" 2>/dev/null || true

violations=0
for ((r = 0; r < rounds; r++)); do
  [[ -s $work/secrets/round$r ]] || continue
  python3 "$leak" scan "$work/secrets/round$r" "$work/seen/round$r" >"$work/scan$r.out" || violations=$((violations + 1))
  grep VIOLATION "$work/scan$r.out" || true
done
# No stream to a seat ever carries a seed: the bots' records are held to every one.
python3 "$leak" scan "$work/all_secrets" "$work/bots" || violations=$((violations + 1))

# The inversion attack, on what a participant saw of the first revealed game.
((attacked == 1)) || fail "the round robin had no revealed game while the duplicate set played"
games=$(sql "SELECT count(*) FROM tournament_games WHERE tournament_id = 'rr'")
public=$(python3 - "$work/attack_game.json" "$work/attack_schedule.json" <<'EOF'
import json, struct, sys
values = []
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("chance_seed", "board_seed", "random_board_seed", "seed") and isinstance(x, (int, str)):
                try: values.append(int(x, 16) if isinstance(x, str) and len(x) == 64 else int(x))
                except ValueError: pass
            walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
for path in sys.argv[1:]:
    with open(path) as f: walk(json.load(f))
out = []
for v in values:
    if v >= 1 << 64:  # a 256-bit seed: its first and last 8 bytes, both byte orders
        b = v.to_bytes(32, "big")
        out += [struct.unpack(o + "Q", b[s:s + 8])[0] for o in "<>" for s in (0, 24)]
    elif v:
        out.append(v)
print(",".join(str(v) for v in out))
EOF
)
if ! python3 "$leak" attack --number-of-games "$games" --known "public=$public" --seed 11; then
  echo "VIOLATION attack: the round robin's seed follows from what its first revealed game shows"
  violations=$((violations + 1))
fi
# The control: the schedule's numbers (an administrator's view while it runs) do give the seed away.
schedule=$(ctl export-tournament rr | python3 -c '
import json, sys
vals = []
def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("chanceSeed", "chance_seed", "boardSeed", "board_seed"): vals.append(str(int(x)))
            walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
walk(json.load(sys.stdin))
print(",".join(vals))')
[[ -n $schedule ]] || fail "the administrator's export of the round robin has no chance numbers"
if python3 "$leak" attack --number-of-games "$games" --known "schedule=$schedule" --seed 11; then
  fail "control: the attack did not recover the seed from the schedule's own numbers (the attack is broken)"
fi
((violations == 0)) || fail "$violations violation(s): see the VIOLATION lines above"
say "passed: no unrevealed seed in any answer, and the attack predicts nothing"
