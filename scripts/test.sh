#!/usr/bin/env bash
# Every test: installs what is missing, builds the debug preset, runs ctest (unit
# tests, lint, and integration tests with throwaway PostgreSQL and Redis), runs each
# fuzz target briefly, and checks the bench signature. Exits non-zero on any failure.
#
#   METROPOLIS_FUZZ_SECONDS   seconds per fuzz target (default 20; 0 skips fuzzing)
#   METROPOLIS_JOBS           parallel build and test jobs (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS=${METROPOLIS_JOBS:-2}
FUZZ_SECONDS=${METROPOLIS_FUZZ_SECONDS:-20}

# Warm ccache hits across clones in different folders (-g embeds the directory).
export CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=1

current_section=""
section() {
  current_section=$1
  printf '\n==== %s ====\n' "$current_section"
}
on_exit() {
  local status=$?
  if declare -F stop_services >/dev/null; then stop_services; fi
  if [[ $status -ne 0 ]]; then
    printf '\n==== FAILED: %s (exit %d) ====\n' "$current_section" "$status" >&2
  fi
  return "$status"
}
trap on_exit EXIT

section "setup: packages"
scripts/setup.sh

section "check: configure and build"
cmake --preset check
cmake --build --preset check -j "$JOBS"

# Integration tests (ctest label `integration`) need PostgreSQL and Redis; start them
# only when there are such tests.
if ctest --preset check -N -L integration 2>/dev/null | grep -qE 'Total Tests: [1-9]'; then
  section "services: PostgreSQL and Redis for integration tests"
  # shellcheck source=scripts/lib/services.sh
  source scripts/lib/services.sh
  start_postgres
  start_redis
fi

section "check: ctest"
started=$(date +%s)
ctest_status=0
ctest --preset check -j "$JOBS" --output-junit "$ROOT/build/check/ctest-junit.xml" || ctest_status=$?
section "check: time per label ($((($(date +%s) - started) / 60)) min of ctest)"
ctest --preset check --show-only=json-v1 >"$ROOT/build/check/ctest-tests.json"
python3 scripts/lib/timing_table.py --junit "$ROOT/build/check/ctest-junit.xml" \
  --tests-json "$ROOT/build/check/ctest-tests.json" || true
if ((ctest_status != 0)); then
  # Last, where a log cut to its head and tail still shows it: why each test failed.
  section "check: why the failed tests failed"
  python3 scripts/lib/failure_digest.py --junit "$ROOT/build/check/ctest-junit.xml" || true
  section "check: ctest"
  exit "$ctest_status"
fi

# Fuzzing needs clang++-14 (scripts/setup.sh installs it): missing, the command
# fails rather than reporting "all tests passed" without it. METROPOLIS_FUZZ_SECONDS=0
# is the one way to leave it out, and says so.
if [[ $FUZZ_SECONDS -gt 0 ]]; then
  section "fuzz: every target for ${FUZZ_SECONDS}s (scripts/fuzz.sh)"
  scripts/fuzz.sh --seconds "$FUZZ_SECONDS"
else
  section "fuzz: left out (METROPOLIS_FUZZ_SECONDS=0)"
fi


section "all tests passed"
