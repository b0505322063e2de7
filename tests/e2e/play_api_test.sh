#!/usr/bin/env bash
# People playing through the gateway, end to end (label e2e): the local stack,
# a person who signs up, out and in; a practice game against built-in bots
# played to its end over the play API by a small client (tests/e2e/lib/play_client.py)
# with a reload in the middle; a ladder game found through the queue against
# three network bots and played to its end, after which the person is on the
# ladder's leaderboard; the practice game's analysis, made unasked as it was
# stored, and the person's luck summary over it; and bad requests, each a
# precise error that changes nothing.
#
#   tests/e2e/play_api_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin play_api_test "${1:-}"

[[ -x $build/services/gateway/metropolis-gateway ]] || fail "no metropolis-gateway in $build"
# A practice limit of 0 is refused by name: no practice at all is an empty --gamehost-admin-token.
"$build/services/gateway/metropolis-gateway" --max-practice-games 0 >"$work/limit.log" 2>&1 &&
  fail "the gateway started with --max-practice-games 0"
grep -q "max-practice-games (or [A-Z_]*): '0' is not an integer in 1..100" "$work/limit.log" ||
  fail "--max-practice-games 0: $(cat "$work/limit.log")"
# The practice game waits for its player through two dozen checks of bad requests
# before the play client connects; on a loaded machine that took longer than the
# host's default 30 s start timeout, and the game was void ("nobody joined").
METROPOLIS_GAMEHOST_FLAGS="--start-timeout-ms 300000" deploy/local/stack.sh up "$build" >"$work/stack-up.log" ||
  fail "the stack did not start"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
gw=${METROPOLIS_GATEWAY:?the stack did not start the gateway}
admin() { "$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" "$@"; }

