#!/usr/bin/env bash
# Redis crashes and comes back without its last second of acknowledged writes, as
# after an OS crash under `appendfsync everysec` (label faults; docs/FAILURES.md,
# "Lost writes, key by key"). With four tables live, Redis is killed with SIGKILL
# and its append-only file is cut to the size it had about a second earlier (Redis
# loads a cut tail); Redis starts again from that. Writes every process had been
# told were done are gone: steps of the games' logs, perhaps a game's creation,
# tickets' claims and assignments. The game host must find its checkpoints shorter
# than it wrote them (or gone) and write them again from its own log; the matchmaker
# must not seat anyone twice nor hand out a finished game's seat. The test requires
# every game finished and none void, and the checker (every seat saw exactly the
# stored game, stored and rated once).
#
# protection: rewrite_lost   (tests/faults/run.sh --negative switches it off: the host
#                             takes a shortened checkpoint for a game taken from it)
#
#   tests/faults/redis_aof_test.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/../e2e/lib/stack_test.sh"
# shellcheck source=tests/faults/lib/lost_writes.sh
source "$(dirname "$0")/lib/lost_writes.sh"
stack_test_begin redis_aof_test "${1:-}"

# A pause limit well past the outage (a few seconds) but inside the test: a game its
# host cannot bring back is void within it (the negative control).
stack_up METROPOLIS_LEASE_MS=3000 METROPOLIS_GAMEHOST_FLAGS="--pause-limit-ms 20000"
redis_dir=$METROPOLIS_STACK_DIR/services
redis_ctl=$redis_dir/redis-ctl.sh
[[ -x $redis_ctl ]] || fail "the stack wrote no Redis control script ($redis_ctl)"
grep -q 'appendonly yes' "$redis_ctl" || fail "the stack's Redis does not persist (appendonly)"

host=$(metrics_of gamehost1)
live() { metric "$host" metropolis_gamehost_live_games; }
writes() { metric "$host" 'metropolis_gamehost_checkpoint_writes_total{result="ok"}'; }
ready() { (($(live) >= 4 && $(writes) >= 200)); }
# The file Redis appends to now (Redis 7 keeps a base and increments in a folder).
incr_file() {
  find "$redis_dir/appendonlydir" -name '*.incr.aof' -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2-
}

start_ladder_demo 16 2 search:ms=15
while ! ready && kill -0 "$demo" 2>/dev/null; do sleep 0.1; done
ready || fail "four games never ran at once on the host while the ladder played"
aof=$(incr_file)
[[ -f $aof ]] || fail "no append-only increment file in $redis_dir/appendonlydir"

# The file's size every 50 ms for 1.5 s, then the crash.
sizes=()
for _ in $(seq 1 30); do
  sizes+=("$(stat -c %s "$aof")")
  sleep 0.05
done
writes_before=$(writes)
"$redis_ctl" kill || fail "Redis did not die"
killed_size=$(stat -c %s "$aof")
# What an OS crash under everysec leaves: the file as it was about a second before.
cut_to=${sizes[9]}
((cut_to < killed_size)) || fail "the append-only file did not grow in the last second ($cut_to of $killed_size bytes)"
truncate -s "$cut_to" "$aof"
echo "redis_aof_test: Redis killed with $(live) live games; its append-only file cut from $killed_size to" \
  "$cut_to bytes (the last $((killed_size - cut_to)) bytes, about a second of writes)"
sleep 1
"$redis_ctl" start || fail "Redis did not start again from the cut file"
grep -qi 'truncated\|AOF loaded\|DB loaded' "$redis_dir/redis.log" ||
  fail "Redis's log says nothing of loading the cut file"

expect_no_void "the crash"
expect_demo_played 2
(($(writes) > writes_before)) || fail "the game host wrote no checkpoint after the crash"
echo "redis_aof_test: passed ($stored games stored, each as its seats saw it, rated once); $(protections_report)"
