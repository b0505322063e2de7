#!/usr/bin/env bash
# The whole local stack over TLS (label e2e; docs/SECURITY.md): a throwaway CA made
# with openssl, and every program of deploy/local/stack.sh — accounts, replays,
# ratings, the matchmaker, the game host, the gateway — given its certificate, key and CA
# through its own environment variables (METROPOLIS_<PROGRAM>_TLS_CERT, ...), the
# way a deployment sets them. 4 bots play a ladder game through scripts/ladder_demo.sh
# (metropolis-bot and metropolisctl read METROPOLIS_TLS_CA), which the matchmaker
# creates on the game host, which hands it to replays and ratings, each checking
# tokens with accounts: every hop TLS.
# Each service refuses a plaintext client, and the gateway serves HTTPS with its
# backends ready over TLS.
#
#   tests/e2e/tls_stack_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin tls_stack_test "${1:-}"
command -v openssl >/dev/null || fail "the openssl command is not installed"

pki=$work/pki
mkdir -p "$pki"
(
  cd "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=metropolis-test-ca
  openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >san.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile san.ext
) >"$work/openssl.log" 2>&1 || fail "openssl could not make the certificates: $(tail -3 "$work/openssl.log")"
for program in ACCOUNTS REPLAYS RATINGS MATCHMAKER GAMEHOST GATEWAY; do
  export "METROPOLIS_${program}_TLS_CERT=$pki/server.pem" "METROPOLIS_${program}_TLS_KEY=$pki/server.key" \
    "METROPOLIS_${program}_TLS_CA=$pki/ca.pem"
done
export METROPOLIS_TLS_CA=$pki/ca.pem  # metropolisctl and metropolis-bot

deploy/local/stack.sh up "$build" >"$work/up.log" 2>&1 || fail "the stack did not start: $(tail -5 "$work/up.log")"
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
for log in accounts replays ratings matchmaker gamehost1; do
  grep -q "tls=on" "$METROPOLIS_STACK_DIR/logs/$log.log" || fail "$log did not say tls=on"
done

scripts/ladder_demo.sh --bots 4 --games 1 >"$work/demo.log" 2>&1 ||
  fail "the bots did not play over TLS: $(tail -5 "$work/demo.log")"
expect_all_rated
expect_rated_once
expect_checked --ladder open --every-game-recorded --games-per-bot 1
games=$(sql "SELECT count(*) FROM games")
((games >= 1)) || fail "no game stored"

ctl="$build/tools/ctl/metropolisctl"
for address in "$METROPOLIS_ACCOUNTS" "$METROPOLIS_REPLAYS" "$METROPOLIS_RATINGS" "$METROPOLIS_MATCHMAKER" "$METROPOLIS_GAMEHOST"; do
  # Without --service, health asks about the server and each Metropolis service it
  # lists through reflection: SERVING whichever service this is, not only a host.
  "$ctl" --host "$address" health >"$work/tls.txt" 2>&1 ||
    fail "$address is not SERVING, or did not answer a client trusting the CA: $(cat "$work/tls.txt")"
  grep -q "^metropolis\.v1\." "$work/tls.txt" ||
    fail "$address: health asked about no Metropolis service: $(cat "$work/tls.txt")"
  status=0
  env -u METROPOLIS_TLS_CA "$ctl" --host "$address" --timeout-ms 3000 health --service "" >"$work/plain.txt" 2>&1 ||
    status=$?
  { [[ $status == 1 ]] && grep -q UNAVAILABLE "$work/plain.txt"; } ||
    fail "$address answered a plaintext client: exit $status, $(cat "$work/plain.txt")"
done

https=${METROPOLIS_GATEWAY/http:/https:}
code=$(curl -sS --cacert "$pki/ca.pem" -o "$work/ready.json" -w '%{http_code}' "$https/readyz") ||
  fail "curl --cacert could not reach $https/readyz"
[[ $code == 200 ]] || fail "GET /readyz over HTTPS: $code $(cat "$work/ready.json")"
code=$(curl -sS --cacert "$pki/ca.pem" -o "$work/games.json" -w '%{http_code}' "$https/api/v1/games")
{ [[ $code == 200 ]] && grep -q '"game_id"' "$work/games.json"; } ||
  fail "GET /api/v1/games over HTTPS: $code $(head -c 300 "$work/games.json")"
echo "tls_stack_test: passed ($games games over TLS between every service)"