body=$work/body headers=$work/headers
# call STATUS METHOD PATH [JSON] [COOKIE]: the body lands in $body, the headers in $headers.
call() {
  local want=$1 method=$2 path=$3 data=${4:-} cookie=${5:-} got
  local args=(-sS -X "$method" -o "$body" -D "$headers" -w '%{http_code}')
  [[ -n $data ]] && args+=(-H 'Content-Type: application/json' --data-binary "$data")
  [[ -n $cookie ]] && args+=(-H "Cookie: $cookie")
  last="$method $path"
  got=$(curl "${args[@]}" "$gw$path") || fail "curl $method $path failed"
  [[ $got == "$want" ]] || fail "$method $path: HTTP $got, expected $want: $(head -c 400 "$body")"
}
expect() {
  python3 - "$body" "$1" <<'PY' || fail "$last: '$1' does not hold; body: $(head -c 600 "$body")"
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
value() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$body" "$1"; }
# The session cookie the last answer set, as a Cookie header.
cookie_set() { grep -i '^Set-Cookie: metropolis_session=' "$headers" | sed 's/^[^:]*: //; s/;.*//' | tr -d '\r'; }
checks=0
ok() { checks=$((checks + 1)); }

# ---- Accounts and sessions ---------------------------------------------------------------

call 401 GET /api/v1/session
expect "j['error']['code'] == 401 and j['error']['message'] == 'not signed in'" && ok
call 201 POST /api/v1/session/signup '{"name": "alice", "password": "correct horse"}'
expect "j['player']['name'] == 'alice' and j['player']['id'] > 0" && ok
grep -qi '^Set-Cookie: metropolis_session=[0-9a-f]\{64\}; Max-Age=604800; Path=/; HttpOnly; SameSite=Strict' "$headers" ||
  fail "signup: no session cookie: $(cat "$headers")"
alice=$(cookie_set)
alice_id=$(value "j['player']['id']")
# The person is a player identity of the accounts tables, with an argon2id hash.
[[ $(sql "SELECT kind FROM identities WHERE id = $alice_id") == player ]] || fail "alice is not a player identity"
[[ $(sql "SELECT password_hash LIKE '\$argon2id\$%' FROM player_passwords WHERE identity_id = $alice_id") == t ]] ||
  fail "alice's password is not an argon2id hash"
# Only the cookie's hash is stored.
[[ $(sql "SELECT count(*) FROM web_sessions WHERE token_sha256 = sha256('${alice#*=}')") == 1 ]] ||
  fail "the session is not stored by the cookie's SHA-256"
[[ $(sql "SELECT count(*) FROM web_sessions WHERE encode(token_sha256, 'hex') = '${alice#*=}'") == 0 ]] ||
  fail "the cookie itself is stored"
call 200 GET /api/v1/session "" "$alice"
expect "j['player']['name'] == 'alice' and j['active_game'] is None and j['queue'] is None and j['expires_at'] > 0" && ok

call 409 POST /api/v1/session/signup '{"name": "ALICE", "password": "another one"}'
expect "j['error']['parameter'] == 'name' and 'taken' in j['error']['message']" && ok
call 400 POST /api/v1/session/signup '{"name": "bo b", "password": "correct horse"}'
expect "j['error']['parameter'] == 'name'" && ok
call 400 POST /api/v1/session/signup '{"name": "bob", "password": "short"}'
expect "j['error']['parameter'] == 'password' and 'not 5' in j['error']['message']" && ok
call 400 POST /api/v1/session/signup '{"name": "bob", "password": "correct horse", "admin": true}'
expect "j['error']['parameter'] == 'admin'" && ok
call 400 POST /api/v1/session/signup '{"name": "bob", "password": 12345678}'
expect "j['error']['parameter'] == 'password'" && ok
call 400 POST /api/v1/session/signup 'not json'
expect "j['error']['message'] == 'the body must be a JSON object'" && ok
call 413 POST /api/v1/session/signup "{\"name\": \"bob\", \"password\": \"$(head -c 17000 /dev/zero | tr '\0' x)\"}"
ok
[[ $(sql "SELECT count(*) FROM identities WHERE lower(name) = 'bob'") == 0 ]] || fail "a refused sign-up created bob"
call 405 GET /api/v1/session/signup
grep -qi '^Allow: POST' "$headers" || fail "405 without Allow"
ok
call 400 GET '/api/v1/session?x=1'
expect "j['error']['parameter'] == 'x'" && ok

call 204 POST /api/v1/session/signout "" "$alice"
grep -qi '^Set-Cookie: metropolis_session=; Max-Age=0' "$headers" || fail "signout did not clear the cookie"
call 401 GET /api/v1/session "" "$alice" && ok
call 401 POST /api/v1/session/signin '{"name": "alice", "password": "wrong horse"}'
expect "j['error']['message'] == 'wrong name or password'" && ok
call 401 POST /api/v1/session/signin '{"name": "nobody", "password": "wrong horse"}'
expect "j['error']['message'] == 'wrong name or password'" && ok
call 200 POST /api/v1/session/signin '{"name": "alice", "password": "correct horse"}'
expect "j['player']['id'] == $alice_id" && ok
alice=$(cookie_set)
call 201 POST /api/v1/session/signup '{"name": "bob", "password": "battery staple"}'
bob=$(cookie_set)
# Five wrong passwords for one name from one address, and the sixth try waits,
# the right password too; the limit is per name, so alice is not affected.
for _ in 1 2 3 4 5; do call 401 POST /api/v1/session/signin '{"name": "bob", "password": "guessing!"}'; done
call 429 POST /api/v1/session/signin '{"name": "Bob", "password": "battery staple"}'
expect "j['error']['status'] == 'RESOURCE_EXHAUSTED'" && ok
grep -qi '^Retry-After: [1-9]' "$headers" || fail "429 without Retry-After"
call 200 POST /api/v1/session/signin '{"name": "alice", "password": "correct horse"}' && ok
alice=$(cookie_set)

# ---- Practice -----------------------------------------------------------------------------

call 401 POST /api/v1/practice '{"bots": 2, "strength": "heuristic"}' && ok
call 400 POST /api/v1/practice '{"bots": 4, "strength": "heuristic"}' "$alice"
expect "j['error']['parameter'] == 'bots'" && ok
call 400 POST /api/v1/practice '{"bots": 2, "strength": "grandmaster"}' "$alice"
expect "j['error']['parameter'] == 'strength'" && ok
call 201 POST /api/v1/practice '{"bots": 2, "strength": "heuristic"}' "$alice"
practice=$(value "j['game_id']")
practice_seat=$(value "j['seat']")
expect "j['seat'] in (0, 1, 2)" && ok
call 200 GET /api/v1/session "" "$alice"
expect "j['active_game'] == {'game_id': '$practice', 'seat': $(value "j['active_game']['seat']")}" && ok

# Bad requests on the game: another's game, an unknown one, malformed answers.
call 403 GET "/api/v1/play/$practice/events" "" "$bob"
expect "j['error']['status'] == 'PERMISSION_DENIED'" && ok
call 403 POST "/api/v1/play/$practice/answer" '{"step": 0, "text": "end_turn"}' "$bob" && ok
# At most --max-practice-games (2) unfinished practice games a person: a third start
# is refused and creates nothing (bob's two games are void when nobody joins them).
call 201 POST /api/v1/practice '{"bots": 2, "strength": "random"}' "$bob"
call 201 POST /api/v1/practice '{"bots": 2, "strength": "random"}' "$bob"
call 429 POST /api/v1/practice '{"bots": 2, "strength": "random"}' "$bob"
expect "j['error']['status'] == 'RESOURCE_EXHAUSTED' and 'resigning one frees a slot' in j['error']['message']" && ok
[[ $(sql "SELECT count(*) FROM web_seats s JOIN identities i ON i.id = s.identity_id WHERE i.name = 'bob'") == 2 ]] ||
  fail "bob's refused practice start stored a seat"
call 404 GET /api/v1/play/g-nosuchgame/events "" "$alice" && ok
call 401 GET "/api/v1/play/$practice/events" && ok
call 405 POST "/api/v1/play/$practice/events" '{}' "$alice" && ok
call 400 GET /api/v1/play/bad%20id/events "" "$alice"
expect "j['error']['parameter'] == 'game_id'" && ok
call 409 POST "/api/v1/play/$practice/answer" '{"step": 0, "text": "end_turn"}' "$alice"
expect "'/events first' in j['error']['message']" && ok
call 400 POST "/api/v1/play/$practice/answer" '{"step": 0}' "$alice"
expect "j['error']['parameter'] == 'code'" && ok
call 400 POST "/api/v1/play/$practice/answer" '{"step": 0, "code": "12x"}' "$alice"
expect "j['error']['parameter'] == 'code'" && ok
call 400 POST "/api/v1/play/$practice/answer" '{"step": 0, "code": "99999999999999999999999"}' "$alice"
expect "j['error']['parameter'] == 'code'" && ok
call 400 POST "/api/v1/play/$practice/answer" '{"step": 0, "code": "1", "text": "end_turn"}' "$alice"
expect "j['error']['parameter'] == 'code'" && ok
call 400 POST "/api/v1/play/$practice/answer" '{"step": 0, "text": "fly_to_the_moon"}' "$alice"
expect "j['error']['parameter'] == 'text'" && ok
call 400 POST "/api/v1/play/$practice/answer" '{"step": -1, "text": "end_turn"}' "$alice"
expect "j['error']['parameter'] == 'step'" && ok

# Played to its end over the API, with a reload after 5 decisions: the new
# stream starts with the welcome and the same decision.
python3 tests/e2e/lib/play_client.py "$gw" "$alice" "$practice" --reload-after 5 >"$work/practice.json" ||
  fail "the practice game was not played to its end"
python3 - "$work/practice.json" <<'PY' || fail "practice: $(cat "$work/practice.json")"
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if r["reloaded"] is True and r["welcomes"] == 2 and r["answered"] > 5 and r["result"]["reason"] == "END_REASON_WON" else 1)
PY
ok
# The game is stored without a ladder, and not rated (checked once the host
# handed it over: a query that fails fails the test).
stored=""
for _ in $(seq 1 100); do
  stored=$(sql "SELECT coalesce(nullif(ladder_id, ''), 'none') FROM games WHERE id = '$practice'") || fail "psql failed"
  [[ -n $stored ]] && break
  sleep 0.1
