#!/usr/bin/env bash
# The main job: installs what is missing, builds the release preset, and simulates
# 1000 seeded games (one greedy player against three random ones) on all cores,
# printing a summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1

echo "==== setup: packages ===="
scripts/setup.sh
echo "==== release: configure and build ===="
cmake --preset release
cmake --build --preset release -j "${METROPOLIS_JOBS:-2}"
echo "==== sim: 1000 games ===="
exec build/release/engine/cli/metropolis-engine sim --games 1000 --players greedy,random,random,random
