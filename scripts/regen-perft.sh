#!/usr/bin/env bash
# Recomputes the counts of engine/tests/testdata/perft.txt with the slow reference
# generator (never the engine's own) and rewrites the file in place; the positions are
# kept. Run it only after an intended rules change, then review the diff: every changed
# count is a changed set of legal actions somewhere below that position.
#
# Usage: scripts/regen-perft.sh [preset]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target engine_tests
METROPOLIS_REGEN_PERFT=1 "build/$preset/engine/tests/engine_tests" --gtest_filter='Perft.FixedPositions'
git --no-pager diff --stat -- engine/tests/testdata/perft.txt || true
