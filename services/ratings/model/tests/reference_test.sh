#!/usr/bin/env bash
# The C++ rating model against the openskill npm package, pinned by
# reference/package-lock.json: seeded random games rated by both must agree
# within 1e-9 relative. Node.js and npm are required: without them the test fails
# rather than skips, so a green run always means the model was checked.
#
# usage: reference_test.sh CASES_PROGRAM REFERENCE_DIR WORK_DIR
#   RATING_REFERENCE_SEED, RATING_REFERENCE_COUNT override the seed and the number
#   of 3- and 4-player games.
set -euo pipefail

cases_program=$1
reference_dir=$2
work_dir=$3
seed=${RATING_REFERENCE_SEED:-20240613}
count=${RATING_REFERENCE_COUNT:-200}

fail() {
  echo "rating_model_reference: $*" >&2
  exit 1
}

command -v node >/dev/null 2>&1 || fail "node not found; this test needs Node.js >= 20 and npm (scripts/setup.sh)"
command -v npm >/dev/null 2>&1 || fail "npm not found; this test needs Node.js >= 20 and npm (scripts/setup.sh)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 20)) || fail "node $(node --version) is too old; openskill 5.0.1 needs Node.js >= 20"

# The package is installed in the build tree, never in the sources, and again
# whenever the lockfile changes; the stamp is written only after a complete install.
mkdir -p "$work_dir"
cp "$reference_dir"/package.json "$reference_dir"/reference.js "$reference_dir"/compare.js "$work_dir"/
stamp=$work_dir/installed-package-lock.json
if [[ ! -d $work_dir/node_modules ]] || ! cmp -s "$reference_dir"/package-lock.json "$stamp"; then
  rm -f "$stamp"
  cp "$reference_dir"/package-lock.json "$work_dir"/
  (cd "$work_dir" && npm ci --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error) ||
    fail "npm ci failed in $work_dir (is the npm registry or cache reachable?)"
  cp "$reference_dir"/package-lock.json "$stamp"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cases_program" "$seed" "$count" >"$tmp/cases.json"
node "$work_dir/reference.js" <"$tmp/cases.json" >"$tmp/results.json"
node "$work_dir/compare.js" "$tmp/cases.json" "$tmp/results.json"
