#!/usr/bin/env bash
# End to end through real services (label e2e): the local stack with the gateway
# and a small web root, 4 bots playing real ladder games, then every endpoint of
# the gateway with curl — bad parameters included — the live stream of a game
# played meanwhile, a game's analysis asked for and computed by the replays
# service, the web app's files, metrics, and a backend that goes down.
#
#   tests/e2e/gateway_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin gateway_test "${1:-}"

[[ -x $build/services/gateway/metropolis-gateway ]] || fail "no metropolis-gateway in $build"

# A web root with a page, a hashed asset, a hidden file, and a file beside it
# that must never be served.
mkdir -p "$work/web/assets"
echo '<!doctype html><title>Metropolis</title>' >"$work/web/index.html"
echo 'console.log("app")' >"$work/web/assets/app-1a2b3c.js"
echo 'body{}' >"$work/web/style.css"
echo 'secret' >"$work/web/.env"
echo 'outside' >"$work/outside.txt"
export METROPOLIS_WEB_ROOT=$work/web

deploy/local/stack.sh up "$build" >"$work/stack-up.log" || fail "the stack did not start"
scripts/ladder_demo.sh --bots 4 --games 2 >"$work/demo.log" || fail "the bots did not play their games"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
expect_all_rated
expect_checked --ladder open --every-game-recorded --games-per-bot 2
gw=${METROPOLIS_GATEWAY:?the stack did not start the gateway}

# ---- Helpers ---------------------------------------------------------------------------

