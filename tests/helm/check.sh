#!/usr/bin/env bash
# The Helm chart (helm/metropolis) rendered and validated without Helm or a cluster:
#
#   1. render/ (Go) renders the templates as Helm does: text/template with sprig and
#      the few functions of Helm's own the chart may use (helm/README.md);
#   2. validate.mjs (Node.js) checks every object against the Kubernetes schemas of
#      kubernetes-models (pinned in package.json / package-lock.json, installed with
#      `npm ci`), and the objects against one another and against the programs'
#      --help (the environment variables each one reads, and which it requires);
#   3. broken inputs (fixtures/) must be refused, each with its own message: values
#      missing a required credential, a flag the chart owns, a schema violation, a
#      broken selector, a missing Secret key, a probe on no port, ...
#
#   tests/helm/check.sh [BUILD_DIR]      (ctest runs it with the build folder)
#
# With BUILD_DIR, the renderer and its Go cache go to BUILD_DIR/tests/helm and the
# environment is checked against the --help of BUILD_DIR's programs, which must be
# built. Without it, a temporary folder is used and the --help check is skipped.
#
# Needs Go with Debian's Go sources of sprig and sigs.k8s.io/yaml
# (golang-go, golang-github-masterminds-sprig-dev, golang-k8s-sigs-yaml-dev, which
# scripts/setup.sh installs; GOPATH mode, nothing downloaded) and Node.js 20+ with npm.
# A missing tool is a failure, never a skip.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CHART=$ROOT/helm/metropolis
RELEASE=metropolis  # the fixtures name objects after it

fail() {
  echo "helm check: FAILED: $*" >&2
  exit 1
}
say() { echo "helm check: $*"; }

