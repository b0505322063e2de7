#!/usr/bin/env bash
# TLS, size limits and rate limits end to end (label e2e; docs/SECURITY.md):
# a throwaway CA and a certificate for 127.0.0.1 made with openssl; metropolis-server
# (every service but the gateway) serving gRPC over TLS and calling itself over TLS,
# and metropolis-gateway serving HTTPS and calling the services over TLS. Against
# the PostgreSQL and Redis the test command starts (METROPOLIS_PG_CONNINFO,
# METROPOLIS_REDIS_ADDR), in a database and a Redis prefix of its own. It proves:
#   - a client that trusts the CA gets answers; a plaintext client, and one that
#     trusts another CA, get UNAVAILABLE;
#   - 4 bots play a ladder game over TLS, and the game is stored and rated (the
#     services' calls to each other are TLS too);
#   - the gateway serves HTTPS to curl --cacert, its backends are ready over TLS,
#     and plain HTTP gets nothing;
#   - an oversized gRPC message is RESOURCE_EXHAUSTED, an oversized query 414;
#   - a burst beyond the rate limit is RESOURCE_EXHAUSTED (gRPC, per identity) and
#     429 with Retry-After (HTTP, per address), counted in
#     metropolis_rate_limited_total, and answered again after the window;
#   - bad TLS flags are refused with errors that name them.
#
#   tests/e2e/tls_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/server_test.sh
source "$(dirname "$0")/lib/server_test.sh"
server_test_begin tls_test "${1:-}"
[[ -x $gateway ]] || fail "$gateway is not built"
command -v openssl >/dev/null || fail "the openssl command is not installed"
command -v curl >/dev/null || fail "curl is not installed"

# --- A throwaway CA, a server certificate for 127.0.0.1, and a CA nobody uses ------------
pki=$work/pki
mkdir -p "$pki"
(
  cd "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=metropolis-test-ca
  openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.pem -days 1 -subj /CN=other-ca
  openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >san.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile san.ext
) >"$work/openssl.log" 2>&1 || fail "openssl could not make the certificates: $(tail -3 "$work/openssl.log")"
tls=(--tls-cert "$pki/server.pem" --tls-key "$pki/server.key" --tls-ca "$pki/ca.pem")

# --- Bad TLS flags: precise refusals, before anything starts -----------------------------
base=(--pg x --redis 127.0.0.1:1 --listen "127.0.0.1:$(free_port)")
refused "$server" "--tls-cert and --tls-key go together" "${base[@]}" --tls-cert "$pki/server.pem"
refused "$server" "$pki/other.key: not the private key of the certificate in $pki/server.pem" "${base[@]}" \
  --tls-cert "$pki/server.pem" --tls-key "$pki/other.key" --tls-ca "$pki/ca.pem"
refused "$server" "--tls-ca: $pki/missing.pem: cannot be read" "${base[@]}" --tls-ca "$pki/missing.pem"
refused "$server" "--tls-cert needs --tls-ca here" "${base[@]}" --tls-cert "$pki/server.pem" \
  --tls-key "$pki/server.key"
refused "$server" "--max-message-bytes" "${base[@]}" --max-message-bytes 10
refused "$gateway" "--tls-cert and --tls-key go together" --accounts x --accounts-token t \
  --tls-key "$pki/server.key"
expect_help_mentions "$server" --tls-cert --tls-key --tls-ca --max-message-bytes --rate-limit --rate-burst
expect_help_mentions "$gateway" --tls-cert --tls-key --tls-ca --rate-limit --rate-burst --public-cache-ms \
  --upstream-rate-limit --upstream-rate-burst
refused "$gateway" "--public-cache-ms" --accounts x --accounts-token t --public-cache-ms 61000
refused "$gateway" "--upstream-rate-limit" --accounts x --accounts-token t --upstream-rate-limit -1
# A bot the hosts would refuse in every game the matchmaker creates: refused at start.
refused "$build/services/matchmaker/metropolis-matchmaker" "--bot: " "${base[@]}" --bot cleverest

