#!/usr/bin/env bash
# The whole Metropolis stack on this machine, on loopback: a throwaway
# PostgreSQL and Redis, the migrations, and every service (accounts, replays,
# ratings, matchmaker, one game host) wired together.
#
#   deploy/local/stack.sh up [BUILD_DIR]   start it; prints where everything listens
#   deploy/local/stack.sh down             stop it and delete its data
#   deploy/local/stack.sh env              print the stack's variables (source them)
#   deploy/local/stack.sh start NAME       start service NAME (e.g. gamehost2) again after it died,
#                                          with the command line, data and port it had: what
#                                          Kubernetes does for a crashed pod (bench/soak.sh --fault-every)
#
# BUILD_DIR (default build/release) holds the built programs. METROPOLIS_MATCHMAKERS=2
# starts a second matchmaker replica beside the first (METROPOLIS_MATCHMAKER2; run under
# METROPOLIS_MATCHMAKER2_WRAPPER's words, e.g. "env LD_PRELOAD=... FAKETIME=+60s", when set);
# METROPOLIS_RATINGS_REPLICAS=2 starts a second ratings replica (METROPOLIS_RATINGS2; with
# METROPOLIS_RATINGS2_FLAGS added to its command line, split on spaces, e.g. its own
# --redis-user), and the even-numbered game hosts rate their games through it;
# METROPOLIS_GATEWAY_FLAGS is added to the gateway's command line the same way;
# METROPOLIS_GAMEHOSTS=N starts N game hosts (their addresses in METROPOLIS_GAMEHOST_ADDRS,
# the first in METROPOLIS_GAMEHOST; their pids in $METROPOLIS_STACK_DIR/gamehost<i>.pid). The stack keeps its
# state in $METROPOLIS_STACK_DIR (default /tmp/metropolis-stack): data, logs
# (logs/*.log) and stack.env, which holds the addresses and tokens. The services'
# gRPC ports listen on METROPOLIS_LISTEN_ADDR (default 127.0.0.1), e.g. an address
# that a game host in another network namespace reaches (tests/e2e/netns_test.sh);
# PostgreSQL, Redis, the metrics and the gateway stay on loopback.
# The game hosts checkpoint their live games in the stack's Redis and take over
# each other's (--checkpoint-redis, leases of METROPOLIS_LEASE_MS, default 3000);
# METROPOLIS_GAMEHOST_CHECKPOINTS=0 keeps live games in the hosts' memory only.
# A test may add flags to every game host (METROPOLIS_GAMEHOST_FLAGS, split on spaces)
# and to every matchmaker replica (METROPOLIS_MATCHMAKER_FLAGS, e.g. the scheduler's lease)
# and route one host's checkpoints elsewhere (METROPOLIS_GAMEHOST<h>_CHECKPOINT_REDIS).
# METROPOLIS_TABLE_LADDERS (default "casual") names the ladders friends' tables may be
# rated on (the matchmaker's --table-ladders).
#
#
#   METROPOLIS_PG              PostgreSQL connection string
#   METROPOLIS_REDIS           Redis address (the first primary, host:port)
#   METROPOLIS_REDIS_SERVICES  what the services were given: the same, or with
#                              METROPOLIS_REDIS_SENTINELS=N, sentinel:metropolis@...
#   METROPOLIS_REDIS_REPLICA   with METROPOLIS_REDIS_SENTINELS, the replica (host:port)
#   METROPOLIS_ACCOUNTS, METROPOLIS_REPLAYS, METROPOLIS_RATINGS(2), METROPOLIS_MATCHMAKER,
#   METROPOLIS_GAMEHOST        the services' gRPC addresses (metropolisctl's accounts
#                              commands go to METROPOLIS_ACCOUNTS)
#   METROPOLIS_ADMIN_TOKEN     an administrator's API token (of the identity "admin")
#   METROPOLIS_SERVICE_TOKEN   the game hosts' service token
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
stack=${METROPOLIS_STACK_DIR:-/tmp/metropolis-stack}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

wait_port() {  # name port pid
  for _ in $(seq 1 400); do
    ss -Htln "sport = :$2" | grep -q . && return 0
    if ! kill -0 "$3" 2>/dev/null; then
      echo "stack: $1 exited at start; its log:" >&2
      tail -20 "$stack/logs/$1.log" >&2
      return 1
    fi
    sleep 0.05
  done
  echo "stack: $1 did not listen on port $2" >&2
  return 1
}