done
[[ $stored == none ]] || fail "the practice game is stored with ladder '$stored'"
rated=$(sql "SELECT coalesce((SELECT rated::text FROM rated_games WHERE game_id = '$practice'), 'no row')") ||
  fail "psql failed"
[[ $rated != true ]] || fail "the practice game was rated"
call 200 "GET" "/api/v1/games?player=alice"
expect "[g['game_id'] for g in j['games']] == ['$practice'] and j['games'][0]['ladder'] is None" && ok
# A person sat at the table, so the replays service analyses the game as it is
# stored, unasked (docs/ANALYSIS.md): the gateway shows it once ready, and its
# record file carries it, which the engine's verify still reads.
state=none
for _ in $(seq 1 360); do
  call 200 GET "/api/v1/games/$practice/analysis"
  state=$(value "j['state']")
  [[ $state == ready ]] && break
  sleep 0.5
done
[[ $state == ready ]] || fail "the practice game's analysis is '$state' 180 s after the game was stored"
expect "len(j['analysis']['luck']['seats']) == 3 and j['analysis']['decisions'] > 0 and j['method_version'] >= 1" && ok
luck_seat=$work/practice-luck-seat.json
python3 - "$body" "$practice_seat" "$luck_seat" <<'PY'
import json, sys
seats = json.load(open(sys.argv[1]))["analysis"]["luck"]["seats"]
json.dump(next(s for s in seats if s["seat"] == int(sys.argv[2])), open(sys.argv[3], "w"))
PY
# The analysis counts on alice's profile at once: her luck summary is over her one
# analysed game (the practice game is her only stored game so far), so its means
# are her seat's own figures.
call 200 GET /api/v1/players/ALICE/luck
expect "j['player'] == 'alice' and j['games'] == 1" && ok
python3 - "$body" "$luck_seat" <<'PY' || fail "alice's luck summary is not her seat's luck account: $(cat "$body") vs $(cat "$luck_seat")"
import json, sys
j, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {"luck_cards": s["luck_cards"], "dice_surplus": s["dice_cards"] - s["expected_cards"],
        "draw_surplus": s["draws"] - s["expected_draws"], "place": s["place"], "adjusted_place": s["adjusted_place"]}
