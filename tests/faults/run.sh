#!/usr/bin/env bash
# Runs the fault tests (tests/faults/*_test.sh) and, with --negative, shows that each
# guards something: every test is run once with its protection switched off (the
# "# protection: NAME" line of its header; METROPOLIS_REMOVE_PROTECTION=NAME, which
# only a build configured with METROPOLIS_NEGATIVE_CONTROLS=ON obeys, as the check
# preset is) and must then FAIL with violations (lines starting VIOLATION: the
# checker's, or a test's own for what it guards beyond the checker); then --repeat
# times as built, and must pass each time. Ends with a table; docs/FAILURES.md quotes it.
#
#   tests/faults/run.sh [--negative] [--repeat N] [--build DIR] [TEST...]
#
#   --negative   also run each test without its protection (expected to fail)
#   --repeat N   runs with every protection on, per test (default 1)
#   --build DIR  the build to test (default build/check)
#   TEST         test names, e.g. redis_partition (default: all but those marked "# open:")
set -euo pipefail
cd "$(dirname "$0")/../.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
negative=0 repeat=1 build=build/check names=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --negative) negative=1; shift ;;
    --repeat)
      [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "faults: --repeat takes a positive number" >&2; exit 2; }
      repeat=$2; shift 2 ;;
    --build)
      [[ -d ${2:-} ]] || { echo "faults: --build: no folder '${2:-}'" >&2; exit 2; }
      build=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "faults: unknown flag '$1' (see --help)" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
if ((${#names[@]} == 0)); then
  # A test whose header says "# open:" finds a defect not fixed yet: run it by name.
  for t in tests/faults/*_test.sh; do grep -q '^# open:' "$t" || names+=("$(basename "$t" _test.sh)"); done
fi
for n in "${names[@]}"; do
  [[ -x tests/faults/${n}_test.sh ]] || { echo "faults: no test tests/faults/${n}_test.sh" >&2; exit 2; }
done
if ((negative)) && ! grep -q 'METROPOLIS_NEGATIVE_CONTROLS:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "faults: $build is not configured with METROPOLIS_NEGATIVE_CONTROLS=ON (the check preset is)" >&2
  exit 2
fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/faults.XXXXXX")
rows=() failed=0
run() { # name label expect(pass|fail) env...
  local name=$1 label=$2 expect=$3 start status=0 outcome seconds
  shift 3
  start=$(date +%s)
  printf 'faults: %-20s %-24s ... ' "$name" "$label" >&2
  env "$@" "tests/faults/${name}_test.sh" "$build" >"$logs/$name.$label.log" 2>&1 || status=$?
  seconds=$(($(date +%s) - start))
  local violations
  violations=$(grep -c '^VIOLATION' "$logs/$name.$label.log" || true)
  if [[ $expect == pass ]]; then
    if ((status == 0)); then outcome=passed; else outcome="FAILED (unexpected)"; failed=1; fi
  else
    # Without its protection the test must fail, and because of a violation it found.
    if ((status != 0 && violations > 0)); then
      outcome="failed, as it must"
    else
      outcome="PASSED without its protection"
      ((status != 0)) && outcome="FAILED, with no violation"
      failed=1
    fi
  fi
  echo "$outcome (${seconds} s)" >&2
  rows+=("$(printf '| %-18s | %-22s | %-30s | %10s | %5s |' "$name" "$label" "$outcome" "$violations" "$seconds")")
}
for name in "${names[@]}"; do
  protection=$(sed -n 's/^# protection: \([a-z_]*\).*/\1/p' "tests/faults/${name}_test.sh" | head -1)
  [[ -n $protection ]] || { echo "faults: tests/faults/${name}_test.sh names no '# protection:'" >&2; exit 2; }
  if ((negative)); then
    run "$name" "without $protection" fail METROPOLIS_REMOVE_PROTECTION="$protection"
  fi
  for i in $(seq 1 "$repeat"); do run "$name" "with it, run $i" pass; done
done

echo
printf '| %-18s | %-22s | %-30s | %10s | %5s |\n' test run outcome violations s
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..20})" "$(printf -- '-%.0s' {1..24})" \
  "$(printf -- '-%.0s' {1..32})" "$(printf -- '-%.0s' {1..12})" "$(printf -- '-%.0s' {1..7})"
printf '%s\n' "${rows[@]}"
echo
echo "faults: logs in $logs"
exit "$failed"
