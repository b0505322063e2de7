#!/usr/bin/env bash
# Builds the fuzz preset and runs libFuzzer targets, each for a while, on its
# checked-in seeds and a scratch corpus (build/fuzz/runs/<target>/). The test
# command runs every target briefly through this script; a long run is
#
#   scripts/fuzz.sh --seconds 3600                  # every target for an hour
#   scripts/fuzz.sh --seconds 600 replay_codec_fuzz  # one target for ten minutes
#   scripts/fuzz.sh --list                           # the targets
#
# Targets: engine/fuzz/*_fuzz.cc (the rules) and tests/fuzz/*_fuzz.cc (what faces
# the network). A crash stops the run with the input in
# build/fuzz/runs/<target>/artifacts/ (docs/VERIFICATION.md, "Fuzzing").
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
seconds=20 jobs=${METROPOLIS_JOBS:-2} list=0 only=()
while (($#)); do
  case $1 in
    --seconds) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --seconds needs a positive number" >&2; exit 2; }
               seconds=$2; shift 2 ;;
    --list) list=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown flag $1 (see --help)" >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done

sources=(engine/fuzz/*_fuzz.cc tests/fuzz/*_fuzz.cc)
if ((list)); then
  for source in "${sources[@]}"; do basename "$source" .cc; done
  exit 0
fi
for name in "${only[@]}"; do
  found=0
  for source in "${sources[@]}"; do [[ $(basename "$source" .cc) == "$name" ]] && found=1; done
  ((found)) || { echo "fuzz.sh: no target $name (see --list)" >&2; exit 2; }
done

command -v clang++-14 >/dev/null 2>&1 || { echo "fuzz.sh: clang++-14 is missing (scripts/setup.sh installs it)" >&2; exit 1; }
printf '\n==== fuzz: configure and build ====\n'
cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"

for source in "${sources[@]}"; do
  name=$(basename "$source" .cc)
  dir=$(dirname "$source")
  if ((${#only[@]})) && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  printf '\n==== fuzz: %s for %ss ====\n' "$name" "$seconds"
  work=build/fuzz/runs/$name
  rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts"
  args=(-max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$work/artifacts/")
  [[ -f $dir/$name.dict ]] && args+=(-dict="$dir/$name.dict")
  # New inputs go to the scratch corpus (first folder); the checked-in seeds stay as they are.
  corpora=("$work/corpus")
  [[ -d $dir/corpus/$name ]] && corpora+=("$dir/corpus/$name")
  "build/fuzz/$dir/$name" "${args[@]}" "${corpora[@]}"
done