if [[ $# -gt 1 ]]; then
  echo "usage: $0 [BUILD_DIR]" >&2
  exit 2
fi

# --- The tools ------------------------------------------------------------------------------
command -v go >/dev/null 2>&1 ||
  fail "go is not installed: the chart is rendered with Go's text/template (Debian: golang-go; scripts/setup.sh installs it)"
command -v node >/dev/null 2>&1 ||
  fail "node is not installed: the rendered objects are validated with kubernetes-models on Node.js 20+ (scripts/setup.sh)"
command -v npm >/dev/null 2>&1 || fail "npm is not installed: it installs kubernetes-models from tests/helm/package-lock.json"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[[ $node_major -ge 20 ]] || fail "Node.js $(node --version) is too old: 20 or later is needed"
# Debian's Go library packages put their sources in one GOPATH folder.
GOPATH_DIR=${METROPOLIS_GOPATH:-/usr/share/gocode}
[[ -d $GOPATH_DIR/src/github.com/Masterminds/sprig ]] ||
  fail "sprig's sources are not in $GOPATH_DIR (Debian: golang-github-masterminds-sprig-dev; scripts/setup.sh installs it)"
[[ -d $GOPATH_DIR/src/sigs.k8s.io/yaml ]] ||
  fail "sigs.k8s.io/yaml's sources are not in $GOPATH_DIR (Debian: golang-k8s-sigs-yaml-dev; scripts/setup.sh installs it)"

if [[ $# -eq 1 ]]; then
  [[ -d $1 ]] || fail "no build folder $1"
  BUILD=$(cd "$1" && pwd)
  WORK=$BUILD/tests/helm
  rm -rf "$WORK/out"
  mkdir -p "$WORK/out"
else
  BUILD=
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/metropolis-helm.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  mkdir -p "$WORK/out"
fi
OUT=$WORK/out

# --- 1. The renderer --------------------------------------------------------------------------
say "building the renderer (Go $(go env GOVERSION), GOPATH mode)"
(cd "$HERE/render" &&
  GO111MODULE=off GOPATH=$GOPATH_DIR GOCACHE=$WORK/gocache GOFLAGS='' CGO_ENABLED=0 \
    go build -o "$WORK/metropolis-helm-render" .) >"$OUT/go-build.log" 2>&1 ||
  { cat "$OUT/go-build.log" >&2; fail "the renderer did not build"; }
RENDER=$WORK/metropolis-helm-render

# --- 2. The validator's packages ----------------------------------------------------------------
# shellcheck source=scripts/lib/npm.sh
source "$HERE/../../scripts/lib/npm.sh"
npm_ready "$HERE/../.." tests/helm || fail "tests/helm's npm packages are missing or older than its lockfile: run scripts/setup.sh"

# --- The programs' --help ---------------------------------------------------------------------------
help_args=()
if [[ -n $BUILD ]]; then
  mkdir -p "$OUT/help"
  for program in services/accounts/metropolis-accounts services/replays/metropolis-replays \
    services/ratings/metropolis-ratings \
    services/matchmaker/metropolis-matchmaker services/gamehost/metropolis-gamehost \
    services/gateway/metropolis-gateway tools/migrate/metropolis-migrate; do
    binary=$BUILD/$program
    [[ -x $binary ]] || fail "$binary is not built (the chart's environment is checked against its --help)"
    "$binary" --help >"$OUT/help/$(basename "$program").txt" 2>&1 ||
      fail "$binary --help failed"
  done
  help_args=(--help-dir "$OUT/help")
else
  say "no build folder: the environment is not checked against the programs' --help"
fi

render() {  # name values-files... ; writes OUT/name.yaml and OUT/name.json
  local name=$1
  shift
  local values=()
  for v in "$@"; do values+=(--values "$v"); done
  "$RENDER" --chart "$CHART" --release "$RELEASE" --namespace metropolis "${values[@]}" \
    --out "$OUT/$name.yaml" --json "$OUT/$name.json"
}
validate() {  # json [--mutate fixture]
  (cd "$HERE" && node validate.mjs --objects "$@" "${help_args[@]}")
}

# --- 3. The chart, rendered four ways, must validate --------------------------------------------
passed=0
for case in "defaults:values-required.yaml" "test:values-test.yaml" "variant:values-required.yaml,values-variant.yaml" \
  "capacity:values-required.yaml,../../helm/metropolis/values-100k.yaml"; do
  name=${case%%:*}
  IFS=, read -r -a files <<<"${case#*:}"
  paths=()
  for f in "${files[@]}"; do paths+=("$HERE/$f"); done
  render "$name" "${paths[@]}" 2>"$OUT/$name.err" || { cat "$OUT/$name.err" >&2; fail "the chart did not render with ${case#*:}"; }
  say "rendered with ${case#*:}: $(grep -c '^kind:' "$OUT/$name.yaml") objects"
  validate "$OUT/$name.json" || fail "the chart rendered with ${case#*:} is not valid"
  passed=$((passed + 1))
done
# Rendering is deterministic: the same values give the same bytes.
render test-again "$HERE/values-test.yaml"
cmp -s "$OUT/test.yaml" "$OUT/test-again.yaml" || fail "two renders of the same values differ"

# --- 4. Broken inputs must be refused, each for its own reason ------------------------------------
refused=0
expect_in() {  # file-with-output fixture expected-substrings...
  local output=$1 fixture=$2
  shift 2
  local e
  for e in "$@"; do
    grep -qF -- "$e" "$output" || {
      cat "$output" >&2
      fail "$fixture was refused, but not with \"$e\""
    }
  done
}
for fixture in "$HERE"/fixtures/*.values.yaml; do
  name=$(basename "$fixture" .values.yaml)
  expected=$(sed -n 's/^# expect: //p' "$fixture")
  [[ -n $expected ]] || fail "$fixture has no '# expect:' line"
  files=("$HERE/values-test.yaml" "$fixture")
  grep -q '^# alone' "$fixture" && files=("$fixture")
  if render "bad-$name" "${files[@]}" >"$OUT/bad-$name.log" 2>&1 &&
    validate "$OUT/bad-$name.json" >>"$OUT/bad-$name.log" 2>&1; then
    fail "fixtures/$(basename "$fixture") was accepted; expected: $expected"
  fi
  expect_in "$OUT/bad-$name.log" "fixtures/$(basename "$fixture")" "$expected"
  say "refused as expected: fixtures/$(basename "$fixture"): $(grep -F -- "$expected" "$OUT/bad-$name.log" | head -1 | sed 's/^ *//')"
  refused=$((refused + 1))
done
for fixture in "$HERE"/fixtures/*.json; do
  name=$(basename "$fixture" .json)
  if [[ -z $BUILD ]] && node -e 'process.exit(require(process.argv[1]).needs_help ? 0 : 1)' "$fixture"; then
    say "skipping fixtures/$name.json without a build folder (it needs the programs' --help)"
    continue
  fi
  mapfile -t expected < <(node -e '
    const e = require(process.argv[1]).expect;
    for (const s of Array.isArray(e) ? e : [e]) console.log(s);' "$fixture")
  [[ ${#expected[@]} -gt 0 && -n ${expected[0]} ]] || fail "$fixture has no \"expect\""
  if validate "$OUT/test.json" --mutate "$fixture" >"$OUT/bad-$name.log" 2>&1; then
    fail "fixtures/$name.json was accepted: $(node -p 'require(process.argv[1]).description' "$fixture")"
  fi
  expect_in "$OUT/bad-$name.log" "fixtures/$name.json" "${expected[@]}"
  say "refused as expected: fixtures/$name.json: $(grep -F -- "${expected[0]}" "$OUT/bad-$name.log" | head -1 | sed 's/^ *//')"
  refused=$((refused + 1))
done
[[ $refused -gt 0 ]] || fail "no broken fixture was tried"

say "ok: $passed renders valid, $refused broken inputs refused"