body=$work/body
# req STATUS PATH [curl args...]: GET (by default) PATH; the body lands in $body.
req() {
  local want=$1 path=$2 got
  shift 2
  last="$path"
  got=$(curl -sS --path-as-is -o "$body" -w '%{http_code}' "$@" "$gw$path") || fail "curl $path failed"
  [[ $got == "$want" ]] || fail "GET $path: HTTP $got, expected $want: $(head -c 400 "$body")"
}
# expect EXPR: a Python expression over j, the last body as JSON.
expect() {
  python3 - "$body" "$1" <<'PY' || fail "GET $last: '$1' does not hold; body: $(head -c 600 "$body")"
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
# value EXPR: prints a Python expression over j.
value() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$body" "$1"; }
# bad PATH PARAMETER [STATUS]: a precise error naming the parameter.
bad() {
  req "${3:-400}" "$1"
  expect "j['error']['code'] == ${3:-400} and j['error']['parameter'] == '$2' and j['error']['message']"
}
checks=0
ok() { checks=$((checks + 1)); }

# ---- Health --------------------------------------------------------------------------------

req 200 /healthz && expect "j['status'] == 'ok'" && ok
req 200 /readyz && expect "j['status'] == 'ready' and j['backends']['ratings'] == 'SERVING'" && ok

# ---- Ladders ---------------------------------------------------------------------------------

req 200 /api/v1/ladders
expect "[l['id'] for l in j['ladders']] == ['open'] and j['ladders'][0]['current_season'] == 1" && ok
req 200 /api/v1/ladders/open
expect "j['seasons'][0]['season'] == 1 and j['seasons'][0]['ends_unix_ms'] is None and j['seats'] == 4" && ok
req 404 /api/v1/ladders/nope && expect "j['error']['status'] == 'NOT_FOUND'" && ok
bad /api/v1/ladders/Not_A_Ladder ladder && ok
bad '/api/v1/ladders?x=1' x && ok
# Bytes that are not UTF-8, echoed in an error, answer an error (they once
# ended the process): in a path, a parameter's name and its value.
req 400 '/api/v1/ladders/%FF' && ok
req 404 '/api/x%FF' && ok
req 400 '/api/v1/ladders?%FF=1' && ok
req 200 /healthz && ok

# ---- Leaderboards ----------------------------------------------------------------------------

req 200 /api/v1/ladders/open/leaderboard
expect "j['total'] == 4 and [e['rank'] for e in j['entries']] == [1, 2, 3, 4] and j['season'] == 1" && ok
expect "all(e['name'].startswith('heuristic-') and e['games'] == 2 for e in j['entries'])" && ok
expect "j['entries'][0]['ordinal'] >= j['entries'][3]['ordinal']" && ok
top=$(value "j['entries'][0]['name']")
third=$(value "j['entries'][2]['name']")
req 200 '/api/v1/ladders/open/leaderboard?offset=2&limit=2'
expect "[e['rank'] for e in j['entries']] == [3, 4] and j['offset'] == 2 and j['limit'] == 2" && ok
req 200 "/api/v1/ladders/open/leaderboard?season=1&around=$third&limit=1"
expect "[e['name'] for e in j['entries']] == ['$third']" && ok
req 200 '/api/v1/ladders/open/leaderboard?q=heur'
expect "len(j['entries']) == 4 and j['q'] == 'heur' and all(e['rank'] for e in j['entries'])" && ok
req 200 '/api/v1/ladders/open/leaderboard?q=HEURISTIC-1'  # any letter case
expect "[e['name'] for e in j['entries']] == ['heuristic-1']" && ok
req 200 '/api/v1/ladders/open/leaderboard?q=zz' && expect "j['entries'] == [] and j['total'] == 4" && ok
bad '/api/v1/ladders/open/leaderboard?limit=101' limit && ok
bad '/api/v1/ladders/open/leaderboard?limit=0' limit && ok
bad '/api/v1/ladders/open/leaderboard?limit=ten' limit && ok
bad '/api/v1/ladders/open/leaderboard?offset=-1' offset && ok
bad '/api/v1/ladders/open/leaderboard?season=x' season && ok
bad '/api/v1/ladders/open/leaderboard?around=no%20body' around && ok
bad "/api/v1/ladders/open/leaderboard?around=$top&q=h" q && ok
bad '/api/v1/ladders/open/leaderboard?limit=1&limit=2' limit && ok
bad '/api/v1/ladders/open/leaderboard?lmit=2' lmit && ok
bad '/api/v1/ladders/open/leaderboard?q=a%zz' q && ok
bad /api/v1/ladders/open/leaderboard?around=nobody around 404 && ok
bad /api/v1/ladders/open/leaderboard?around=admin around 404 && ok  # exists, but is not ranked
req 404 /api/v1/ladders/nope/leaderboard && expect "j['error']['backend'] == 'ratings'" && ok
req 404 '/api/v1/ladders/open/leaderboard?season=9' && ok

# ---- Players -----------------------------------------------------------------------------------

req 200 '/api/v1/players?q=heuristic'
expect "[p['name'] for p in j['players']] == ['heuristic-1', 'heuristic-2', 'heuristic-3', 'heuristic-4']" && ok
expect "j['players'][0]['kind'] == 'bot' and j['players'][0]['owner'] == 'house'" && ok
req 200 '/api/v1/players?q=Heuristic-2&limit=1' && expect "[p['name'] for p in j['players']] == ['heuristic-2']" && ok
bad /api/v1/players q && ok
bad '/api/v1/players?q=' q && ok
bad '/api/v1/players?q=a&limit=51' limit && ok

req 200 /api/v1/players/heuristic-1
expect "j['name'] == 'heuristic-1' and j['kind'] == 'bot' and j['ratings'][0]['ladder'] == 'open'" && ok
expect "j['ratings'][0]['games'] == 2 and j['ratings'][0]['rank'] in (1, 2, 3, 4)" && ok
expect "j['history']['ladder'] == 'open' and len(j['history']['entries']) == 2" && ok
expect "len(j['recent_games']) == 2 and all(any(p['name'] == 'heuristic-1' for p in g['players']) for g in j['recent_games'])" && ok
expect "j['opponents']['games_considered'] == 2 and all(o['games'] == o['ahead'] + o['behind'] + o['level'] for o in j['opponents']['opponents'])" && ok
expect "all(o['name'] != 'heuristic-1' for o in j['opponents']['opponents'])" && ok
req 200 '/api/v1/players/HEURISTIC-1?ladder=open&season=1&games=1&history=1'
expect "j['name'] == 'heuristic-1' and len(j['recent_games']) == 1 and len(j['history']['entries']) == 1" && ok
req 404 /api/v1/players/nobody && expect "j['error']['status'] == 'NOT_FOUND'" && ok
bad '/api/v1/players/bad%20name' name && ok
bad '/api/v1/players/heuristic-1?games=51' games && ok
bad '/api/v1/players/heuristic-1?season=1' season && ok
bad '/api/v1/players/heuristic-1?ladder=nope' ladder 404 && ok

req 200 '/api/v1/players/heuristic-1/history?ladder=open&limit=1'
expect "len(j['entries']) == 1 and j['next_page_token']" && ok
first_game=$(value "j['entries'][0]['game_id']")
token=$(value "j['next_page_token']")
req 200 "/api/v1/players/heuristic-1/history?ladder=open&limit=1&page_token=$token"
expect "len(j['entries']) == 1 and j['entries'][0]['game_id'] != '$first_game' and j['next_page_token'] is None" && ok
bad /api/v1/players/heuristic-1/history ladder && ok
bad '/api/v1/players/heuristic-1/history?ladder=open&limit=501' limit && ok
bad '/api/v1/players/heuristic-1/history?ladder=open&page_token=xyz' page_token && ok

# ---- Stored games ----------------------------------------------------------------------------------

req 200 /api/v1/games
expect "len(j['games']) >= 2 and j['next_page_token'] is None" && ok
stored=$(value "len(j['games'])")
req 200 '/api/v1/games?ladder=open&season=1&limit=1'
expect "len(j['games']) == 1 and j['next_page_token']" && ok
game=$(value "j['games'][0]['game_id']")
token=$(value "j['next_page_token']")
req 200 "/api/v1/games?ladder=open&season=1&limit=1&page_token=$token"
expect "len(j['games']) == 1 and j['games'][0]['game_id'] != '$game'" && ok
req 200 '/api/v1/games?player=heuristic-3'
expect "len(j['games']) == 2 and all(any(p['name'] == 'heuristic-3' for p in g['players']) for g in j['games'])" && ok
expect "all(sorted(p['place'] for p in g['players'])[0] == 1 for g in j['games'])" && ok
req 200 '/api/v1/games?tournament=none' && expect "j['games'] == []" && ok
req 200 '/api/v1/games?before=1' && expect "j['games'] == []" && ok
req 200 '/api/v1/games?after=1' && expect "len(j['games']) == $stored" && ok
bad '/api/v1/games?player=nobody' player 404 && ok
bad '/api/v1/games?season=1' season && ok
bad '/api/v1/games?after=5&before=3' before && ok
bad '/api/v1/games?limit=101' limit && ok
bad '/api/v1/games?page_token=zzz' page_token && ok
bad '/api/v1/games?tournament=a.b' tournament && ok
bad '/api/v1/games?ladder=OPEN' ladder && ok

# ---- A replay and its positions -----------------------------------------------------------------

# Every stored game's replay loads (seeds above 2^63 included, which PostgreSQL
# keeps as negative BIGINTs).
for id in $(sql "SELECT id FROM games ORDER BY chance_seed"); do req 200 "/api/v1/games/$id"; done
ok

# Verifiable chance (docs/CHANCE.md, CHANCE-6): every game the platform made has a
# secret seed, and its dice check out three ways — the gateway's own check, the
# engine's `verify` on the record, and the independent Python verifier. A die
# changed in a record is caught by both verifiers.
[[ $(sql "SELECT count(*) FROM games WHERE verifiable_seed IS NULL") == 0 ]] || fail "a stored game without a verifiable seed"
for id in $(sql "SELECT id FROM games"); do
  req 200 "/api/v1/games/$id"
  expect "j['chance']['version'] == 2 and j['chance']['verified'] is True and j['chance']['rolls'] > 0" || fail "$id: $(cat "$body")"
  req 200 "/api/v1/games/$id/record"
  cp "$body" "$work/record-$id.json"
  "$build/tools/engine/metropolis-engine" verify --file "$work/record-$id.json" >"$work/verify.out" ||
    fail "metropolis-engine verify refused $id: $(cat "$work/verify.out")"
  python3 scripts/verify_chance.py "$work/record-$id.json" >/dev/null || fail "verify_chance.py refused $id"
done
ok
python3 - "$work/record-$game.json" "$work/forged.json" <<'EOF_FORGE'
import json, sys
r = json.load(open(sys.argv[1]))
i = next(i for i, a in enumerate(r["actions"]) if a.startswith("dice ") and not a.startswith("dice - -"))
_, y, red, e = r["actions"][i].split()
r["actions"][i] = "dice %s %s %s" % (y, str(int(red) % 6 + 1), e)  # another red die, still a legal roll
json.dump(r, open(sys.argv[2], "w"))
EOF_FORGE
if "$build/tools/engine/metropolis-engine" verify --file "$work/forged.json" >/dev/null 2>"$work/forged.err"; then
  fail "metropolis-engine verify accepted a record with a changed die"
fi
grep -q "the seed draws" "$work/forged.err" || fail "verify's refusal does not say where: $(cat "$work/forged.err")"
if python3 scripts/verify_chance.py "$work/forged.json" >/dev/null 2>&1; then
  fail "verify_chance.py accepted a record with a changed die"
fi
ok
req 200 "/api/v1/games/$game"
expect "j['game_id'] == '$game' and j['steps'] == len(j['actions']) == j['result']['actions'] and j['steps'] > 100" && ok
expect "all(a['text'] and a['code'].isdigit() for a in j['actions']) and len(j['players']) == 4" && ok
expect "j['config']['num_seats'] == 4 and len(j['config']['board']['terrain']) == 19" && ok
steps=$(value "j['steps']")
winner=$(value "j['result']['winner']")
second_action=$(value "j['actions'][1]['text']")
req 404 /api/v1/games/no-such-game && expect "j['error']['backend'] == 'replays'" && ok
bad /api/v1/games/bad.id game_id && ok

req 200 "/api/v1/games/$game/positions/0"
expect "j['step'] == 0 and j['action'] is None and j['viewer'] == -1 and j['view']['position']['action_count'] == 0" && ok
req 200 "/api/v1/games/$game/positions/2"
expect "j['action']['text'] == '''$second_action''' and j['view']['position']['action_count'] == 2" && ok
req 200 "/api/v1/games/$game/positions/$steps"
expect "j['view']['position']['phase'] == 'PHASE_GAME_OVER' and j['view']['position']['winner'] == $winner and j['notation']" && ok
req 200 "/api/v1/games/$game/positions/$steps?viewer=2"
expect "j['viewer'] == 2 and j['view']['viewer'] == 2" && ok
bad "/api/v1/games/$game/positions/$((steps + 1))" step && ok
bad "/api/v1/games/$game/positions/x" step && ok
bad "/api/v1/games/$game/positions/1?viewer=4" viewer && ok
bad "/api/v1/games/$game/positions/1?viewer=-2" viewer && ok
req 404 /api/v1/games/no-such-game/positions/0 && ok

# ---- A live game and its stream ----------------------------------------------------------------------

# Seat 0 waits for its player, so the game stays live while the stream is opened;
# the built-in bots then play the other seats.
"$build/tools/ctl/metropolisctl" --host "$METROPOLIS_GAMEHOST" --token "$METROPOLIS_GAMEHOST_ADMIN_TOKEN" --json \
  create-game --seats watcher,b1,b2,b3 --builtin 1:heuristic --builtin 2:heuristic --builtin 3:heuristic \
  --ladder exhibition --seed 7 >"$work/create.json" || fail "create-game failed"
live=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["game_id"])' <"$work/create.json")
seat_token=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["seat_tokens"][0])' <"$work/create.json")

