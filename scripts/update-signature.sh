#!/usr/bin/env bash
# Recomputes the bench signatures (one line per ruleset) and rewrites engine/tests/testdata/signature.txt,
# keeping its number of games and seed. Run it only after an intended change of the
# rules (or of the signature's definition), then check that release and sanitizer
# builds agree (scripts/check-signature.sh) and say in the commit message why the
# number changed.
#
# Usage: scripts/update-signature.sh [preset]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target engine_tests -j "${METROPOLIS_JOBS:-2}"
METROPOLIS_UPDATE_SIGNATURE=1 "build/$preset/engine/tests/engine_tests" --gtest_filter='Signature.*'
git --no-pager diff -- engine/tests/testdata/signature.txt || true
