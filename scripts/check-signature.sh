#!/usr/bin/env bash
# Confirms that the bench signatures (engine/signature.h), one line per ruleset, are the
# numbers checked in at engine/tests/testdata/signature.txt on every build given, and
# that they all agree.
# The signature must not depend on optimisation or instrumentation: a difference
# between builds is undefined behaviour, an uninitialised read or an order that
# depends on addresses, and a bug even when each build's own tests pass.
#
# Usage:
#   scripts/check-signature.sh               builds the release and asan presets, checks both
#   scripts/check-signature.sh BUILD_DIR...  checks builds already made (e.g. build/check)
#
#   METROPOLIS_JOBS   parallel build jobs (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
expected_file=engine/tests/testdata/signature.txt

dirs=("$@")
if [[ ${#dirs[@]} -eq 0 ]]; then
  for preset in release asan; do
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" --target engine_tests -j "${METROPOLIS_JOBS:-2}"
    dirs+=("build/$preset")
  done
fi

# Sanitizer reports must fail the run, not scroll past.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

expected=$(grep -v '^$' "$expected_file")
status=0
for dir in "${dirs[@]}"; do
  binary=$dir/engine/tests/engine_tests
  if [[ ! -x $binary ]]; then
    echo "check-signature: $binary not found; build engine_tests in $dir first" >&2
    exit 2
  fi
  # Each test prints "[ruleset=base ]games=N seed=S signature=0x... actions=..." and
  # compares with its line of the file; the lines come in the file's order.
  if ! output=$("$binary" --gtest_filter='Signature.*' --gtest_brief=1 2>&1); then
    printf '%s\n' "$output" >&2
    status=1
  fi
  lines=$(grep -o '^\(ruleset=[a-z_]* \)\?games=[0-9]* seed=[0-9]* signature=0x[0-9a-f]*' <<<"$output" || true)
  printf '%-16s %s\n' "$dir" "${lines:-no signature printed}" | sed '2,$s/^/                 /'
  if [[ $lines != "$expected" ]]; then status=1; fi
done

if [[ $status -ne 0 ]]; then
  echo "check-signature: FAILED, expected on every build: $expected" >&2
  echo "check-signature: if the rules changed on purpose, run scripts/update-signature.sh" >&2
  exit 1
fi
echo "check-signature: ${#dirs[@]} build(s) agree: $expected"
