#!/usr/bin/env bash
# Runs a command while busy processes keep the machine's cores loaded, to show that
# tests which wait on time (e2e, browser, failure tests) pass on a busy machine too
# (docs/FAILURES.md, "The test budget"). The load is stopped when the command ends,
# however it ends; the command's exit status is the script's.
#
#   scripts/under-load.sh [--cores N] COMMAND [ARGS...]
#
#   --cores N   busy processes (default 2: both cores of the reference machine)
set -euo pipefail
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
cores=2
while [[ $# -gt 0 ]]; do
  case $1 in
    --cores)
      [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "under-load: --cores takes a positive number" >&2; exit 2; }
      cores=$2
      shift 2
      ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    -*) echo "under-load: unknown flag '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -gt 0 ]] || { echo "under-load: no command given (see --help)" >&2; exit 2; }

pids=()
stop() { ((${#pids[@]} == 0)) || kill "${pids[@]}" 2>/dev/null || true; }
trap stop EXIT
for _ in $(seq 1 "$cores"); do
  # A shell loop that never sleeps: one busy core each, at normal priority.
  bash -c 'while :; do :; done' &
  pids+=($!)
done
echo "under-load: $cores busy processes (${pids[*]}); load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
status=0
"$@" || status=$?
echo "under-load: load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit $status