# --- metropolis-server over TLS, in a database and a Redis prefix of its own ---------------
server_test_database tls
port=$(free_port)
server_metrics=$(free_port_besides "$port")
# 2 calls per second per identity, bursts of 4; messages of at most 100 kB.
# The gateway's service token: the People service (in the server) takes no other.
gateway_service_token=gw-tls-$RANDOM$RANDOM
# People's seat tokens are stored encrypted with this key: People needs one.
(umask 077 && head -c 32 /dev/urandom >"$work/seat.key")
start_server "$port" "${tls[@]}" --gateway-token "$gateway_service_token" --seat-key-file "$work/seat.key" \
  --rate-limit 2 --rate-burst 4 \
  --max-message-bytes 102400 \
  --metrics-listen "127.0.0.1:$server_metrics"
grep -q "tls=on" "$work/server.log" || fail "metropolis-server did not say tls=on"

ctl() { "$ctl_bin" --host "$addr" --timeout-ms 3000 "$@"; }
retry_until_ok "$work/health.txt" ctl --tls-ca "$pki/ca.pem" health || fail "a client trusting the CA got no answer: $(cat "$work/health.txt")"
METROPOLIS_TLS_CA=$pki/ca.pem ctl health >/dev/null 2>&1 || fail "METROPOLIS_TLS_CA was not read"
expect_unavailable() {  # what args...
  local what=$1 status=0
  shift
  ctl "$@" health >"$work/refused.txt" 2>&1 || status=$?
  [[ $status == 1 ]] && grep -q UNAVAILABLE "$work/refused.txt" ||
    fail "$what: exit $status, '$(cat "$work/refused.txt")', not UNAVAILABLE"
}
expect_unavailable "a plaintext client"
expect_unavailable "a client trusting another CA" --tls-ca "$pki/other.pem"

# --- An oversized message: RESOURCE_EXHAUSTED, and the server answers on -----------------
status=0
ctl --tls-ca "$pki/ca.pem" health --service "$(head -c 120000 /dev/zero | tr '\0' x)" >"$work/big.txt" 2>&1 ||
  status=$?
[[ $status == 1 ]] && grep -q RESOURCE_EXHAUSTED "$work/big.txt" ||
  fail "a 120 kB message: exit $status, '$(head -c 300 "$work/big.txt")', not RESOURCE_EXHAUSTED"
ctl --tls-ca "$pki/ca.pem" health >/dev/null || fail "the server did not answer after an oversized message"

# --- A ladder game over TLS: the services call each other over TLS ------------------------
play_ladder tls "Over TLS" 1 --bot random --games 1 --tls-ca "$pki/ca.pem"
wait_stored_and_rated tls 1
((games == 1)) && [[ $rated == 1 ]] || fail "$games games stored, $rated rated over TLS (expected 1 and 1)"
expect_checked --ladder tls --every-game-recorded --games-per-bot 1

# --- Rate limit per identity at the matchmaker: RESOURCE_EXHAUSTED, then answers again ----
sleep 2.5  # the admin's bucket is full again
limited=0
for _ in $(seq 1 12); do
  status=0
  ctl --tls-ca "$pki/ca.pem" --token "$admin_token" tournaments >"$work/burst.txt" 2>&1 || status=$?
  if ((status != 0)); then
    grep -q "RESOURCE_EXHAUSTED: rate limit: 2 calls per second (bursts of 4)" "$work/burst.txt" ||
      fail "a call of the burst failed otherwise: $(cat "$work/burst.txt")"
    limited=$((limited + 1))
  fi
done
((limited > 0)) || fail "12 calls at once by one identity were all answered (limit 2/s, bursts of 4)"
sleep 2.5
ctl --tls-ca "$pki/ca.pem" --token "$admin_token" tournaments >"$work/after.txt" 2>&1 ||
  fail "the identity was still refused after the window: $(cat "$work/after.txt")"
metrics=$(curl -sS "http://127.0.0.1:$server_metrics/metrics") || fail "no metrics from metropolis-server"
grep -q 'metropolis_rate_limited_total{service="matchmaker"}' <<<"$metrics" ||
  fail "the matchmaker's refusals are not counted in metropolis_rate_limited_total"

# --- The gateway: HTTPS outside, TLS to the services ---------------------------------------
gw_port=$(free_port)
gw_metrics=$(free_port_besides "$gw_port")
"$gateway" --listen "127.0.0.1:$gw_port" --metrics-listen "127.0.0.1:$gw_metrics" \
  --accounts "$addr" --accounts-token "$gateway_service_token" --replays "$addr" --ratings "$addr" \
  --matchmaker "$addr" "${tls[@]}" \
  --rate-limit 2 --rate-burst 4 >"$work/gateway.out" 2>"$work/gateway.log" &