req 200 /api/v1/live
expect "any(g['game_id'] == '$live' and g['status'] == 'live' and g['step'] == 0 for g in j['games'])" && ok
expect "j['hosts'][0]['address'] == '$METROPOLIS_GAMEHOST' and 'error' not in j['hosts'][0]" && ok
req 200 "/api/v1/live/$live"
expect "j['game_id'] == '$live' and j['host'] == '$METROPOLIS_GAMEHOST' and j['players'][0]['name'] == 'watcher'" && ok
req 404 /api/v1/live/no-such-game && ok
bad /api/v1/live/bad.id game_id && ok
bad "/api/v1/live/$live/events?from_start=maybe" from_start && ok
req 404 /api/v1/live/no-such-game/events && ok

# Stream 1 from before the start; stream 2 joins mid-game and asks for the
# earlier events. Seat 0 thinks 60 ms a decision (a floor, whatever the load), so
# the game lasts well over five seconds after step 50, when stream 2 connects.
curl -sSN --max-time 120 -D "$work/sse-1.head" "$gw/api/v1/live/$live/events" >"$work/sse-1.txt" 2>"$work/sse-1.err" &
sse1=$!
for _ in $(seq 1 50); do grep -q '^event: view' "$work/sse-1.txt" && break; sleep 0.1; done
"$build/botkits/cpp/metropolis-bot" --host "$METROPOLIS_GAMEHOST" --game "$live" --token "$seat_token" \
  --bot search:ms=60 --quiet >"$work/watcher.out" 2>"$work/watcher.err" &