sys.exit(0 if all(abs(j[k] - v) < 1e-6 for k, v in want.items()) else 1)
PY
ok
# A player without an analysed game has a summary of zeros; an unknown name is 404.
admin create-player dora >/dev/null
call 200 GET /api/v1/players/dora/luck
expect "j == {'player': 'dora', 'games': 0, 'luck_cards': 0, 'dice_surplus': 0, 'draw_surplus': 0, 'place': 0, 'adjusted_place': 0}" && ok
call 404 GET /api/v1/players/nobody/luck && ok
call 200 GET "/api/v1/games/$practice/record"
expect "j['analysis']['luck']['seats'][0]['seat'] == 0 and j['actions']" && ok
cp "$body" "$work/practice-record.json"
"$build/tools/engine/metropolis-engine" verify --file "$work/practice-record.json" >"$work/verify.out" ||
  fail "metropolis-engine verify refused the record with its analysis: $(cat "$work/verify.out")"
ok
call 200 GET /api/v1/session "" "$alice"
expect "j['active_game'] is None" && ok
# Route patterns label the requests, never game ids.
metrics=$(curl -sS "http://$METROPOLIS_GATEWAY_METRICS/metrics") || fail "no metrics"
grep -q '^metropolis_gateway_play_streams ' <<<"$metrics" || fail "no play streams gauge"
grep -q 'route="/api/v1/play/{}/answer"' <<<"$metrics" || fail "answers are not counted by route pattern"
grep -q 'route="/api/v1/players/{}/luck"' <<<"$metrics" || fail "luck summaries are not counted by route pattern"
grep -q "$practice" <<<"$metrics" && fail "a game id is a metrics label"
# Each request is counted once (people's requests were once counted twice).
sessions_counted() {
  curl -sS "http://$METROPOLIS_GATEWAY_METRICS/metrics" | awk '$1 ~ /^metropolis_gateway_requests_total[{]/ &&
    index($1, "route=\"/api/v1/session\"") && index($1, "code=\"200\"") { n += $2 } END { print n + 0 }'
}
before=$(sessions_counted)
for _ in 1 2 3; do call 200 GET /api/v1/session "" "$alice"; done
counted=$(($(sessions_counted) - before))
[[ $counted == 3 ]] || fail "3 requests of /api/v1/session were counted $counted times"
ok