gateway_pid=$!
wait_listening metropolis-gateway "$gateway_pid" "$gw_port"
https=https://127.0.0.1:$gw_port
get() { curl -sS --cacert "$pki/ca.pem" -o "$work/body.json" -D "$work/headers.txt" -w '%{http_code}' "$https$1"; }
code=$(get /healthz) || fail "curl --cacert could not reach $https/healthz"
[[ $code == 200 ]] || fail "GET /healthz over HTTPS: $code"
code=$(get /readyz)
[[ $code == 200 ]] || fail "GET /readyz over HTTPS: $code $(cat "$work/body.json") (the backends over TLS)"
code=$(get "/api/v1/games?ladder=tls")
[[ $code == 200 ]] && grep -q '"game_id"' "$work/body.json" ||
  fail "GET /api/v1/games over HTTPS (from replays over TLS): $code $(head -c 300 "$work/body.json")"
code=$(get "/api/v1/games?ladder=$(head -c 3000 /dev/zero | tr '\0' x)")
[[ $code == 414 ]] && grep -q '"error"' "$work/body.json" || fail "a 3 kB query: $code, not 414 with a JSON error"
# A request line over 16 kB is read whole and refused with a JSON error (414),
# the connection then closed with nothing unread, so no reset races the answer.
code=$(get "/api/v1/games/$(head -c 20000 /dev/zero | tr '\0' x)") || fail "a 20 kB request line: curl failed"
{ [[ $code == 414 ]] && grep -q '"INVALID_ARGUMENT"' "$work/body.json"; } ||
  fail "a 20 kB request line: $code $(head -c 300 "$work/body.json"), not 414 with a JSON error"
if curl -sS --max-time 3 -o /dev/null "http://127.0.0.1:$gw_port/healthz" 2>/dev/null; then
  fail "the gateway answered plain HTTP on its HTTPS port"
fi
if curl -sS --max-time 3 --cacert "$pki/other.pem" -o /dev/null "$https/healthz" 2>/dev/null; then
  fail "curl trusting another CA accepted the gateway's certificate"
fi

# --- Rate limit per address at the gateway: 429 with Retry-After, then 200 again -----------
sleep 2.5
limited=0
for _ in $(seq 1 12); do
  code=$(get /api/v1/ladders)
  if [[ $code == 429 ]]; then
    grep -qi "^Retry-After: [1-9]" "$work/headers.txt" || fail "a 429 without Retry-After: $(cat "$work/headers.txt")"
    grep -q '"RESOURCE_EXHAUSTED"' "$work/body.json" || fail "a 429 without a JSON error: $(cat "$work/body.json")"
    limited=$((limited + 1))
  elif [[ $code != 200 ]]; then
    fail "GET /api/v1/ladders during the burst: $code $(cat "$work/body.json")"
  fi
done
((limited > 0)) || fail "12 requests at once from one address were all answered (limit 2/s, bursts of 4)"
code=$(get /healthz)
[[ $code == 200 ]] || fail "GET /healthz is limited too: $code"
# The app's files are not counted: a page load fetches all its modules at once.
for file in / /js/main.js /js/api.js /js/viewer/viewer.js /style.css; do
  code=$(get "$file")
  [[ $code != 429 ]] || fail "GET $file is limited with the API (the app's files are not counted)"
done
sleep 2.5
code=$(get /api/v1/ladders)
[[ $code == 200 ]] || fail "the address was still refused after the window: $code"
metrics=$(curl -sS "http://127.0.0.1:$gw_metrics/metrics") || fail "no gateway metrics"
grep -q 'metropolis_rate_limited_total{service="gateway"}' <<<"$metrics" ||
  fail "the gateway's refusals are not counted in metropolis_rate_limited_total"

kill -TERM "$gateway_pid" "$server_pid"
wait "$gateway_pid" || fail "the gateway did not stop cleanly"
wait "$server_pid" || fail "metropolis-server did not stop cleanly"
gateway_pid='' server_pid=''
echo "$test_name: passed (TLS between every part, HTTPS, size and rate limits)"
