#!/usr/bin/env bash
# metropolis-admin against a fresh database on the test command's PostgreSQL
# (METROPOLIS_PG_CONNINFO; label integration: fails, never skips, without it).
#
#   services/accounts/tests/admin_cli_test.sh ADMIN MIGRATE MIGRATIONS_DIR
set -euo pipefail

admin=${1:?usage: admin_cli_test.sh path/to/metropolis-admin path/to/metropolis-migrate migrations-dir}
migrate=${2:?usage: admin_cli_test.sh ADMIN MIGRATE MIGRATIONS_DIR}
migrations=${3:?usage: admin_cli_test.sh ADMIN MIGRATE MIGRATIONS_DIR}
if [[ -z ${METROPOLIS_PG_CONNINFO:-} ]]; then
  echo "FAIL: METROPOLIS_PG_CONNINFO is not set: run the integration tests through scripts/test.sh," \
    "or start PostgreSQL with scripts/lib/services.sh" >&2
  exit 1
fi

tmp=$(mktemp -d)
db="admin_cli_$$_$RANDOM"
cleanup() {
  psql "$METROPOLIS_PG_CONNINFO" -qAt -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
psql "$METROPOLIS_PG_CONNINFO" -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" >/dev/null
pg="$METROPOLIS_PG_CONNINFO dbname=$db"  # libpq: the last dbname wins
"$migrate" --pg "$pg" --dir "$migrations" >/dev/null
unset METROPOLIS_PG
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
  "$admin" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || code=$?
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

# lacks NAME out|err TEXT: the output does not contain TEXT.
lacks() {
  if grep -qF -- "$3" "$tmp/$1.$2"; then
    fail "$1: std$2 holds '$3'"
  fi
}

# json NAME PYTHON: stdout parses as JSON and PYTHON (an expression of `d`) holds.
json() {
  if ! python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/$1.out" "$2"; then
    fail "$1: JSON does not satisfy $2"
    sed 's/^/    /' "$tmp/$1.out" | head -20 >&2
  fi
}

# ---- help and usage errors -------------------------------------------------------
run help 0 --help
for cmd in create-player create-bot identities issue-token tokens revoke-token create-ladder create-season ladders; do
  expect help out "$cmd"
  run "help-$cmd" 0 "$cmd" --help
  expect "help-$cmd" out "usage: metropolis-admin $cmd"
  expect "help-$cmd" out "--pg CONNINFO"
done
expect help-create-bot out "--owner PLAYER"
expect help-issue-token out "--admin"
expect help-create-ladder out "--placement-games N"
run help-word 0 help
run no-command 2
expect no-command err "usage: metropolis-admin"
run bad-command 2 frobnicate
expect bad-command err "unknown command 'frobnicate'"
run bad-global 2 --bogus identities
expect bad-global err "unknown global flag '--bogus'"
run bad-flag 2 identities --pg "$pg" --bogus
expect bad-flag err "metropolis-admin identities: unknown flag '--bogus'"
run missing-arg 2 create-player --pg "$pg"
expect missing-arg err "NAME is missing"
run extra-arg 2 create-player alice bob --pg "$pg"
expect extra-arg err "unexpected argument 'bob'"
run no-owner 2 create-bot alicebot --pg "$pg"
expect no-owner err "--owner PLAYER is required"
run no-pg 2 identities
expect no-pg err "--pg CONNINFO (or METROPOLIS_PG) is required"
run bad-id 2 revoke-token abc --pg "$pg"
expect bad-id err "'abc' is not a token id"
run bad-seats 2 create-ladder main --seats 5 --pg "$pg"
expect bad-seats err "flag '--seats': '5' is not an integer in [3, 4]"
run bad-mu 2 create-ladder main --mu lots --pg "$pg"
expect bad-mu err "flag '--mu': 'lots' is not a number"

# ---- identities ------------------------------------------------------------------
run create-player 0 --pg "$pg" create-player alice
expect create-player out "created player alice (id "
run create-player-json 0 create-player bob --json --pg "$pg"
json create-player-json 'd["name"] == "bob" and d["kind"] == "player" and d["owner"] is None and d["id"] > 0'
METROPOLIS_PG=$pg run create-bot 0 create-bot alicebot --owner alice
expect create-bot out "created bot alicebot"
expect create-bot out "owned by alice"
run create-bot-json 0 --json create-bot bobbot --owner bob --pg "$pg"
json create-bot-json 'd["kind"] == "bot" and d["owner"] == "bob"'
run taken 1 create-player alice --pg "$pg"
expect taken err "metropolis-admin create-player: ALREADY_EXISTS: name 'alice' is taken"
run bad-name 1 create-player "no spaces" --pg "$pg"
expect bad-name err "INVALID_ARGUMENT: name: 'no spaces'"
run unknown-owner 1 create-bot carolbot --owner carol --pg "$pg"
expect unknown-owner err "NOT_FOUND: owner: no identity named 'carol'"
run identities 0 identities --pg "$pg"
expect identities out "alicebot"
if ! grep -qE '^id +kind +name +owner +created$' "$tmp/identities.out"; then fail "identities: no header row"; fi
if ! grep -qE '^[0-9]+ +bot +alicebot +alice +[0-9]{4}-' "$tmp/identities.out"; then fail "identities: no bot row"; fi
run identities-json 0 identities --json --pg "$pg"
json identities-json '[i["name"] for i in d] == ["alice", "bob", "alicebot", "bobbot"]'

# ---- tokens ----------------------------------------------------------------------
run issue 0 issue-token alice --label laptop --admin --pg "$pg"
expect issue out "will not be shown again"
token=$(grep -oE 'mtp_[0-9a-f]{64}' "$tmp/issue.out" || true)
[[ -n $token ]] || fail "issue: no token printed"
run issue-json 0 issue-token alicebot --json --pg "$pg"
json issue-json 'd["identity"] == "alicebot" and d["admin"] is False and d["token"].startswith("mtp_") and len(d["token"]) == 68'
bot_token_id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$tmp/issue-json.out")
run issue-unknown 1 issue-token nobody --pg "$pg"
expect issue-unknown err "NOT_FOUND: no identity named 'nobody'"
run tokens 0 tokens alice --pg "$pg"
expect tokens out "laptop"
if ! grep -qE '^id +label +admin +created +revoked$' "$tmp/tokens.out"; then fail "tokens: no header row"; fi
lacks tokens out "mtp_"
run revoke 0 revoke-token "$bot_token_id" --pg "$pg"
expect revoke out "revoked token $bot_token_id"
run revoke-again 1 revoke-token "$bot_token_id" --pg "$pg"
expect revoke-again err "FAILED_PRECONDITION: token $bot_token_id was already revoked"
run revoke-unknown 1 revoke-token 999999 --pg "$pg"
expect revoke-unknown err "NOT_FOUND: no token with id 999999"
run tokens-json 0 tokens alicebot --json --pg "$pg"
json tokens-json 'len(d) == 1 and d[0]["revoked_unix_ms"] is not None and "token" not in d[0]'
lacks tokens-json out "mtp_"
run tokens-alice-json 0 tokens alice --json --pg "$pg"
json tokens-alice-json 'len(d) == 1 and d[0]["label"] == "laptop" and d[0]["admin"] is True and d[0]["revoked_unix_ms"] is None'
if [[ -n $token ]] && psql "$pg" -qAt -c "SELECT t::text FROM api_tokens t" | grep -qF "${token#mtp_}"; then
  fail "the raw token is in the database"
fi

# ---- ladders and seasons ---------------------------------------------------------
run create-ladder 0 create-ladder main --title "Main ladder" --seats 3 --ruleset base --placement-games 5 \
  --mu 30 --tau 0 --pg "$pg"
expect create-ladder out "created ladder main"
run create-ladder-json 0 create-ladder second --json --pg "$pg"
json create-ladder-json 'd["id"] == "second" and d["seats"] == 4 and d["ruleset"] == "cities_and_knights" and abs(d["sigma"] - 25 / 3) < 1e-12'
run ladder-taken 1 create-ladder main --pg "$pg"
expect ladder-taken err "ALREADY_EXISTS: ladder 'main' exists"
run bad-ladder 1 create-ladder Main --pg "$pg"
expect bad-ladder err "INVALID_ARGUMENT: id: 'Main'"
run season-1 0 create-season main --pg "$pg"
expect season-1 out "ladder main: season 1 is open"
run season-2 0 create-season main --json --pg "$pg"
json season-2 'd == {"ladder": "main", "season": 2}'
run season-unknown 1 create-season nowhere --pg "$pg"
expect season-unknown err "NOT_FOUND: no ladder 'nowhere'"
run ladders 0 ladders --pg "$pg"
expect ladders out "Main ladder"
if ! grep -qE '^main +Main ladder +base +3 +5 +30 ' "$tmp/ladders.out"; then fail "ladders: no main row"; fi
run ladders-json 0 ladders --json --pg "$pg"
json ladders-json '[(l["id"], l["season"], l["seats"], l["mu"], l["tau"]) for l in d] == [("main", 2, 3, 30, 0), ("second", 0, 4, 25, 25 / 300)]'

# ---- a database that is not there -----------------------------------------------
run no-database 1 identities --pg "host=127.0.0.1 port=1 dbname=none connect_timeout=2"
expect no-database err "metropolis-admin identities: UNAVAILABLE: database unavailable"

if [[ $failures -ne 0 ]]; then
  echo "admin_cli_test: $failures failure(s)" >&2
  exit 1
fi
echo "admin_cli_test: all passed"