# ---- The ladder queue ----------------------------------------------------------------------

admin create-ladder duel --seats 4 --placement-games 2 >/dev/null
admin create-season duel >/dev/null
call 404 POST /api/v1/queue '{"ladder": "nope"}' "$alice"
expect "j['error']['backend'] == 'matchmaker'" && ok
call 400 POST /api/v1/queue '{"ladder": "Not A Ladder"}' "$alice"
expect "j['error']['parameter'] == 'ladder'" && ok
call 409 DELETE /api/v1/queue "" "$alice"
expect "j['error']['message'] == 'not waiting in a queue'" && ok
# Queue and leave.
call 202 POST /api/v1/queue '{"ladder": "duel"}' "$alice"
expect "j['state'] == 'waiting' and j['ladder'] == 'duel'" && ok
call 409 POST /api/v1/queue '{"ladder": "duel"}' "$alice" && ok
call 204 DELETE /api/v1/queue "" "$alice" && ok
call 200 GET /api/v1/queue "" "$alice"
expect "j['state'] == 'none'" && ok
# Queue again; three network bots come and the table is formed.
call 202 POST /api/v1/queue '{"ladder": "duel"}' "$alice"
scripts/ladder_demo.sh --ladder duel --bots 3 --games 1 >"$work/demo.log" 2>&1 &
demo=$!
state=""
for _ in $(seq 1 120); do
  call 200 GET /api/v1/queue "" "$alice"
  state=$(value "j['state']")
  [[ $state == waiting ]] || break
  sleep 0.5
done
[[ $state == matched ]] || fail "the queue ended $state: $(cat "$body")"
expect "j['ladder'] == 'duel' and j['seat'] in (0, 1, 2, 3) and j['waited_ms'] >= 0" && ok
ladder_game=$(value "j['game_id']")
python3 tests/e2e/lib/play_client.py "$gw" "$alice" "$ladder_game" >"$work/ladder.json" ||
  fail "the ladder game was not played to its end"
wait "$demo" || fail "the bots failed: $(tail -5 "$work/demo.log")"
ok
# Rated: alice is on the ladder's leaderboard (provisional after one game).
for _ in $(seq 1 100); do
  [[ $(sql "SELECT count(*) FROM rated_games WHERE game_id = '$ladder_game' AND rated") == 1 ]] && break
  sleep 0.1
done
call 200 "GET" "/api/v1/ladders/duel/leaderboard?q=alice"
expect "[e['name'] for e in j['entries']] == ['alice'] and j['entries'][0]['games'] == 1" && ok
# The queue's API token was revoked when its stream ended.
[[ $(sql "SELECT count(*) FROM api_tokens WHERE identity_id = $alice_id AND revoked_at IS NULL") == 0 ]] ||
  fail "a queue token of alice's is still valid"
ok
# Both seats the gateway held for her (practice and ladder) are stored sealed with
# the Accounts service's seat key, none in the clear (docs/ACCOUNTS.md).
[[ $(sql "SELECT count(*) FROM web_seats WHERE identity_id = $alice_id AND seat_token LIKE 'xc1:%'") == 2 ]] ||
  fail "alice's seats are not stored sealed: $(sql "SELECT game_id, left(seat_token, 8) FROM web_seats")"
ok

echo "play_api_test: $checks checks passed"
