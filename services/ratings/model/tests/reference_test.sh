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

# The package comes from its lockfile at set-up (scripts/setup.sh), never here.
# shellcheck source=scripts/lib/npm.sh
source "$reference_dir/../../../../scripts/lib/npm.sh"
npm_ready "$reference_dir/../../../.." services/ratings/model/reference ||
  fail "the reference's npm packages are missing or older than its lockfile: run scripts/setup.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cases_program" "$seed" "$count" >"$tmp/cases.json"
node "$reference_dir/reference.js" <"$tmp/cases.json" >"$tmp/results.json"
node "$reference_dir/compare.js" "$tmp/cases.json" "$tmp/results.json"
