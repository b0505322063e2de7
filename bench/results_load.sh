#!/usr/bin/env bash
# Load test of the replays and ratings services: builds the release preset in
# build/load, starts a PostgreSQL at its durable defaults (fsync and synchronous
# commit on) and a Redis on free loopback ports, migrates, starts
# metropolis-replays, metropolis-ratings and the Accounts service
# (metropolis-accounts) ratings reads ladders from, runs results_load against them with
# the arguments given here, and stops everything.
#
#   bench/results_load.sh                                  # 5000 games stored and rated; 1,000,000 players ranked
#   bench/results_load.sh --games 20000 --clients 64
#   bench/results_load.sh --phases rank --rank-players 100000
#   bench/results_load.sh --help                           # the load program's flags
#
# Environment:
#   RESULTS_LOAD_BUILD=0         do not build; use what build/load holds
#   RESULTS_LOAD_BUILD_DIR=DIR   another build folder (default build/load)
#   RESULTS_LOAD_CONNECTIONS=N   database connections of each service (default 16)
#   RESULTS_LOAD_PGSS=1          also print the statements PostgreSQL spent most time on
#                                (pg_stat_statements)
#
# The services, the databases and the load program share the machine's cores:
# say so beside any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/services.sh
source scripts/lib/services.sh

build=${RESULTS_LOAD_BUILD_DIR:-build/load}
for arg in "$@"; do
  if [[ $arg == --help ]]; then
    [[ -x $build/bench/results_load ]] && exec "$build/bench/results_load" --help
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
  fi
done

if [[ ${RESULTS_LOAD_BUILD:-1} != 0 ]]; then
  cmake --preset release -B "$build" >/dev/null
  cmake --build "$build" -j2 --target metropolis-accounts metropolis-replays metropolis-ratings metropolis-migrate results_load
fi

services_workspace results-load

export METROPOLIS_PG_DURABLE=1
if [[ ${RESULTS_LOAD_PGSS:-0} == 1 ]]; then
  export METROPOLIS_PG_EXTRA_OPTS="-c shared_preload_libraries=pg_stat_statements"
fi
start_postgres >&2
start_redis >&2
"$build/tools/migrate/metropolis-migrate" --pg "$METROPOLIS_PG_CONNINFO" >&2
if [[ ${RESULTS_LOAD_PGSS:-0} == 1 ]]; then
  psql "$METROPOLIS_PG_CONNINFO" -qc "CREATE EXTENSION pg_stat_statements" >&2
fi

threads=${RESULTS_LOAD_CONNECTIONS:-16}
token=load-$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
replays_port=$(free_port)
ratings_port=$(free_port)
while [[ $ratings_port == "$replays_port" ]]; do ratings_port=$(free_port); done
accounts_port=$(free_port)
while [[ $accounts_port == "$replays_port" || $accounts_port == "$ratings_port" ]]; do accounts_port=$(free_port); done

# Accounts checks the services' callers' API tokens (the load uses the service token).
start_service accounts "$accounts_port" "$build/services/accounts/metropolis-accounts" \
  --listen "127.0.0.1:$accounts_port" --pg "$METROPOLIS_PG_CONNINFO" --service-token "$token" --log-level warning
start_service replays "$replays_port" "$build/services/replays/metropolis-replays" --listen "127.0.0.1:$replays_port" \
  --pg "$METROPOLIS_PG_CONNINFO" --store-token "$token" --accounts "127.0.0.1:$accounts_port" \
  --connections "$threads" --log-level warning
start_service ratings "$ratings_port" "$build/services/ratings/metropolis-ratings" --listen "127.0.0.1:$ratings_port" \
  --pg "$METROPOLIS_PG_CONNINFO" --redis "$METROPOLIS_REDIS_ADDR" --service-token "$token" --connections "$threads" \
  --replays "127.0.0.1:$replays_port" --accounts "127.0.0.1:$accounts_port" --log-level warning

echo "results_load.sh: replays on $replays_port, ratings on $ratings_port, $threads connections each; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# The write-ahead log's position before the load, for its bytes per game after it.
wal_start=$(psql "$METROPOLIS_PG_CONNINFO" -qAtc "SELECT pg_current_wal_lsn()")
status=0
"$build/bench/results_load" --replays "127.0.0.1:$replays_port" --ratings "127.0.0.1:$ratings_port" --token "$token" \
  --pg "$METROPOLIS_PG_CONNINFO" "$@" || status=$?
# Where the machine's CPU went: the services and the database server.
echo >&2
echo "CPU seconds at the end: replays $(ps -o times= -p "${METROPOLIS_SERVICE_PIDS[replays]}" | tr -d ' '), ratings $(ps -o times= -p "${METROPOLIS_SERVICE_PIDS[ratings]}" | tr -d ' '), postgres $(ps -C postgres -o times= | awk '{s += $1} END {print s}'), redis $(ps -C redis-server -o times= | awk '{s += $1} END {print s}')" >&2
# What the stored games take on disk (docs/CAPACITY.md): each table with its
# indexes and TOAST, per game stored, and the write-ahead log the load wrote. The
# rank phase's seeded board and the identities are in it too: `--phases store,rate`
# gives a figure of the games alone.
stored=$(psql "$METROPOLIS_PG_CONNINFO" -qAtc "SELECT count(*) FROM games")
if ((stored > 0)); then
  echo >&2
  echo "on disk after the load: $stored games stored" >&2
  psql "$METROPOLIS_PG_CONNINFO" -c "SELECT c.relname AS \"table\", pg_size_pretty(pg_total_relation_size(c.oid)) AS total,
      round(pg_total_relation_size(c.oid)::numeric / $stored) AS bytes_per_game
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
      AND pg_total_relation_size(c.oid) > 65536
    ORDER BY pg_total_relation_size(c.oid) DESC" >&2
  psql "$METROPOLIS_PG_CONNINFO" -qAt -F ' ' -c "SELECT
      round(sum(pg_total_relation_size(c.oid))::numeric / $stored),
      round(pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal_start')::numeric / $stored)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')" |
    while read -r tables wal; do
      echo "all tables: $tables bytes per game stored; write-ahead log written: $wal bytes per game" >&2
    done
fi
if [[ ${RESULTS_LOAD_PGSS:-0} == 1 ]]; then
  psql "$METROPOLIS_PG_CONNINFO" -c "SELECT calls, round(total_exec_time) AS total_ms,
      round((total_exec_time / calls)::numeric, 3) AS mean_ms, left(regexp_replace(query, '\s+', ' ', 'g'), 90) AS query
    FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 12" >&2
fi
for name in replays accounts ratings; do
  if grep -q "level=error" "$work/$name.log"; then
    echo "results_load.sh: $name logged errors:" >&2
    grep "level=error" "$work/$name.log" | head -20 >&2
  fi
done
exit "$status"
