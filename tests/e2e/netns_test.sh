#!/usr/bin/env bash
# A game host cut off from the network in the middle of a ladder (label e2e). The
# test makes a network namespace and a veth pair: the stack's services listen on
# the root side's address, and a second game host runs inside the namespace on the
# other side's. Both hosts checkpoint their live games in the stack's Redis
# (--checkpoint-redis, reached over the link) under leases. 8 bots queue for their
# games; once the namespaced host plays a game, the link is taken down for a while
# (packets vanish: no resets, no errors) and then brought back. Checked:
#
#   - the other host takes over the cut host's live games once their leases lapse
#     and finishes them; the cut host, back, stores none of them a second time
#     (metropolis_gamehost_takeovers_total, "game taken over" in the host's log);
#
#   - while the host is cut off, the matchmaker goes on creating games, on the
#     other host only, and stops counting the cut host (metropolis_matchmaker_hosts_known);
#   - once the link is back, the cut host announces itself again, is counted again
#     and is given games again;
#   - every bot plays all its games; the stored games are exactly the games the bots
#     finished, each stored and rated once, as many as the two hosts finished;
#   - the logs say so: the cut host's "matchmaker heartbeat ok=false" and "ok=true",
#     and its delayed deliveries.
#
# Needs root (namespaces and links) and `ip` (iproute2); without them it fails,
# saying so.
#
#   tests/e2e/netns_test.sh BUILD_DIR [--cut SECONDS]
set -euo pipefail
[[ ${1:-} == -h || ${1:-} == --help ]] && { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0; }
cut=20
[[ ${2:-} == --cut ]] && cut=${3:?--cut takes seconds}
# shellcheck source=tests/e2e/lib/stack_test.sh
source "$(dirname "$0")/lib/stack_test.sh"
stack_test_begin netns_test "${1:-}"
say() { echo "$test_name: $*"; }
[[ $(id -u) == 0 ]] || fail "needs root to create network namespaces and veth links (run it as root)"
command -v ip >/dev/null || fail "needs the ip command (iproute2) to create network namespaces"

# The namespace and the link, removed on exit before the stack's own cleanup.
ns=metropolis-netns-$$
link_root=mtr$$r link_ns=mtr$$n  # interface names: at most 15 characters
net=10.$((200 + RANDOM % 50)).$((RANDOM % 250 + 1))
root_ip=$net.1 ns_ip=$net.2
host2=""
netns_end() {
  if [[ -n $host2 ]] && kill -TERM "$host2" 2>/dev/null; then
    for _ in $(seq 1 100); do kill -0 "$host2" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$host2" 2>/dev/null || true
    wait "$host2" 2>/dev/null || true
  fi
  ip netns del "$ns" 2>/dev/null || true
  ip link del "$link_root" 2>/dev/null || true
  stack_test_end
}
trap netns_end EXIT
ip netns add "$ns" || fail "could not create network namespace $ns"
ip link add "$link_root" type veth peer name "$link_ns" || fail "could not create the veth pair"
ip link set "$link_ns" netns "$ns"
ip addr add "$root_ip/24" dev "$link_root"
ip link set "$link_root" up
ip netns exec "$ns" ip addr add "$ns_ip/24" dev "$link_ns"
ip netns exec "$ns" ip link set "$link_ns" up
ip netns exec "$ns" ip link set lo up
say "namespace $ns: host side $ns_ip, services on $root_ip"

