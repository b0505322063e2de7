#!/usr/bin/env bash
# Regenerates the protocol reference, docs/PROTOCOL.md and docs/protocol.json, from
# the engine's tables (engine/protocol_reference.cc) with `metropolis-engine
# reference`. Run it after adding or changing an action type, a pending kind or an
# event, then review the diff. The ctest test protocol_reference checks the files
# against fresh output.
#
# Usage: scripts/regen-protocol.sh [preset]   (default: check)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-check}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target metropolis-engine
bin="build/$preset/tools/engine/metropolis-engine"
"$bin" reference --markdown >docs/PROTOCOL.md
"$bin" reference --json >docs/protocol.json
git --no-pager diff --stat -- docs/PROTOCOL.md docs/protocol.json || true