bot=$!
for _ in $(seq 1 100); do
  req 200 "/api/v1/live/$live"
  [[ $(value "j['step']") -ge 50 ]] && break
  sleep 0.05
done
expect "j['status'] == 'live' and j['step'] >= 50"
curl -sSN --max-time 120 "$gw/api/v1/live/$live/events?from_start=1" >"$work/sse-2.txt" 2>"$work/sse-2.err" &
sse2=$!
wait "$bot" || fail "the watcher's bot failed: $(cat "$work/watcher.err")"
wait "$sse1" || fail "the live stream did not end cleanly: $(cat "$work/sse-1.err")"
wait "$sse2" || fail "the from-start stream did not end cleanly: $(cat "$work/sse-2.err")"
for _ in $(seq 1 100); do
  [[ $(curl -s -o /dev/null -w '%{http_code}' "$gw/api/v1/games/$live") == 200 ]] && break
  sleep 0.1
done
req 200 "/api/v1/games/$live"
live_steps=$(value "j['steps']")
# The watcher played over the network without an account: stored and shown as
# such, not as a built-in bot like the three beside it.
expect "[(p['name'], p['played_by'], p['built_in'], p['identity_id']) for p in j['players']][0] == ('watcher', 'network', False, None)" && ok
expect "all(p['played_by'] == 'built_in' and p['built_in'] for p in j['players'][1:])" && ok
# Both streams: a welcome, views, events, and the end; the last view is the final
# position; from the start, every action's event is there.
python3 - "$work/sse-1.txt" "$work/sse-2.txt" "$live_steps" <<'PY' || fail "the live streams are wrong (see above)"
import json, sys

def parse(path):
    events, current = [], {}
    for line in open(path).read().split("\n"):
        if line == "":
            if current.get("event"):
                events.append(current)
            current = {}
        elif line.startswith(":"):
            continue
        else:
            key, _, value = line.partition(": ")
            current[key] = current.get(key, "") + value
    return events

steps = int(sys.argv[3])
for path in sys.argv[1:3]:
    events = parse(path)
    names = [e["event"] for e in events]
    assert names[0] == "welcome", (path, names[:3], open(path).read()[:300])
    assert names[-1] == "game_over", (path, names[-3:])
    assert "view" in names and "events" in names and "notice" not in names, (path, set(names))
    views = [e for e in events if e["event"] == "view"]
    assert int(views[-1]["id"]) == steps, (path, views[-1]["id"], steps)
    assert json.loads(views[-1]["data"])["position"]["phase"] == "PHASE_GAME_OVER"
    actions = [x for e in events if e["event"] == "events" for x in json.loads(e["data"])["events"]
               if x["type"] == "EVENT_ACTION"]
    assert all(a["action"]["text"] for a in actions), path
    assert len(actions) == steps, (path, len(actions), steps)
    print(f"{path}: {len(events)} events, {len(views)} views, {len(actions)} actions")
PY
ok

# ---- Tournaments ------------------------------------------------------------------------------