stack_up METROPOLIS_LISTEN_ADDR="$root_ip" METROPOLIS_REDIS_BIND="$root_ip" METROPOLIS_GAMEHOST_CHECKPOINTS=1
logs=$METROPOLIS_STACK_DIR/logs
# The second host, by hand, inside the namespace, checkpointing in the same Redis.
ip netns exec "$ns" "$build/services/gamehost/metropolis-gamehost" --listen "$ns_ip:50052" \
  --metrics-listen "$ns_ip:9464" --admin-token "$METROPOLIS_GAMEHOST_ADMIN_TOKEN" \
  --data-dir "$METROPOLIS_STACK_DIR/gamehost2" --checkpoint-redis "$root_ip:${METROPOLIS_REDIS#*:}" \
  --replays "$METROPOLIS_REPLAYS" --replays-token "$METROPOLIS_SERVICE_TOKEN" \
  --ratings "$METROPOLIS_RATINGS" --ratings-token "$METROPOLIS_SERVICE_TOKEN" \
  --matchmaker "$METROPOLIS_MATCHMAKER" --matchmaker-token "$METROPOLIS_SERVICE_TOKEN" >"$logs/gamehost2.log" 2>&1 &
host2=$!
host2_addr=$ns_ip:50052
mm_metrics=$(echo "$METROPOLIS_METRICS_TARGETS" | tr ' ' '\n' | sed -n 's/^matchmaker=//p')
hosts_known() {
  curl -sf --max-time 3 "http://$mm_metrics/metrics" | awk '$1 == "metropolis_matchmaker_hosts_known" { print $2 + 0 }'
}
host2_metric() {  # NAME: the cut host's value of a metric (summed over labels)
  curl -sf --max-time 3 "http://$ns_ip:9464/metrics" | awk -v m="$1" '$1 == m || index($1, m "{") == 1 { s += $NF } END { print s + 0 }'
}
host1_metrics=$(echo "$METROPOLIS_METRICS_TARGETS" | tr ' ' '\n' | sed -n 's/^gamehost1=//p')
created_on() { grep 'msg="game created"' "$logs"/matchmaker*.log | grep -c " host=$1" || true; }
host2_plays() { (($(host2_metric metropolis_gamehost_live_games) >= 1)); }

# Enough games that some are left when the link comes back: the bots of the cut
# host's game find the other host within seconds, and the ladder goes on there
# (14 to 26 games in the 20 s, seen on two busy cores).
bots=8 games=24
start_ladder_demo $bots $games
# Cut the link while the namespaced host is playing a game.
wait_while_demo_plays host2_plays
live_at_cut=$(host2_metric metropolis_gamehost_live_games)
((live_at_cut >= 1)) || { cat "$work/demo.log" >&2; fail "the namespaced host got no game"; }
[[ $(hosts_known) == 2 ]] || fail "the matchmaker does not count both hosts before the cut ($(hosts_known))"
before_cut_host1=$(created_on "$METROPOLIS_GAMEHOST") before_cut_host2=$(created_on "$host2_addr")
ip link set "$link_root" down
say "link down after $(seats_over) seats' games over; the cut host plays $live_at_cut games; $cut s"
low=2
for _ in $(seq 1 $((cut * 10))); do
  k=$(hosts_known)
  ((${k:-2} < low)) && low=$k
  sleep 0.1
done
during_host1=$(($(created_on "$METROPOLIS_GAMEHOST") - before_cut_host1))
during_host2=$(($(created_on "$host2_addr") - before_cut_host2))
ip link set "$link_root" up
up_host1=$(created_on "$METROPOLIS_GAMEHOST") up_host2=$(created_on "$host2_addr")
say "link up; games created meanwhile: $during_host1 on host 1, $during_host2 on the cut host; hosts known at the lowest: $low"
((during_host2 == 0)) || fail "$during_host2 games were created on the cut host while it was unreachable"
((during_host1 > 0)) || fail "no game was created on the other host while one was cut off"
((low == 1)) || fail "the matchmaker went on counting the cut host (hosts known never fell to 1)"
back=""
for _ in $(seq 1 600); do
  [[ $(hosts_known) == 2 ]] && { back=1; break; }
  sleep 0.1
done
[[ -n $back ]] || fail "the matchmaker did not count the cut host again within 60 s of the link coming back"

