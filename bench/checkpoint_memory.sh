#!/usr/bin/env bash
# What live games' checkpoints take in Redis (docs/CAPACITY.md): starts a Redis with
# append-only persistence, as deployed, on a free loopback port, runs
# bench/gamehost_load.sh against a game host that checkpoints there, and at each
# sample reads every live game's keys (MEMORY USAGE of gh:{ID}:setup, log, seats,
# fence and owner) and the actions in its log. Prints, per sample: the bytes of a
# live game's keys, a least-squares fit bytes = a + b x actions, Redis's
# used_memory per live game, and the append-only file's bytes per action logged
# (the whole file, lease renewals included, over the live games' actions: high once
# games have ended, whose writes stay in it until a rewrite).
#
#   bench/checkpoint_memory.sh                                     # 500 games, bots at 250 ms, samples at 30 s and 50 s
#   bench/checkpoint_memory.sh --games 200 --think-ms 100 --samples 10,20
#
# Flags: --games N (500), --think-ms N (250), --samples S,S,... (30,50: seconds after the
# load starts; the load runs 15 s past the last).
#
# Environment: GAMEHOST_LOAD_BUILD=0 and GAMEHOST_LOAD_BUILD_DIR as for
# bench/gamehost_load.sh, which builds the release preset in build/load by default.
# The host, the load program and Redis share the machine's cores.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh

games=500 think_ms=250 samples=30,50
while (($#)); do
  case $1 in
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --games) games=$(flag_number checkpoint_memory.sh "$1" "${2-}"); shift 2 ;;
    --think-ms) think_ms=$(flag_number checkpoint_memory.sh "$1" "${2-}" 0); shift 2 ;;
    --samples)
      [[ ${2-} =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "checkpoint_memory.sh: --samples wants seconds, as 30,50" >&2; exit 2; }
      samples=$2; shift 2 ;;
    *) echo "checkpoint_memory.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
IFS=, read -r -a at <<<"$samples"
last=${at[-1]}

work=$(mktemp -d "${TMPDIR:-/tmp}/checkpoint-memory.XXXXXX")
METROPOLIS_SERVICE_LOGS=$work
# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
  if [[ -n ${load-} ]] && kill -0 "$load" 2>/dev/null; then
    kill "$load" 2>/dev/null || true
    wait "$load" 2>/dev/null || true
  fi
  stop_services >/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
start_redis >&2
redis=(redis-cli -h 127.0.0.1 -p "${METROPOLIS_REDIS_ADDR##*:}")

GAMEHOST_FLAGS="--checkpoint-redis $METROPOLIS_REDIS_ADDR --log-level warning ${GAMEHOST_FLAGS:-}" \
  bench/gamehost_load.sh --games "$games" --think-ms "$think_ms" --duration-s "$((last + 15))" --warmup-s 0 \
  >"$work/load.log" 2>&1 &
load=$!
# The games start once the host is up (after gamehost_load.sh's build, if it
# builds): count from the first checkpoint.
while (($("${redis[@]}" SCARD gh:live) == 0)); do
  kill -0 "$load" 2>/dev/null || { echo "checkpoint_memory.sh: the load ended before any game started:" >&2; cat "$work/load.log" >&2; exit 1; }
  sleep 0.1
done
start=$(date +%s)

echo "| after | live games | actions logged: mean (min-max) | a game's keys: mean | fit: bytes = a + b x actions | used_memory per live game | append-only bytes per action logged |"
echo "|---|---|---|---|---|---|---|"
for t in "${at[@]}"; do
  sleep "$((start + t > $(date +%s) ? start + t - $(date +%s) : 0))"
  # One connection for all the reads (a process per read would take longer than
  # the games take to move): six replies per game, in order.
  "${redis[@]}" SMEMBERS gh:live >"$work/live"
  while read -r id; do
    echo "LLEN gh:{$id}:log"
    for part in setup log seats fence owner; do echo "MEMORY USAGE gh:{$id}:$part SAMPLES 0"; done
  done <"$work/live" | "${redis[@]}" >"$work/replies"
  # A game that ended between the two reads has no keys left: not counted.
  awk '{ v = ($0 == "" ? 0 : $0) } NR % 6 == 1 { n = v; b = 0; next } { b += v } NR % 6 == 0 && b > 0 { print n, b }' \
    "$work/replies" >"$work/rows"
  used=$("${redis[@]}" INFO memory | tr -d '\r' | awk -F: '$1 == "used_memory" {print $2}')
  aof=$("${redis[@]}" INFO persistence | tr -d '\r' | awk -F: '$1 == "aof_current_size" {print $2}')
  python3 - "$work/rows" "$used" "$aof" "$t" <<'PY'
import sys
rows = [tuple(map(int, line.split())) for line in open(sys.argv[1]) if line.strip()]
used, aof, t = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if not rows:
    sys.exit(f"checkpoint_memory.sh: no live game at {t} s")
xs, ys = [r[0] for r in rows], [r[1] for r in rows]
mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
sxx = sum((x - mx) ** 2 for x in xs)
b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
fit = f"{my - b * mx:,.0f} + {b:.1f} x actions" if sxx else "(all games alike)"
print(f"| {t} s | {len(rows):,} | {mx:,.0f} ({min(xs)}-{max(xs)}) | {my:,.0f} B | {fit} "
      f"| {used / len(rows):,.0f} B | {aof / max(1, sum(xs)):,.1f} B |")
PY
done
wait "$load" || { echo "checkpoint_memory.sh: the load failed:" >&2; tail -20 "$work/load.log" >&2; exit 1; }