req 200 /api/v1/tournaments && expect "j['tournaments'] == []" && ok
bad /api/v1/tournaments/bad.id tournament && ok
bad "/api/v1/tournaments/$(head -c 41 /dev/zero | tr '\0' a)" tournament && ok
req 404 /api/v1/tournaments/nope && expect "j['error']['backend'] == 'matchmaker'" && ok
req 404 /api/v1/tournaments/nope/games && ok
bad '/api/v1/tournaments?limit=1' limit && ok
# Four bots compete in a round robin: four games, one per seating rotation, so
# that every entrant has four scores and an interval.
admin() { "$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" "$@"; }
admin create-player cup-owner >/dev/null
cup_bots=()
stop_cup_bots() { for pid in "${cup_bots[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap 'stop_cup_bots; stack_test_end' EXIT
for i in 1 2 3 4; do
  admin create-bot "cup$i" --owner cup-owner >/dev/null
  cup_token=$(admin --json issue-token "cup$i" --label e2e | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  "$build/botkits/cpp/metropolis-bot" --compete --matchmaker "$METROPOLIS_MATCHMAKER" --api-token "$cup_token" \
    --bot heuristic >"$work/cup$i.out" 2>"$work/cup$i.err" &
  cup_bots+=($!)
done
"$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" --token "$METROPOLIS_ADMIN_TOKEN" \
  create-tournament cup --format round-robin --entrants cup1,cup2,cup3,cup4 --seed 3 --title "The cup" \
  >"$work/cup.log" 2>&1 || fail "create-tournament: $(cat "$work/cup.log")"
req 200 /api/v1/tournaments/cup
expect "j['id'] == 'cup' and j['title'] == 'The cup' and j['format'] == 'round-robin' and j['games_total'] == 4" && ok
# The seed stays hidden from the public while the tournament runs: every game's
# board and dice derive from it (docs/TOURNAMENTS.md).
expect "sorted(e['name'] for e in j['entrants']) == ['cup1', 'cup2', 'cup3', 'cup4'] and j['seed'] == '0'" && ok
for _ in $(seq 1 1200); do
  [[ $(sql "SELECT state FROM tournaments WHERE id = 'cup'") == finished ]] && break
  sleep 0.1
done
stop_cup_bots
req 200 /api/v1/tournaments
expect "[(t['id'], t['state'], t['entrant_count']) for t in j['tournaments']] == [('cup', 'finished', 4)]" && ok
expect "j['tournaments'][0]['finished_unix_ms'] >= j['tournaments'][0]['created_unix_ms'] > 0" && ok
req 200 /api/v1/tournaments/cup
expect "j['state'] == 'finished' and j['games_finished'] == 4 and j['games_playing'] == 0 and len(j['standings']) == 4" && ok
expect "j['seed'] == '3'" && ok  # shown once it is over
expect "all(s['games'] == 4 and s['ci_low'] <= s['score'] <= s['ci_high'] for s in j['standings'])" && ok
expect "[s['rank'] for s in j['standings']] == sorted(s['rank'] for s in j['standings']) and j['standings'][0]['rank'] == 1" && ok
expect "abs(sum(s['score'] for s in j['standings']) - 2.0) < 1e-9" && ok  # each game hands out 0 + 1/3 + 2/3 + 1
req 200 /api/v1/tournaments/cup/games
expect "j['tournament'] == 'cup' and len(j['games']) == 4 and all(g['state'] == 'finished' and g['game_id'] for g in j['games'])" && ok
expect "all(sorted(p['place'] for p in g['players']) == [1, 2, 3, 4] or len(set(p['place'] for p in g['players'])) < 4 for g in j['games'])" && ok
expect "all(p['name'].startswith('cup') for g in j['games'] for p in g['players'])" && ok
cup_games=$(value "sorted(g['game_id'] for g in j['games'])")
req 200 '/api/v1/games?tournament=cup'
expect "sorted(g['game_id'] for g in j['games']) == $cup_games and all(g['tournament'] == 'cup' for g in j['games'])" && ok

# ---- The web app's files ---------------------------------------------------------------------------

req 200 / && grep -q Metropolis "$body" && ok
ctype() { curl -sS --path-as-is -o /dev/null -w '%{content_type}' "$gw$1"; }
[[ $(ctype /) == "text/html; charset=utf-8" ]] || fail "/ is $(ctype /)"
[[ $(ctype /assets/app-1a2b3c.js) == "text/javascript; charset=utf-8" ]] || fail "js is $(ctype /assets/app-1a2b3c.js)"
[[ $(ctype /style.css) == "text/css; charset=utf-8" ]] || fail "css is $(ctype /style.css)"
ok
req 200 /players/heuristic-1 && grep -q Metropolis "$body" && ok  # the web app's own route
req 404 /missing.js && ok
req 404 /.env && ok
req 404 /../outside.txt && ok
req 404 /assets/../../outside.txt && ok
req 404 /%2e%2e/outside.txt && ok
curl -sS -D "$work/headers" -o /dev/null "$gw/assets/app-1a2b3c.js"
grep -qi '^cache-control: public, max-age=31536000, immutable' "$work/headers" || fail "hashed assets are not immutable"
etag=$(grep -i '^etag:' "$work/headers" | cut -d' ' -f2 | tr -d '\r')
req 304 /assets/app-1a2b3c.js -H "If-None-Match: $etag" && ok
req 200 /style.css -I && ok

# ---- Methods, sizes, unknown paths ---------------------------------------------------------------

req 405 /api/v1/ladders -X POST && expect "j['error']['code'] == 405" && ok
grep -q . <(curl -sS -D - -o /dev/null -X DELETE "$gw/api/v1/ladders" | grep -i '^allow: GET, HEAD') ||
  fail "405 without Allow"
req 404 /api/v1/nothing && expect "j['error']['status'] == 'NOT_FOUND'" && ok
req 414 "/api/v1/players?q=a&pad=$(head -c 3000 /dev/zero | tr '\0' a)" && ok
code=$(curl -sS -o "$work/big.json" -w '%{http_code}' -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' a)" "$gw/healthz" || true)
[[ $code == 431 ]] && grep -q '"INVALID_ARGUMENT"' "$work/big.json" || fail "a 20 kB header got HTTP $code, not 431 with a JSON error"
ok

# ---- Security headers, and no changes from another site ------------------------------------------
# Found by an outside client: no security headers, and sign-up accepted as
# text/plain from any site's page (cross-site sign-ups, login CSRF).
# Every kind of response carries them (response_layer.h): files, a file not
# modified, a HEAD, API answers, the API's errors of every kind, a people's
# endpoint, and an event stream (the live stream's head above).
security_headers() {  # label, file of response headers
  for header in 'X-Content-Type-Options: nosniff' 'X-Frame-Options: DENY' "Content-Security-Policy: default-src 'self'" \
    'Referrer-Policy: same-origin'; do
    grep -qi "^$header" "$2" || fail "$1: no '$header' header in $(tr -d '\r' <"$2" | head -c 600)"
  done
}
etag=$(curl -sS -D - -o /dev/null "$gw/index.html" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" {print $2}')
[[ -n $etag ]] || fail "index.html has no ETag"
kind() {  # label, expected status, curl arguments...
  local label=$1 expected=$2 code
  shift 2
  code=$(curl -sS -D "$work/head" -o /dev/null -w '%{http_code}' --max-time 10 "$@") || fail "$label: curl failed"
  [[ $code == "$expected" ]] || fail "$label: HTTP $code, not $expected"
  security_headers "$label" "$work/head"
}
kind "a file" 200 "$gw/index.html"
kind "a file not modified" 304 -H "If-None-Match: $etag" "$gw/index.html"
kind "HEAD of a file" 200 -I "$gw/index.html"
kind "an API answer" 200 "$gw/api/v1/ladders"
kind "HEAD of an API answer" 200 -I "$gw/api/v1/ladders"
kind "a missing file" 404 "$gw/nothing-here.txt"
kind "an API error" 404 "$gw/api/v1/nothing"
kind "a method refused" 405 -X DELETE "$gw/api/v1/ladders"
kind "a body refused" 413 -X GET --data-binary x "$gw/api/v1/ladders"
kind "a request line too long" 414 "$gw/api/v1/games/$(head -c 20000 /dev/zero | tr '\0' x)"
kind "headers too large" 431 -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' a)" "$gw/healthz"
kind "a people's endpoint" 401 "$gw/api/v1/session"
security_headers "a live event stream" "$work/sse-1.head"
grep -qi '^Content-Type: text/event-stream' "$work/sse-1.head" || fail "the live stream's head: $(cat "$work/sse-1.head")"
# CORS: any site may read the public API (without credentials), nobody a person's.
curl -sS -D "$work/head" -o /dev/null "$gw/api/v1/ladders"
grep -qi '^Access-Control-Allow-Origin: \*' "$work/head" || fail "a public read without Access-Control-Allow-Origin: *"
grep -qi '^Access-Control-Allow-Origin: \*' "$work/sse-1.head" || fail "a live stream without Access-Control-Allow-Origin: *"
curl -sS -D "$work/head" -o /dev/null "$gw/api/v1/session"
if grep -qi '^Access-Control-Allow' "$work/head"; then fail "a people's endpoint answered with CORS headers"; fi
ok
signup='{"name": "csrf-victim", "password": "a long enough password"}'
req 415 /api/v1/session/signup -X POST -H 'Content-Type: text/plain' --data-binary "$signup"
expect "j['error']['status'] == 'UNSUPPORTED_MEDIA_TYPE'" && ok
req 403 /api/v1/session/signup -X POST -H 'Content-Type: application/json' -H 'Origin: https://evil.example' \
  --data-binary "$signup"
expect "j['error']['status'] == 'PERMISSION_DENIED'" && ok
# Neither refusal created the account: the name is still free.
req 201 /api/v1/session/signup -X POST -H 'Content-Type: application/json' -H "Origin: $gw" --data-binary "$signup" \
  -D "$work/signup.head" && ok
person=$(grep -i '^Set-Cookie: metropolis_session=' "$work/signup.head" | sed 's/^[^:]*: //; s/;.*//' | tr -d '\r')

# ---- A game's analysis (docs/ANALYSIS.md) -------------------------------------------------------------
# The ladder's games are bots': not analysed until someone asks. Reading is
# public; asking is a signed-in person's POST, refused from another site like
# every other; the replays service's worker then computes it (a bounded wait).
req 200 "/api/v1/games/$game/analysis"
expect "j == {'game_id': '$game', 'state': 'not_analysed', 'analysis': None, 'method_version': None, 'cpu_seconds': None, 'analysed_unix_ms': None}" && ok
curl -sS -D "$work/head" -o /dev/null "$gw/api/v1/games/$game/analysis"
grep -qi '^Access-Control-Allow-Origin: \*' "$work/head" || fail "the analysis is a public read without Access-Control-Allow-Origin: *"
bad /api/v1/games/bad.id/analysis game_id && ok
req 404 /api/v1/games/no-such-game/analysis && expect "j['error']['backend'] == 'replays'" && ok
bad "/api/v1/games/$game/analysis?now=1" now && ok
req 401 "/api/v1/games/$game/analysis" -X POST && expect "j['error']['message'] == 'not signed in'" && ok
req 403 "/api/v1/games/$game/analysis" -X POST -H "Cookie: $person" -H 'Origin: https://evil.example' && ok
req 405 "/api/v1/games/$game/analysis" -X DELETE -H "Cookie: $person" && ok
req 400 "/api/v1/games/$game/analysis" -X POST -H "Cookie: $person" -H 'Content-Type: application/json' \
  --data-binary '{"priority": 1}' && expect "j['error']['parameter'] == 'priority'" && ok
req 404 /api/v1/games/no-such-game/analysis -X POST -H "Cookie: $person" && ok
req 200 "/api/v1/games/$game/analysis" && expect "j['state'] == 'not_analysed'" && ok # nothing refused was queued
req 202 "/api/v1/games/$game/analysis" -X POST -H "Cookie: $person" -H "Origin: $gw" && expect "j['state'] == 'queued'" && ok
state=queued
for _ in $(seq 1 360); do
  req 200 "/api/v1/games/$game/analysis"
  state=$(value "j['state']")
  [[ $state == queued ]] || break
  sleep 0.5
done
[[ $state == ready ]] || fail "game $game's analysis is '$state' 180 s after it was asked for (the replays service's worker computes it)"
expect "j['method_version'] >= 1 and j['cpu_seconds'] > 0 and j['analysed_unix_ms'] > 0" && ok
expect "len(j['analysis']['luck']['seats']) == 4 and all(len(p['win']) == 4 for p in j['analysis']['graph'])" && ok
expect "j['analysis']['graph'][-1]['step'] == $steps and j['analysis']['graph'][-1]['actor'] == -1" && ok
cp "$body" "$work/analysis.json"
# Asked again: the analysis, at once (200, not queued again).
req 200 "/api/v1/games/$game/analysis" -X POST -H "Cookie: $person" && expect "j['state'] == 'ready'" && ok
# The record file carries it beside the actions, and the engine's verify still reads the file.
req 200 "/api/v1/games/$game/record"
python3 - "$body" "$work/analysis.json" <<'EOF_ANALYSIS' || fail "the record's analysis: $(head -c 400 "$body")"
import json, sys
record, answer = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sys.exit(0 if record["analysis"] == answer["analysis"] and record["actions"] else 1)
EOF_ANALYSIS
cp "$body" "$work/record-analysed.json"
"$build/tools/engine/metropolis-engine" verify --file "$work/record-analysed.json" >"$work/verify.out" ||
  fail "metropolis-engine verify refused a record with its analysis: $(cat "$work/verify.out")"
"$build/tools/engine/metropolis-engine" replay --file "$work/record-analysed.json" >/dev/null ||
  fail "metropolis-engine replay refused a record with its analysis"
ok

# ---- Metrics ----------------------------------------------------------------------------------------

curl -sS "http://$METROPOLIS_GATEWAY_METRICS/metrics" >"$work/metrics.txt" || fail "no metrics"
grep -q 'metropolis_gateway_requests_total{code="200",route="/api/v1/ladders/{}/leaderboard"}' "$work/metrics.txt" ||
  fail "no request metrics: $(grep requests_total "$work/metrics.txt" | head -3)"
# A request for an analysis is counted by its route, never by its game's id.
grep -q 'metropolis_gateway_requests_total{code="202",route="/api/v1/games/{}/analysis"}' "$work/metrics.txt" ||
  fail "the analysis request is not counted by route: $(grep analysis "$work/metrics.txt" | head -3)"
grep -q "$game" "$work/metrics.txt" && fail "a game id is a metrics label"
grep -q '^metropolis_gateway_sse_bytes_total [1-9]' "$work/metrics.txt" || fail "no live stream bytes counted"
grep -q '^metropolis_gateway_spectators 0' "$work/metrics.txt" || fail "spectators left behind"
# Nobody watches any more: the games' histories went with their upstreams.
grep -q '^metropolis_gateway_live_history_bytes 0' "$work/metrics.txt" ||
  fail "live histories left behind: $(grep live_history "$work/metrics.txt")"
# The two live streams were woken by the same events and resumed together:
# fewer batches than resumes (--stream-resume-batch-ms; at 0, one a resume).
resumes=$(awk '$1 == "metropolis_gateway_stream_resumes_total" { print int($2) }' "$work/metrics.txt")
batches=$(awk '$1 == "metropolis_gateway_stream_resume_batches_total" { print int($2) }' "$work/metrics.txt")
[[ ${batches:-0} -ge 1 && ${batches:-0} -lt ${resumes:-0} ]] ||
  fail "the streams were not resumed in batches: ${resumes:-none} resumes in ${batches:-none} batches"
echo "streams resumed: $resumes in $batches batches"
# The process's memory, read at the scrape (lib/common/metrics.cc).
for gauge in process_resident_memory_bytes metropolis_process_heap_in_use_bytes; do
  grep -qE "^$gauge [1-9]" "$work/metrics.txt" || fail "no $gauge: $(grep "$gauge" "$work/metrics.txt")"
done
ok

# ---- One client's flood spends nobody's budget -----------------------------------------------------
# Found by an outside client: the gateway read the services with an API token, so
# one anonymous client flooding /api/v1/tournaments spent that identity's budget at
# the matchmaker (half the answers 503) and its owner's own calls failed. The
# gateway now reads as itself, a service the matchmaker does not limit per
# identity; it limits each client address itself (429).

# flood URL N: N GET requests from 16 threads, each on a kept-alive connection
# (as fast as one client can: a process per request would be slower than the
# budgets refill); prints the count of each HTTP status. "{n}" in URL becomes
# the request's number (N different URLs); FROM, if set, is the address to send from.
flood() {
  FROM=${FROM:-} python3 - "$1" "$2" <<'PY'
import collections, http.client, itertools, os, sys, threading, urllib.parse
url, n = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2])
source = (os.environ["FROM"], 0) if os.environ.get("FROM") else None
target = url.path + ("?" + url.query if url.query else "")
codes, lock, numbers = collections.Counter(), threading.Lock(), itertools.count()
def client(count):
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10, source_address=source)
    for _ in range(count):
        try:
            with lock:
                number = next(numbers)
            conn.request("GET", target.replace("{n}", str(number)))
            response = conn.getresponse()
            response.read()
            code = response.status
        except OSError:
            conn.close()
            conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10, source_address=source)
            code = 0
        with lock:
            codes[code] += 1
threads = [threading.Thread(target=client, args=(n // 16 + (i < n % 16),)) for i in range(16)]
for t in threads: t.start()
for t in threads: t.join()
for code, count in sorted(codes.items()): print(count, code)
PY
}
ctl() { "$build/tools/ctl/metropolisctl" --host "$METROPOLIS_MATCHMAKER" "$@"; }
flood "$gw/api/v1/tournaments" 400 >"$work/flood.txt"
grep -qw 200 "$work/flood.txt" || fail "the flood got no answer at all: $(cat "$work/flood.txt")"
if grep -qw 503 "$work/flood.txt"; then
  fail "a client's flood of the gateway became 503s (a backend refused the gateway): $(tr '\n' ' ' <"$work/flood.txt")"
fi
ctl --token "$METROPOLIS_ADMIN_TOKEN" tournaments >"$work/ctl-after-flood.txt" 2>&1 ||
  fail "the administrator's call failed right after a client's flood: $(cat "$work/ctl-after-flood.txt")"
ok

# The cache (docs/GATEWAY.md, "Budgets"): of a flood of one URL, the services see
# about one request a second, the rest are answered again or share one in flight.
# public_reads N RESULT [PORT]: that gateway's count of reads answered so.
public_reads() {
  curl -sS "http://$1/metrics" | awk -v r="result=\"$2\"" \
    '$1 ~ /^metropolis_gateway_public_reads_total/ && index($1, r) { n += $2 } END { print n + 0 }'
}
misses_before=$(public_reads "$METROPOLIS_GATEWAY_METRICS" miss)
shared_before=$(($(public_reads "$METROPOLIS_GATEWAY_METRICS" hit) + $(public_reads "$METROPOLIS_GATEWAY_METRICS" coalesced)))
# From an address of its own (loopback's 127.0.0.3), whose request budget is whole.
FROM=127.0.0.3 flood "$gw/api/v1/live" 400 >"$work/flood-live.txt"
answered=$(awk '$2 == 200 { print $1 }' "$work/flood-live.txt")
misses=$(($(public_reads "$METROPOLIS_GATEWAY_METRICS" miss) - misses_before))
shared=$(($(public_reads "$METROPOLIS_GATEWAY_METRICS" hit) + $(public_reads "$METROPOLIS_GATEWAY_METRICS" coalesced) - shared_before))
echo "flood of /api/v1/live: ${answered:-0} answered, $misses reached the services, $shared from the cache or shared"
[ "${answered:-0}" -ge 100 ] || fail "the flood of /api/v1/live got few answers: $(tr '\n' ' ' <"$work/flood-live.txt")"
[ $((misses * 10)) -le "$answered" ] || fail "$misses of $answered reads of one URL reached the services: not cached"
ok

# The upstream quota: one address asking for hundreds of different leaderboard
# pages (none cached) is held below its request limit; another address is not.
# 600 as fast as 16 connections go: past the address's request limit (100/s,
# burst 200), so more get through it than the upstream quota (80/s, burst 160) allows.
FROM=127.0.0.4 flood "$gw/api/v1/ladders/open/leaderboard?q=x{n}" 600 >"$work/flood-pages.txt"
grep -qw 429 "$work/flood-pages.txt" || fail "600 uncached reads from one address were not limited: $(tr '\n' ' ' <"$work/flood-pages.txt")"
[ "$(public_reads "$METROPOLIS_GATEWAY_METRICS" refused)" -gt 0 ] || fail "the upstream refusals were not counted"
curl -sS -o "$work/other-address.json" -w '%{http_code}' --interface 127.0.0.2 \
  "$gw/api/v1/ladders/open/leaderboard?q=other" >"$work/other-address.code" || fail "no answer from 127.0.0.2"
[ "$(cat "$work/other-address.code")" = 200 ] ||
  fail "another address was refused after one address's flood: $(cat "$work/other-address.json")"
ok

# Negative control: a second gateway reading under an API token (a user's
# identity), as before, with no limit of its own: the same flood spends that
# identity's budget at the matchmaker, and the gateway answers 503.
"$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" create-player reader >/dev/null
reader_token=$("$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" --json issue-token reader --label gw |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
neg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
neg_metrics=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Nothing cached or shared either (--public-cache-ms 0): every read calls the
# matchmaker, as the negative control of the cache above.
"$build/services/gateway/metropolis-gateway" --listen "127.0.0.1:$neg_port" --metrics-listen "127.0.0.1:$neg_metrics" \
  --accounts "$METROPOLIS_ACCOUNTS" --accounts-token "$reader_token" --replays "$METROPOLIS_REPLAYS" \
  --ratings "$METROPOLIS_RATINGS" --matchmaker "$METROPOLIS_MATCHMAKER" --rate-limit 0 --public-cache-ms 0 \
  --upstream-rate-limit 0 \
  >"$work/neg-gateway.out" 2>"$work/neg-gateway.log" &
neg_pid=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$neg_port/healthz" && break; sleep 0.1; done
# Batches until the identity's budget is spent (a 503) rather than one timed
# burst: on a slow machine a batch may take longer than the budget takes to refill.
: >"$work/neg-flood.txt"
for _ in $(seq 1 10); do
  flood "http://127.0.0.1:$neg_port/api/v1/tournaments" 400 >>"$work/neg-flood.txt"
  grep -qw 503 "$work/neg-flood.txt" && break
done
neg_misses=$(public_reads "127.0.0.1:$neg_metrics" miss)
neg_shared=$(($(public_reads "127.0.0.1:$neg_metrics" hit) + $(public_reads "127.0.0.1:$neg_metrics" coalesced)))
neg_answered=$(awk '{ n += $1 } END { print n }' "$work/neg-flood.txt")
kill -TERM "$neg_pid" 2>/dev/null || true
wait "$neg_pid" 2>/dev/null || true
grep -qw 503 "$work/neg-flood.txt" ||
  fail "negative control: a gateway reading under a user's identity was not limited: $(tr '\n' ' ' <"$work/neg-flood.txt")"
[ "$neg_shared" -eq 0 ] && [ "$neg_misses" -eq "$neg_answered" ] ||
  fail "negative control: without the cache $neg_misses of $neg_answered reads reached the services ($neg_shared shared)"
ok

# ---- A backend down ---------------------------------------------------------------------------------

kill -TERM "$(cat "$METROPOLIS_STACK_DIR/ratings.pid")"
for _ in $(seq 1 100); do kill -0 "$(cat "$METROPOLIS_STACK_DIR/ratings.pid")" 2>/dev/null || break; sleep 0.1; done
req 503 /api/v1/ladders/open/leaderboard
expect "j['error']['backend'] == 'ratings' and j['error']['grpc_status'] in ('UNAVAILABLE', 'DEADLINE_EXCEEDED')" && ok
req 503 /api/v1/players/heuristic-1 && expect "j['error']['backend'] == 'ratings'" && ok
req 503 /readyz && expect "j['backends']['ratings'] != 'SERVING' and j['backends']['replays'] == 'SERVING'" && ok
req 200 "/api/v1/games/$game" && ok  # what does not need ratings still works

echo "gateway_test: passed ($checks checks, $stored stored games, a live game of $live_steps steps)"
