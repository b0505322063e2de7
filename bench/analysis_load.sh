#!/usr/bin/env bash
# Soak of the replays service's analysis worker (docs/ANALYSIS.md, "The service"):
# builds the release preset in build/load, starts a PostgreSQL and the Accounts and
# replays services, stores a burst of finished games of heuristic bots whose seats are
# people (bench/results_load --phases store), then watches the worker drain its queue
# once a second until nothing waits, and reports what each game's analysis cost, how
# many jobs the bounded queue dropped, and how long the drain took.
#
#   bench/analysis_load.sh                           # 1500 games into a queue of 1000
#   bench/analysis_load.sh --games 500 --queue 1000  # a burst the queue holds
#   bench/analysis_load.sh --games 3000 --threads 2
#
# Flags (all optional): --games N (1500), --queue N (1000, per line), --threads N (1),
# --distinct N (48: games played by the bots, stored again under new ids),
# --positions N (40), --iterations N (500). --help prints this.
#
# Environment: ANALYSIS_LOAD_BUILD=0 uses build/load as it is.
#
# The services, the database and the load share the machine's cores: say so beside
# any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh

games=1500 queue=1000 threads=1 distinct=48 positions=40 iterations=500
while (($#)); do
  case $1 in
    --games) games=$2 ;;
    --queue) queue=$2 ;;
    --threads) threads=$2 ;;
    --distinct) distinct=$2 ;;
    --positions) positions=$2 ;;
    --iterations) iterations=$2 ;;
    --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "analysis_load.sh: unknown flag '$1' (see --help)" >&2
      exit 2
      ;;
  esac
  if (($# < 2)) || ! [[ $2 =~ ^[0-9]+$ ]]; then
    echo "analysis_load.sh: $1 needs a number" >&2
    exit 2
  fi
  shift 2
done

build=build/load
if [[ ${ANALYSIS_LOAD_BUILD:-1} != 0 ]]; then
  cmake --preset release -B "$build" >/dev/null
  cmake --build "$build" -j2 --target metropolis-accounts metropolis-replays metropolis-migrate results_load
fi

services_workspace analysis-load

start_postgres >&2
"$build/tools/migrate/metropolis-migrate" --pg "$METROPOLIS_PG_CONNINFO" >&2
token=load-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
accounts_port=$(free_port)
replays_port=$(free_port)
while [[ $replays_port == "$accounts_port" ]]; do replays_port=$(free_port); done
metrics_port=$(free_port)
while [[ $metrics_port == "$accounts_port" || $metrics_port == "$replays_port" ]]; do metrics_port=$(free_port); done
start_service accounts "$accounts_port" "$build/services/accounts/metropolis-accounts" \
  --listen "127.0.0.1:$accounts_port" --pg "$METROPOLIS_PG_CONNINFO" --service-token "$token" --log-level warning
start_service replays "$replays_port" "$build/services/replays/metropolis-replays" --listen "127.0.0.1:$replays_port" \
  --pg "$METROPOLIS_PG_CONNINFO" --store-token "$token" --accounts "127.0.0.1:$accounts_port" \
  --metrics-listen "127.0.0.1:$metrics_port" --analysis-threads "$threads" --analysis-queue "$queue" \
  --analysis-positions "$positions" --analysis-search-iterations "$iterations" --log-level warning

# metric NAME [LABEL]: the value of a replays metric (0 when absent).
metric() {
  curl -fsS "http://127.0.0.1:$metrics_port/metrics" |
    awk -v name="$1" -v label="${2:-}" '$1 ~ "^" name "(\\{|$)" && index($1, label) { v = $2 } END { print v + 0 }'
}

echo "analysis_load.sh: $games games stored into a queue of $queue, $threads worker thread(s), $positions positions, $iterations search iterations" >&2
cpu_before=$(ps -o times= -p "${METROPOLIS_SERVICE_PIDS[replays]}" | tr -d ' ')
start=$(date +%s.%N)
"$build/bench/results_load" --replays "127.0.0.1:$replays_port" --ratings 127.0.0.1:1 --token "$token" \
  --pg "$METROPOLIS_PG_CONNINFO" --phases store --games "$games" --distinct "$distinct" --clients 8 >"$work/store.txt"
stored_at=$(date +%s.%N)
printf '%8s  %8s  %8s  %8s\n' "seconds" "waiting" "analysed" "dropped" >&2
peak=0
while :; do
  waiting=$(metric metropolis_replays_analysis_waiting 'line="stored"')
  analysed=$(metric metropolis_replays_analyses_total 'result="analysed"')
  dropped=$(metric metropolis_replays_analysis_dropped_total 'line="stored"')
  ((waiting > peak)) && peak=$waiting
  printf '%8.1f  %8d  %8d  %8d\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$waiting" "$analysed" "$dropped" >&2
  # Done when nothing waits and every stored game is accounted for.
  if ((waiting == 0)) && ((analysed + dropped >= games)); then break; fi
  sleep 1
done
end=$(date +%s.%N)
cpu_after=$(ps -o times= -p "${METROPOLIS_SERVICE_PIDS[replays]}" | tr -d ' ')
failed=$(metric metropolis_replays_analyses_total 'result="failed"')

echo >&2
echo "stored $games games in $(echo "$stored_at - $start" | bc | xargs printf '%.1f') s ($(head -c 300 "$work/store.txt" | tr '\n' ' ' | cut -c1-120)...)" >&2
psql "$METROPOLIS_PG_CONNINFO" -qAt -F ' ' -c "SELECT count(*),
    round(percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_seconds)::numeric, 3),
    round(percentile_cont(0.9) WITHIN GROUP (ORDER BY cpu_seconds)::numeric, 3),
    round(max(cpu_seconds)::numeric, 3), round(avg(cpu_seconds)::numeric, 3),
    round(avg(length(analysis))) FROM game_analyses" |
  while read -r n p50 p90 max mean bytes; do
    printf '| games analysed | dropped (queue full) | failed | peak waiting | drain s | CPU s per game p50 / p90 / max / mean | replays CPU s per analysed game | bytes per analysis |\n' 
    printf '|---|---|---|---|---|---|---|---|\n'
    printf '| %s | %s | %s | %s | %.1f | %s / %s / %s / %s | %.3f | %s |\n' "$n" "$dropped" "$failed" "$peak" \
      "$(echo "$end - $stored_at" | bc)" "$p50" "$p90" "$max" "$mean" \
      "$(echo "($cpu_after - $cpu_before) / ($n + 0.000001)" | bc -l)" "$bytes"
  done
if grep -q "level=error" "$work/replays.log"; then
  echo "analysis_load.sh: replays logged errors:" >&2
  grep "level=error" "$work/replays.log" | head -5 >&2
  exit 1
fi
