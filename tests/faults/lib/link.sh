# shellcheck shell=bash
# A link a fault test cuts and heals (tcp_proxy.py, beside this file), for tests that
# source tests/e2e/lib/stack_test.sh: start_link MODE starts it (cut; its port in
# $work/link.port, its target read from $work/link.target at each heal, its pid in
# $link) and stops it with the stack when the test exits.
start_link() {  # drop|reject
  python3 tests/faults/lib/tcp_proxy.py --port-file "$work/link.port" --target-file "$work/link.target" \
    --mode "$1" 2>"$work/link.log" &
  link=$!
  trap _end_link_test EXIT
  for _ in $(seq 1 100); do
    [[ -s $work/link.port ]] && return 0
    sleep 0.1
  done
  fail "the link (tcp_proxy.py) did not start: $(cat "$work/link.log")"
}

# shellcheck disable=SC2317 # the EXIT trap
_end_link_test() {
  kill "$link" 2>/dev/null || true
  stack_test_end
}
