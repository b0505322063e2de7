#!/usr/bin/env bash
# The golden playthroughs: reruns `metropolis-engine golden` with the flags on the
# first line of each engine/tests/testdata/golden/*.txt and compares the output with
# the file. On a difference it prints the first differing line and how to update.
#
#   tools/engine/golden_test.sh path/to/metropolis-engine path/to/golden-dir
set -euo pipefail

bin=${1:?usage: golden_test.sh path/to/metropolis-engine path/to/golden-dir}
dir=${2:?usage: golden_test.sh path/to/metropolis-engine path/to/golden-dir}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix='# golden playthrough: metropolis-engine golden '
failures=0
count=0

shopt -s nullglob
for file in "$dir"/*.txt; do
  count=$((count + 1))
  name=$(basename "$file")
  first=$(head -n 1 "$file")
  if [[ $first != "$prefix"* ]]; then
    echo "FAIL: $name: the first line does not start with '$prefix'" >&2
    failures=$((failures + 1))
    continue
  fi
  read -r -a flags <<<"${first#"$prefix"}"
  code=0
  "$bin" golden "${flags[@]}" >"$tmp/$name" 2>"$tmp/$name.err" || code=$?
  if [[ $code != 0 ]]; then
    echo "FAIL: $name: metropolis-engine golden exited with $code" >&2
    sed 's/^/    /' "$tmp/$name.err" >&2
    failures=$((failures + 1))
    continue
  fi
  if ! cmp -s "$file" "$tmp/$name"; then
    # The first differing line, with the block it belongs to.
    awk -v name="$name" '
      FNR == NR { want[FNR] = $0; n = FNR; next }
      /^== / { block = $0 }
      { got_n = FNR }
      !done && (FNR > n || want[FNR] != $0) {
        printf "FAIL: %s differs first at line %d (in block \"%s\")\n", name, FNR, block
        printf "  checked in: %s\n", (FNR > n ? "(end of file)" : want[FNR])
        printf "  now:        %s\n", $0
        done = 1
      }
      END {
        if (!done) printf "FAIL: %s differs first at line %d\n  checked in: %s\n  now:        (end of output)\n", name, got_n + 1, want[got_n + 1]
      }' "$file" "$tmp/$name" >&2
    failures=$((failures + 1))
  fi
done

if [[ $count == 0 ]]; then
  echo "FAIL: no golden playthroughs in $dir" >&2
  exit 1
fi
if [[ $failures != 0 ]]; then
  echo "$failures of $count golden playthroughs differ. If the rules (or the output of 'golden') changed on" >&2
  echo "purpose, run scripts/regen-golden.sh and review the diff of engine/tests/testdata/golden." >&2
  exit 1
fi
echo "golden playthroughs: $count files match"