up() {
  local build=${1:-build/release}
  [[ -x $build/services/gamehost/metropolis-gamehost ]] || {
    echo "stack: no programs in $build (build first: cmake --preset release && cmake --build --preset release)" >&2
    exit 1
  }
  build=$(cd "$build" && pwd)
  local addr=${METROPOLIS_LISTEN_ADDR:-127.0.0.1}
  if [[ -f $stack/stack.env ]]; then
    echo "stack: already up ($stack/stack.env); 'deploy/local/stack.sh down' first" >&2
    exit 1
  fi
  mkdir -p "$stack/logs"
  chmod 755 "$stack"
  export METROPOLIS_SERVICES_DIR=$stack/services
  mkdir -p "$METROPOLIS_SERVICES_DIR"
  # shellcheck source=scripts/lib/services.sh
  source "$root/scripts/lib/services.sh"
  start_postgres >"$stack/logs/postgres-start.log"
  # Append-only: live games' checkpoints must outlive a restart of Redis.
  METROPOLIS_REDIS_PERSIST=${METROPOLIS_REDIS_PERSIST:-1} start_redis >"$stack/logs/redis-start.log"
  # METROPOLIS_REDIS_SENTINELS=N: a replica and N sentinels beside Redis, and the
  # services find the primary through them (docs/FAILURES.md, "Redis failover");
  # `redis_failover` (scripts/lib/services.sh) then moves the primary.
  local redis_address=$METROPOLIS_REDIS_ADDR
  if [[ ${METROPOLIS_REDIS_SENTINELS:-0} -gt 0 ]]; then
    start_redis_sentinels "$METROPOLIS_REDIS_SENTINELS" >"$stack/logs/sentinels-start.log"
    redis_address=$METROPOLIS_REDIS_SENTINEL_ADDR
  fi
  "$build/tools/migrate/metropolis-migrate" --pg "$METROPOLIS_PG_CONNINFO" --dir "$root/migrations" \
    >"$stack/logs/migrate.log"

  local service_token
  service_token=svc-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  local host_admin host_spectator gateway_service_token
  host_admin=host-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  # The gateway's service token: the only caller of People (its people's
  # accounts), and its identity for reading the other services.
  gateway_service_token=gw-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  # What the gateway shows the public: a spectator, which a hidden game refuses.
  host_spectator=spec-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  local accounts_port replays_port ratings_port ratings2_port mm_port mm2_port host_port
  accounts_port=$(free_port)
  replays_port=$(free_port)
  ratings_port=$(free_port)
  ratings2_port=$(free_port)
  mm_port=$(free_port)
  mm2_port=$(free_port)
  host_port=$(free_port)
  : >"$stack/pids"
  start() {  # name port command...
    local name=$1 port=$2
    shift 2
    # What `stack.sh start NAME` runs again.
    { printf 'port=%q\nargv=(' "$port"; printf '%q ' "$@"; printf ')\n'; } >"$stack/$name.command"
    "$@" >"$stack/logs/$name.log" 2>&1 &
    echo "$!" >>"$stack/pids"
    echo "$!" >"$stack/$name.pid"
    wait_port "$name" "$port" "$!"
  }
  # Each service's Prometheus metrics on a free port of its own, listed in
  # stack.env for deploy/prometheus/local.sh. metrics_at NAME sets $metrics_address.
  local taken=" $accounts_port $replays_port $ratings_port $ratings2_port $mm_port $mm2_port $host_port "
  local metrics_targets="" metrics_address
  metrics_at() {
    local port
    port=$(free_port)
    while [[ $taken == *" $port "* ]]; do port=$(free_port); done
    taken+="$port "
    metrics_address=127.0.0.1:$port
    metrics_targets+="${metrics_targets:+ }$1=$metrics_address"
  }
  # Accounts first: every other service checks its callers' tokens there, with
  # the service token. People's seat tokens are stored encrypted with the seat
  # key (docs/ACCOUNTS.md), readable by this user only, like a chart's secret.
  (umask 077 && head -c 32 /dev/urandom >"$stack/seat.key")
  metrics_at accounts
  start accounts "$accounts_port" "$build/services/accounts/metropolis-accounts" --listen "$addr:$accounts_port" \
    --pg "$METROPOLIS_PG_CONNINFO" --service-token "$service_token" --gateway-token "$gateway_service_token" \
    --seat-key-file "$stack/seat.key" --metrics-listen "$metrics_address"
  metrics_at replays
  start replays "$replays_port" "$build/services/replays/metropolis-replays" --listen "$addr:$replays_port" \
    --pg "$METROPOLIS_PG_CONNINFO" --store-token "$service_token" --accounts "$addr:$accounts_port" \
    --gateway-token "$gateway_service_token" --metrics-listen "$metrics_address"
  metrics_at ratings
  start ratings "$ratings_port" "$build/services/ratings/metropolis-ratings" --listen "$addr:$ratings_port" \
    --pg "$METROPOLIS_PG_CONNINFO" --redis "$redis_address" --service-token "$service_token" \
    --replays "$addr:$replays_port" --accounts "$addr:$accounts_port" --metrics-listen "$metrics_address" \
    --gateway-token "$gateway_service_token"
  if [[ ${METROPOLIS_RATINGS_REPLICAS:-1} == 2 ]]; then
    metrics_at ratings2
    # shellcheck disable=SC2086 # METROPOLIS_RATINGS2_FLAGS: flags, split on purpose
    start ratings2 "$ratings2_port" "$build/services/ratings/metropolis-ratings" --listen "$addr:$ratings2_port" \
      --pg "$METROPOLIS_PG_CONNINFO" --redis "$redis_address" --service-token "$service_token" \
      --replays "$addr:$replays_port" --accounts "$addr:$accounts_port" --metrics-listen "$metrics_address" \
      --gateway-token "$gateway_service_token" ${METROPOLIS_RATINGS2_FLAGS:-}
  else
    ratings2_port=$ratings_port
  fi
  metrics_at matchmaker
  # shellcheck disable=SC2086 # METROPOLIS_MATCHMAKER_FLAGS: flags, split on purpose
  start matchmaker "$mm_port" "$build/services/matchmaker/metropolis-matchmaker" --listen "$addr:$mm_port" \
    --pg "$METROPOLIS_PG_CONNINFO" --redis "$redis_address" --service-token "$service_token" \
    --host-admin-token "$host_admin" --ratings "$addr:$ratings_port" --replays "$addr:$replays_port" \
    --accounts "$addr:$accounts_port" --gateway-token "$gateway_service_token" \
    --table-ladders "${METROPOLIS_TABLE_LADDERS:-casual}" \
    --metrics-listen "$metrics_address" ${METROPOLIS_MATCHMAKER_FLAGS:-}
  if [[ ${METROPOLIS_MATCHMAKERS:-1} == 2 ]]; then
    metrics_at matchmaker2
    # METROPOLIS_MATCHMAKER2_WRAPPER: words run before it (a fault test's libfaketime).
    # shellcheck disable=SC2086 # split into words on purpose (the wrapper and the flags)
    start matchmaker2 "$mm2_port" ${METROPOLIS_MATCHMAKER2_WRAPPER:-} "$build/services/matchmaker/metropolis-matchmaker" --listen "$addr:$mm2_port" \
      --pg "$METROPOLIS_PG_CONNINFO" --redis "$redis_address" --service-token "$service_token" \
      --host-admin-token "$host_admin" --ratings "$addr:$ratings_port" --replays "$addr:$replays_port" \
      --accounts "$addr:$accounts_port" --gateway-token "$gateway_service_token" \
      --table-ladders "${METROPOLIS_TABLE_LADDERS:-casual}" \
      --metrics-listen "$metrics_address" ${METROPOLIS_MATCHMAKER_FLAGS:-}
  else
    mm2_port=$mm_port
  fi
  # The game hosts: METROPOLIS_GAMEHOSTS of them (default 1). Each announces itself
  # to the first matchmaker; all replicas read the same registry in Redis.
  local hosts=() h port checkpoints=()
  # One platform key for every host (docs/CHANCE.md): the rotations of a
  # duplicate set meet the same chance on whichever host plays them. Readable
  # by this user only, like a chart's secret.
  (umask 077 && head -c 32 /dev/urandom >"$stack/chance.key")
  [[ ${METROPOLIS_GAMEHOST_CHECKPOINTS:-1} == 1 ]] &&
    checkpoints=(--checkpoint-redis "$redis_address" --lease-ms "${METROPOLIS_LEASE_MS:-3000}")
  for h in $(seq 1 "${METROPOLIS_GAMEHOSTS:-1}"); do
    port=$host_port
    ((h > 1)) && port=$(free_port)
    metrics_at "gamehost$h"
    # A fault test may route one host's checkpoints through a link it cuts
    # (METROPOLIS_GAMEHOST<h>_CHECKPOINT_REDIS, tests/faults/).
    local via_var="METROPOLIS_GAMEHOST${h}_CHECKPOINT_REDIS" host_checkpoints=("${checkpoints[@]}")
    if [[ -n ${!via_var:-} && ${#checkpoints[@]} -gt 0 ]]; then
      host_checkpoints=(--checkpoint-redis "${!via_var}" --lease-ms "${METROPOLIS_LEASE_MS:-3000}")
    fi
    # The even-numbered hosts rate through the second ratings replica, when there is one.
    local host_ratings=$ratings_port
    ((h % 2 == 0)) && host_ratings=$ratings2_port
    # shellcheck disable=SC2086 # METROPOLIS_GAMEHOST_FLAGS: flags, split on purpose
    start "gamehost$h" "$port" "$build/services/gamehost/metropolis-gamehost" --listen "$addr:$port" \
      --metrics-listen "$metrics_address" --admin-token "$host_admin" --spectator-token "$host_spectator" \
      --data-dir "$stack/gamehost$h" --chance-key-file "$stack/chance.key" \
      --replays "$addr:$replays_port" --replays-token "$service_token" \
      --ratings "$addr:$host_ratings" --ratings-token "$service_token" \
      --matchmaker "$addr:$mm_port" --matchmaker-token "$service_token" "${host_checkpoints[@]}" \
      ${METROPOLIS_GAMEHOST_FLAGS:-}
    hosts+=("$addr:$port")
  done

  local admin="$build/tools/admin/metropolis-admin" admin_token
  "$admin" --pg "$METROPOLIS_PG_CONNINFO" create-player admin >/dev/null
  admin_token=$("$admin" --pg "$METROPOLIS_PG_CONNINFO" --json issue-token admin --admin --label stack |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  cat >"$stack/stack.env" <<ENV
export METROPOLIS_STACK_DIR='$stack'
export METROPOLIS_BUILD='$build'
export METROPOLIS_PG='$METROPOLIS_PG_CONNINFO'
export METROPOLIS_REDIS='$METROPOLIS_REDIS_ADDR'
export METROPOLIS_REDIS_SERVICES='$redis_address'
export METROPOLIS_REDIS_REPLICA='${METROPOLIS_REDIS_REPLICA_ADDR:-}'
export METROPOLIS_ACCOUNTS='$addr:$accounts_port'
export METROPOLIS_REPLAYS='$addr:$replays_port'
export METROPOLIS_RATINGS='$addr:$ratings_port'
export METROPOLIS_RATINGS2='$addr:$ratings2_port'
export METROPOLIS_MATCHMAKER='$addr:$mm_port'
export METROPOLIS_MATCHMAKER2='$addr:$mm2_port'
export METROPOLIS_GAMEHOST='$addr:$host_port'
export METROPOLIS_GAMEHOST_ADDRS='${hosts[*]}'
export METROPOLIS_ADMIN_TOKEN='$admin_token'
export METROPOLIS_SERVICE_TOKEN='$service_token'
export METROPOLIS_PG_CTL='$METROPOLIS_PG_CTL'
export METROPOLIS_REDIS_CTL='$METROPOLIS_REDIS_CTL'
export METROPOLIS_METRICS_TARGETS='$metrics_targets'
ENV

  # --- The gateway (services/gateway, docs/GATEWAY.md) -------------------------------
  # HTTP/JSON, live games and the web app for browsers, started last: it reads every
  # other service. Only when the build has it; it holds no database. It calls every
  # service with its own service token: People takes no other, and replays, ratings
  # and the matchmaker know it as the gateway's and do not limit it per identity
  # (it limits each of its clients itself), so no client's flood of the gateway
  # spends an identity's budget, an administrator's least. It watches games with the hosts' spectator token
  # (hidden games refuse it), and creates people's practice games with the hosts'
  # administrator token. The hosts' administrator token is in stack.env, so
  # that tests can create games on a host. The web app
  # is METROPOLIS_WEB_ROOT (default web/app) when that folder exists.
  local gateway_line=""
  if [[ -x $build/services/gateway/metropolis-gateway ]]; then
    local gateway_port gateway_metrics_port web_root=${METROPOLIS_WEB_ROOT:-$root/web/app}
    local web_args=()
    [[ -d $web_root ]] && web_args=(--web-root "$web_root")
    gateway_port=$(free_port)
    gateway_metrics_port=$(free_port)
    while [[ $gateway_metrics_port == "$gateway_port" ]]; do gateway_metrics_port=$(free_port); done
    # shellcheck disable=SC2086 # METROPOLIS_GATEWAY_FLAGS: flags, split on purpose
    start gateway "$gateway_port" "$build/services/gateway/metropolis-gateway" --listen "127.0.0.1:$gateway_port" \
      --metrics-listen "127.0.0.1:$gateway_metrics_port" \
      --accounts "$addr:$accounts_port" --accounts-token "$gateway_service_token" \
      --replays "$addr:$replays_port" --ratings "$addr:$ratings_port" --matchmaker "$addr:$mm_port" \
      --hosts "$(IFS=,; echo "${hosts[*]}")" --gamehost-token "$host_spectator" \
      --gamehost-admin-token "$host_admin" "${web_args[@]}" ${METROPOLIS_GATEWAY_FLAGS:-}
    cat >>"$stack/stack.env" <<ENV
export METROPOLIS_GATEWAY='http://127.0.0.1:$gateway_port'
export METROPOLIS_GATEWAY_METRICS='127.0.0.1:$gateway_metrics_port'
export METROPOLIS_GAMEHOST_ADMIN_TOKEN='$host_admin'
ENV
    gateway_line="  gateway    http://127.0.0.1:$gateway_port/"
  fi
  # --- end of the gateway ----------------------------------------------------------------

  echo "stack: up in $stack"
  echo "  accounts   $addr:$accounts_port"
  echo "  replays    $addr:$replays_port"
  echo "  ratings    $addr:$ratings_port"
  echo "  matchmaker $addr:$mm_port"
  echo "  gamehosts  ${hosts[*]}"
  [[ -n $gateway_line ]] && echo "$gateway_line"  # the gateway block above
  echo "  variables: source $stack/stack.env; logs in $stack/logs"
}

# Starts a service of the stack again that died (SIGKILL, a crash), as it was started
# by `up`: its log goes on in logs/NAME.log, its pid replaces NAME.pid.
start_again() {  # name
  local name=${1:?usage: stack.sh start NAME}
  [[ -f $stack/$name.command ]] || { echo "stack: no service '$name' in $stack" >&2; exit 2; }
  # Alive, not a zombie: a killed service nobody has reaped yet still answers kill -0.
  local state
  if state=$(ps -o stat= -p "$(cat "$stack/$name.pid" 2>/dev/null)" 2>/dev/null) && [[ $state != Z* ]]; then
    echo "stack: $name runs already (pid $(cat "$stack/$name.pid"))" >&2
    exit 1
  fi
  local port argv old
  # shellcheck source=/dev/null
  source "$stack/$name.command"
  # Its dead pid leaves the list that `down` stops: the system may give it to another process.
  old=$(cat "$stack/$name.pid" 2>/dev/null || true)
  [[ -n $old ]] && sed -i "/^$old\$/d" "$stack/pids"
  echo "stack: starting $name again" >>"$stack/logs/$name.log"
  "${argv[@]}" >>"$stack/logs/$name.log" 2>&1 &
  echo "$!" >>"$stack/pids"
  echo "$!" >"$stack/$name.pid"
  wait_port "$name" "$port" "$!"
}

down() {
  if [[ -f $stack/pids ]]; then
    while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done <"$stack/pids"
    while read -r pid; do
      for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
      kill -KILL "$pid" 2>/dev/null || true
    done <"$stack/pids"
  fi
  if [[ -d $stack/services ]]; then
    export METROPOLIS_SERVICES_DIR=$stack/services
    # shellcheck source=scripts/lib/services.sh
    source "$root/scripts/lib/services.sh"
    stop_services >/dev/null
  fi
  rm -rf "$stack"
  echo "stack: down"
}

case ${1:-} in
  up) shift; up "$@" ;;
  down) down ;;
  env) cat "$stack/stack.env" ;;
  start) shift; start_again "$@" ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
