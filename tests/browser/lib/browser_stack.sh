# shellcheck shell=bash
# What the browser tests' scripts share (browser_test.sh, play_test.sh): what they
# need (Node.js 20+, Chromium, playwright-core from web/'s lockfile), the local
# stack with the gateway serving web/app, bots started in the background and
# stopped on exit, and the checks in Chromium run with the stack's addresses.
#
#   source tests/browser/lib/browser_stack.sh
#   browser_stack_begin NAME BUILD_DIR ARTIFACTS [PROGRAM...]
#       # tests/e2e/lib/stack_test.sh's stack_test_begin; sets $root, $chromium and
#       # $artifacts (BUILD_DIR/test-artifacts/ARTIFACTS, emptied); fails unless
#       # what the test needs is there, PROGRAMs (paths in BUILD_DIR) too
#   browser_stack_up                       # the stack, its gateway serving web/app; sources stack.env
#   admin ARGS...                          # metropolis-admin on the stack's database
#   start_bot NAME LABEL ARGS...           # a bot of the player "owner", in the background
#   stop_bots
#   browser_checks SCRIPT.mjs WHAT [VAR=VALUE...]   # node SCRIPT.mjs; fails with WHAT

# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../e2e/lib/stack_test.sh"

# shellcheck disable=SC2034 # root and artifacts are for the test that sources this
browser_stack_begin() {
  local program node_major
  stack_test_begin "$1" "$2"
  root=$PWD
  artifacts=$build/test-artifacts/$3
  shift 3
  rm -rf "$artifacts"
  mkdir -p "$artifacts"

  command -v node >/dev/null 2>&1 || fail "node is missing (Node.js 20 or later; scripts/setup.sh installs it)"
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  ((node_major >= 20)) || fail "Node.js $(node --version) is too old: 20 or later is needed"
  chromium=${METROPOLIS_CHROMIUM:-$(command -v chromium || true)}
  [[ -n $chromium && -x $chromium ]] ||
    fail "no Chromium: install Debian's chromium (scripts/setup.sh does) or set METROPOLIS_CHROMIUM"
  # shellcheck source=scripts/lib/npm.sh
  source scripts/lib/npm.sh
  npm_ready "$PWD" web || fail "web/'s npm packages are missing or older than its lockfile: run scripts/setup.sh"
  for program in services/gateway/metropolis-gateway botkits/cpp/metropolis-bot tools/admin/metropolis-admin "$@"; do
    [[ -x $build/$program ]] || fail "no $program in $build: build the services first"
  done

  bot_pids=()
  trap 'stop_bots; stack_test_end' EXIT
}

browser_stack_up() {
  stack_up METROPOLIS_WEB_ROOT="$root/web/app"
  [[ -n ${METROPOLIS_GATEWAY:-} ]] || fail "the stack started no gateway"
}

admin() { "$build/tools/admin/metropolis-admin" --pg "$METROPOLIS_PG" "$@"; }

# A bot NAME of the player "owner" (the test creates it) with an API token
# labelled LABEL, played by metropolis-bot at the stack's matchmaker with ARGS;
# its output in $work/NAME.out and .err.
start_bot() {
  local name=$1 label=$2 token
  shift 2
  admin create-bot "$name" --owner owner >/dev/null
  token=$(admin --json issue-token "$name" --label "$label" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  "$build/botkits/cpp/metropolis-bot" --matchmaker "$METROPOLIS_MATCHMAKER" --api-token "$token" "$@" \
    >"$work/$name.out" 2>"$work/$name.err" &
  bot_pids+=($!)
}

# shellcheck disable=SC2317 # the EXIT trap
stop_bots() { for pid in "${bot_pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }

# Runs tests/browser/SCRIPT with the stack's gateway, Chromium and the artifacts'
# folder in its environment, and the VAR=VALUEs given.
browser_checks() {
  local script=$1 what=$2
  shift 2
  env METROPOLIS_GATEWAY="$METROPOLIS_GATEWAY" METROPOLIS_CHROMIUM="$chromium" METROPOLIS_ARTIFACTS="$artifacts" "$@" \
    node "tests/browser/$script" || fail "$what failed (screenshots in $artifacts)"
  echo "$test_name: passed (screenshots in $artifacts)"
}