# Bounded: a bot left hanging on the cut host's stream would otherwise wait forever.
for _ in $(seq 1 1800); do
  kill -0 "$demo" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$demo" 2>/dev/null; then
  for err in "$METROPOLIS_STACK_DIR"/demo/*.err; do
    echo "$(basename "$err" .err): $(tail -n 1 "$err")" >&2
  done
  fail "the ladder was not over 3 minutes after the link came back (the bots' last lines above)"
fi
expect_demo_played $games
on1=$(find "$METROPOLIS_STACK_DIR/gamehost1/completed" -name '*.json' | wc -l)
on2=$(find "$METROPOLIS_STACK_DIR/gamehost2/completed" -name '*.json' | wc -l)
[[ $((on1 + on2)) == "$stored" ]] || fail "the hosts finished $on1 + $on2 games, $stored are stored"
again=$(($(created_on "$host2_addr") - up_host2))
((again > 0)) || fail "the cut host got no game after it came back"
# The cut host's live games: taken over by host 1, stored once, by host 1 only.
# (No match is an answer, not an error: the count below then fails with a message.)
taken=$({ grep 'msg="game taken over"' "$logs/gamehost1.log" || true; } | sed -n 's/.* game=\([^ ]*\).*/\1/p' | sort -u)
taken_count=$(echo "$taken" | grep -c . || true)
((taken_count >= live_at_cut)) ||
  fail "host 1 took over $taken_count games; the cut host played $live_at_cut when the link went down"
for game in $taken; do
  [[ -f $METROPOLIS_STACK_DIR/gamehost1/completed/$game.json ]] || fail "host 1 took over $game but did not finish it"
  [[ ! -f $METROPOLIS_STACK_DIR/gamehost2/completed/$game.json ]] || fail "the cut host stored $game, taken over from it, too"
  [[ $(sql "SELECT count(*) FROM games WHERE id = '$game'") == 1 ]] || fail "taken-over game $game is not stored"
done
takeovers_in=$(curl -sf "http://$host1_metrics/metrics" |
  awk '$1 ~ /^metropolis_gamehost_takeovers_total\{direction="in"\}/ { s += $2 } END { print s + 0 }')
((takeovers_in >= taken_count)) || fail "host 1's metropolis_gamehost_takeovers_total{direction=\"in\"} is $takeovers_in"
# Back on the link, the cut host finds each of those games fenced at its next lease
# renewal and counts it lost, once: out must come to exactly what host 1 took in.
for _ in $(seq 1 100); do
  lost_out=$(host2_metric 'metropolis_gamehost_takeovers_total{direction="out"}')
  ((${lost_out%.*} >= taken_count)) && break
  sleep 0.1
done
[[ ${lost_out%.*} == "$taken_count" ]] ||
  fail "the cut host counts $lost_out games taken over from it (metropolis_gamehost_takeovers_total{direction=\"out\"}); host 1 took $taken_count"
grep -q 'msg="matchmaker heartbeat" ok=false' "$logs/gamehost2.log" || fail "the cut host did not log its failed heartbeats"
grep -q 'msg="matchmaker heartbeat" ok=true' "$logs/gamehost2.log" || fail "the cut host did not log its heartbeats working again"

echo
echo "| link cut for $cut s | host 1 | cut host |"
echo "|---|---|---|"
echo "| games created before the cut | $before_cut_host1 | $before_cut_host2 |"
echo "| during the cut | $during_host1 | $during_host2 |"
echo "| after it | $(($(created_on "$METROPOLIS_GAMEHOST") - up_host1)) | $again |"
echo "| finished and stored | $on1 | $on2 |"
echo "| games taken over: in (log, metric) / out (metric) | $taken_count, $takeovers_in / 0 | 0 / $lost_out |"
echo "| deliveries that failed, retried | $(grep -c 'delivering a completed game failed' "$logs/gamehost1.log" || true) | $(grep -c 'delivering a completed game failed' "$logs/gamehost2.log" || true) |"
echo
say "passed ($stored games stored and rated once; hosts known fell to $low and came back to 2)"
