# shellcheck shell=bash
# Throwaway PostgreSQL and Redis for tests: fresh data in a temporary folder, loopback
# only, ports chosen free at run time. Source this file, then
#
#   trap stop_services EXIT
#   start_postgres    # exports METROPOLIS_PG_CONNINFO
#   start_redis       # exports METROPOLIS_REDIS_ADDR (host:port)
#
# Redis runs as deployed: an append-only file, fsynced every second, so what it
# holds (tickets, leaderboards, the game hosts' checkpoints) survives a restart.
# METROPOLIS_REDIS_PERSIST=0 keeps nothing on disk. METROPOLIS_REDIS_BIND adds
# addresses Redis also listens on (e.g. a veth link's, for a game host in another
# network namespace; without a password it then accepts them: test use only).
#
# Failure tests restart either server on its port with its data:
#
#   restart_postgres [SECONDS_DOWN]   # "$METROPOLIS_PG_CTL stop", wait, "... start"
#   restart_redis [SECONDS_DOWN]      # the same with "$METROPOLIS_REDIS_CTL"
#
# Redis Sentinel (docs/FAILURES.md, "Redis failover"), after start_redis:
#
#   start_redis_sentinels [N]   # a replica of that Redis and N sentinels (default 3,
#                               # quorum N/2+1); exports METROPOLIS_REDIS_SENTINEL_ADDR
#                               # (sentinel:metropolis@127.0.0.1:PORT,...) and
#                               # METROPOLIS_REDIS_REPLICA_ADDR
#   redis_failover              # a sentinel promotes the replica; returns when it is
#                               # the primary and the old one follows it
#
# After a failover METROPOLIS_REDIS_ADDR and METROPOLIS_REDIS_CTL still name the first
# server, a replica by then.
#
# Server programs of the project, for load scripts (after start_postgres and start_redis):
#
#   start_service NAME PORT COMMAND [ARGS...]   # in the background; returns when something
#                                               # listens on PORT; its pid is
#                                               # METROPOLIS_SERVICE_PIDS[NAME], its output
#                                               # $METROPOLIS_SERVICE_LOGS/NAME.log
#   services_workspace PREFIX                   # $work, the run's temporary folder, which
#                                               # also takes the services' logs; at exit the
#                                               # services are stopped and it is removed
#
# Integration tests read those variables and fail when they are unset (never skip).

METROPOLIS_SERVICES_DIR=${METROPOLIS_SERVICES_DIR:-}
# -g: a caller may source this file inside a function. No "=()": sourcing it again
# must not forget the services already started.
declare -gA METROPOLIS_SERVICE_PIDS

# Not called in a subshell: it sets the folder that stop_services removes.
_ensure_services_dir() {
  if [[ -z $METROPOLIS_SERVICES_DIR ]]; then
    METROPOLIS_SERVICES_DIR=$(mktemp -d "${TMPDIR:-/tmp}/metropolis-services.XXXXXX")
    chmod 755 "$METROPOLIS_SERVICES_DIR"
  fi
}

# A flag's value as a whole number of at least MIN (default 1), or exit 2 naming
# the program and the flag: value=$(flag_number PROGRAM FLAG VALUE [MIN]).
flag_number() {
  local min=${4:-1}
  if [[ $3 =~ ^[0-9]+$ ]] && ((10#$3 >= min)); then
    echo "$((10#$3))"
    return
  fi
  echo "$1: $2 wants a whole number of at least $min, not '$3'" >&2
  exit 2
}

# Prints a TCP port nobody listens on. Other programs may hold the usual ports.
free_port() {
  local port low=32768
  # Below the kernel's ephemeral range: outgoing connections take their local
  # ports from that range and could take a port found free before its server
  # binds it.
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || low=32768
  ((low > 11000)) || low=32768
  for _ in $(seq 1 200); do
    port=$(shuf -i 10000-$((low - 1)) -n 1)
    if command -v ss >/dev/null 2>&1; then
      ss -Htln "sport = :$port" | grep -q . || { echo "$port"; return 0; }
    elif ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "free_port: no free port found" >&2
  return 1
}

_pg_bindir() {
  local dir
  # 15 is what Debian 12 ships and what the project is tested with; else the newest.
  for dir in /usr/lib/postgresql/15/bin $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -Vr); do
    [[ -x $dir/initdb ]] && { echo "$dir"; return 0; }
  done
  echo "start_postgres: no PostgreSQL server found (scripts/setup.sh installs it)" >&2
  return 1
}

# PostgreSQL refuses to run as root: run it as the postgres user, from / so that it is
# not left in a folder it cannot read.
_as_pg_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

start_postgres() {
  local bindir port pgdir
  _ensure_services_dir
  bindir=$(_pg_bindir)
  port=$(free_port)
  # The server writes its data, log and socket here, so the postgres user owns it.
  pgdir=$METROPOLIS_SERVICES_DIR/pg
  mkdir -p "$pgdir"
  if [[ $(id -u) -eq 0 ]]; then chown postgres:postgres "$pgdir"; fi
  _as_pg_owner "$bindir/initdb" -D "$pgdir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
  local opts="-c listen_addresses=127.0.0.1 -k $pgdir"
  # Durability is pointless for throwaway test data, and slow; benchmarks that
  # measure durable writes set METROPOLIS_PG_DURABLE=1 to keep the defaults.
  if [[ ${METROPOLIS_PG_DURABLE:-0} != 1 ]]; then
    opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  fi
  # Diagnostics, e.g. "-c shared_preload_libraries=pg_stat_statements".
  opts+=" ${METROPOLIS_PG_EXTRA_OPTS:-}"
  # A port found free may be taken before the server binds it (tests start
  # services side by side): then another port, a few times.
  local attempt
  for attempt in 1 2 3 4 5; do
    echo "services: starting PostgreSQL on 127.0.0.1:$port"
    rm -f "$pgdir/server.log"  # written by the server's user
    if _as_pg_owner "$bindir/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w -t 30 start -o "$opts -p $port" \
      >/dev/null; then
      break
    fi
    if ((attempt == 5)) || ! grep -q "Address already in use" "$pgdir/server.log"; then
      cat "$pgdir/server.log" >&2
      return 1
    fi
    port=$(free_port)
  done
  opts+=" -p $port"
  "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres metropolis
  export METROPOLIS_PG_CONNINFO="host=127.0.0.1 port=$port dbname=metropolis user=postgres"
  # Failure tests stop and start this server: "$METROPOLIS_PG_CTL stop|start".
  local ctl=$METROPOLIS_SERVICES_DIR/pg-ctl.sh run_as=()
  if [[ $(id -u) -eq 0 ]]; then run_as=(runuser -u postgres --); fi
  cat >"$ctl" <<EOF
#!/bin/bash
# Stops or starts the throwaway PostgreSQL with the options it was started with.
case \$1 in
  stop) cd / && ${run_as[*]} "$bindir/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null ;;
  start) cd / && ${run_as[*]} "$bindir/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w -t 30 start -o "$opts" >/dev/null ;;
  *) echo "usage: \$0 stop|start" >&2; exit 2 ;;
esac
EOF
  chmod 755 "$ctl"
  export METROPOLIS_PG_CTL=$ctl
  echo "services: METROPOLIS_PG_CONNINFO=$METROPOLIS_PG_CONNINFO"
}

start_redis() {
  local dir port attempt
  _ensure_services_dir
  dir=$METROPOLIS_SERVICES_DIR
  local persist=(--appendonly yes --appendfsync everysec)
  if [[ ${METROPOLIS_REDIS_PERSIST:-1} == 0 ]]; then persist=(--appendonly no); fi
  local bind="127.0.0.1"
  [[ -n ${METROPOLIS_REDIS_BIND:-} ]] && bind="127.0.0.1 $METROPOLIS_REDIS_BIND --protected-mode no"
  # As for PostgreSQL: a port found free may be taken before Redis binds it
  # (tests start services side by side); then another port, a few times.
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    echo "services: starting Redis on 127.0.0.1:$port"
    rm -f "$dir/redis.log" "$dir/redis.pid"
    # shellcheck disable=SC2086 # $bind: addresses and options, split on purpose
    redis-server --bind $bind --port "$port" --save '' "${persist[@]}" --daemonize yes \
      --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --dir "$dir" >/dev/null
    for _ in $(seq 1 200); do
      # Ours answers with its own pid: another server on the port would answer too.
      if [[ -s $dir/redis.pid ]] &&
        redis-cli -h 127.0.0.1 -p "$port" info server 2>/dev/null | tr -d '\r' |
        grep -qx "process_id:$(cat "$dir/redis.pid")"; then
        export METROPOLIS_REDIS_ADDR="127.0.0.1:$port"
        _write_redis_ctl "$port" "--bind $bind --port $port --save '' ${persist[*]}"
        echo "services: METROPOLIS_REDIS_ADDR=$METROPOLIS_REDIS_ADDR"
        return 0
      fi
      # A daemonized server that could not bind exits and says why in its log.
      grep -q "Address already in use" "$dir/redis.log" 2>/dev/null && break
      sleep 0.05
    done
    if ! grep -q "Address already in use" "$dir/redis.log" 2>/dev/null; then break; fi
  done
  echo "start_redis: Redis did not answer on port $port" >&2
  cat "$dir/redis.log" >&2 || true
  return 1
}

# Writes $METROPOLIS_REDIS_CTL: "stop" ends the server (the append-only file is
# flushed first), "kill" ends it as a crash does (SIGKILL), "start" starts it again
# on the same port, folder and options.
_write_redis_ctl() {  # port options
  local dir=$METROPOLIS_SERVICES_DIR ctl=$METROPOLIS_SERVICES_DIR/redis-ctl.sh
  cat >"$ctl" <<EOF
#!/bin/bash
# Stops or starts the throwaway Redis with the options it was started with.
case \$1 in
  stop)
    pid=\$(cat "$dir/redis.pid" 2>/dev/null) || exit 0
    kill -TERM "\$pid" 2>/dev/null || exit 0
    for _ in \$(seq 1 200); do kill -0 "\$pid" 2>/dev/null || exit 0; sleep 0.05; done
    echo "redis-ctl: Redis (pid \$pid) did not stop" >&2; exit 1 ;;
  kill)
    # As a crash: SIGKILL, nothing flushed (tests/faults/redis_aof_test.sh).
    pid=\$(cat "$dir/redis.pid" 2>/dev/null) || exit 0
    kill -KILL "\$pid" 2>/dev/null || exit 0
    for _ in \$(seq 1 200); do kill -0 "\$pid" 2>/dev/null || exit 0; sleep 0.05; done
    echo "redis-ctl: Redis (pid \$pid) did not die" >&2; exit 1 ;;
  start)
    rm -f "$dir/redis.pid"
    redis-server $2 --daemonize yes \\
      --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --dir "$dir" >/dev/null || exit 1
    for _ in \$(seq 1 200); do
      redis-cli -h 127.0.0.1 -p $1 ping 2>/dev/null | grep -q PONG && exit 0
      sleep 0.05
    done
    echo "redis-ctl: Redis did not answer on port $1 after a restart" >&2; exit 1 ;;
  *) echo "usage: \$0 stop|kill|start" >&2; exit 2 ;;
esac
EOF
  chmod 755 "$ctl"
  export METROPOLIS_REDIS_CTL=$ctl
}

_restart() {  # name ctl seconds-down
  [[ -n $2 && -x $2 ]] || { echo "restart_$1: no $1 started here (its control script is unset)" >&2; return 1; }
  echo "services: stopping $1"
  "$2" stop || return 1
  sleep "$3"
  echo "services: starting $1 again"
  "$2" start
}

# Stops PostgreSQL, waits SECONDS_DOWN (default 2), and starts it again on its port.
restart_postgres() { _restart postgres "${METROPOLIS_PG_CTL:-}" "${1:-2}"; }

# Stops Redis, waits SECONDS_DOWN (default 2), and starts it again on its port with
# its data (with persistence, what it held before the stop).
restart_redis() { _restart redis "${METROPOLIS_REDIS_CTL:-}" "${1:-2}"; }

_redis_up() {  # port pidfile: true when the server on port is the one in pidfile
  [[ -s $2 ]] && redis-cli -h 127.0.0.1 -p "$1" info server 2>/dev/null | tr -d '\r' |
    grep -qx "process_id:$(cat "$2")"
}

start_redis_sentinels() {
  local count=${1:-3} dir=$METROPOLIS_SERVICES_DIR primary_port replica_port port i addresses=""
  [[ -n ${METROPOLIS_REDIS_ADDR:-} && -n $dir ]] || { echo "start_redis_sentinels: start_redis first" >&2; return 1; }
  [[ $count =~ ^[1-9][0-9]?$ ]] || { echo "start_redis_sentinels: N must be 1 to 99, not '$count'" >&2; return 1; }
  primary_port=${METROPOLIS_REDIS_ADDR##*:}
  replica_port=$(free_port)
  mkdir -p "$dir/replica"
  echo "services: starting a Redis replica on 127.0.0.1:$replica_port"
  redis-server --bind 127.0.0.1 --port "$replica_port" --save '' --appendonly yes --appendfsync everysec \
    --replicaof 127.0.0.1 "$primary_port" --daemonize yes --pidfile "$dir/redis-replica.pid" \
    --logfile "$dir/redis-replica.log" --dir "$dir/replica" >/dev/null
  for _ in $(seq 1 400); do
    redis-cli -p "$replica_port" info replication 2>/dev/null | tr -d '\r' | grep -qx 'master_link_status:up' && break
    sleep 0.05
  done
  redis-cli -p "$replica_port" info replication 2>/dev/null | tr -d '\r' | grep -qx 'master_link_status:up' ||
    { echo "start_redis_sentinels: the replica did not catch up with the primary" >&2; cat "$dir/redis-replica.log" >&2; return 1; }
  for i in $(seq 1 "$count"); do
    port=$(free_port)
    # A sentinel rewrites its own configuration file, so each has one of its own.
    printf '%s\n' "sentinel monitor metropolis 127.0.0.1 $primary_port $((count / 2 + 1))" \
      "sentinel down-after-milliseconds metropolis 2000" "sentinel failover-timeout metropolis 10000" \
      >"$dir/sentinel-$i.conf"
    echo "services: starting Redis sentinel $i on 127.0.0.1:$port"
    redis-server "$dir/sentinel-$i.conf" --sentinel --bind 127.0.0.1 --port "$port" --daemonize yes \
      --pidfile "$dir/sentinel-$i.pid" --logfile "$dir/sentinel-$i.log" >/dev/null
    for _ in $(seq 1 200); do _redis_up "$port" "$dir/sentinel-$i.pid" && break; sleep 0.05; done
    _redis_up "$port" "$dir/sentinel-$i.pid" ||
      { echo "start_redis_sentinels: sentinel $i did not answer on port $port" >&2; cat "$dir/sentinel-$i.log" >&2; return 1; }
    addresses+="${addresses:+,}127.0.0.1:$port"
  done
  export METROPOLIS_REDIS_REPLICA_ADDR="127.0.0.1:$replica_port"
  export METROPOLIS_REDIS_SENTINEL_ADDR="sentinel:metropolis@$addresses"
  echo "services: METROPOLIS_REDIS_SENTINEL_ADDR=$METROPOLIS_REDIS_SENTINEL_ADDR"
}

redis_failover() {
  local sentinel before after
  [[ -n ${METROPOLIS_REDIS_SENTINEL_ADDR:-} ]] || { echo "redis_failover: start_redis_sentinels first" >&2; return 1; }
  sentinel=${METROPOLIS_REDIS_SENTINEL_ADDR#*@}
  sentinel=${sentinel%%,*}
  before=$(redis-cli -p "${sentinel##*:}" sentinel get-master-addr-by-name metropolis | paste -sd:)
  echo "services: Redis failover from $before"
  # NOGOODSLAVE until the sentinel has had the replica's own INFO (every 10 s at first).
  local answer
  for _ in $(seq 1 300); do
    answer=$(redis-cli -p "${sentinel##*:}" sentinel failover metropolis 2>&1)
    [[ $answer == *NOGOODSLAVE* ]] || break
    sleep 0.1
  done
  [[ $answer == OK ]] || { echo "redis_failover: the sentinel refused the failover: $answer" >&2; return 1; }
  for _ in $(seq 1 600); do
    after=$(redis-cli -p "${sentinel##*:}" sentinel get-master-addr-by-name metropolis | paste -sd:)
    if [[ $after != "$before" ]] && redis-cli -p "${after##*:}" role 2>/dev/null | head -1 | grep -qx master &&
      redis-cli -p "${before##*:}" role 2>/dev/null | head -1 | grep -qx slave; then
      echo "services: Redis primary is now $after"
      return 0
    fi
    sleep 0.05
  done
  echo "redis_failover: the failover did not finish in 30 s (primary: $after)" >&2
  return 1
}

# Starts COMMAND with its output in $METROPOLIS_SERVICE_LOGS/NAME.log (default: a folder
# in the services' folder, which stop_services removes; a caller that wants the logs
# beside its own files sets the variable), then waits up to 60 s for something to
# listen on PORT: the servers bind their port once they are ready to serve. Fails if
# COMMAND exits first (its log shown) or does not listen in time.
start_service() {  # name port command args...
  local name=$1 port=$2 logs pid
  shift 2
  _ensure_services_dir
  logs=${METROPOLIS_SERVICE_LOGS:-$METROPOLIS_SERVICES_DIR/logs}
  mkdir -p "$logs"
  "$@" >"$logs/$name.log" 2>&1 &
  pid=$!
  METROPOLIS_SERVICE_PIDS[$name]=$pid
  for _ in $(seq 1 1200); do
    ss -Htln "sport = :$port" | grep -q . && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "start_service: $name exited at start:" >&2
      cat "$logs/$name.log" >&2
      return 1
    fi
    sleep 0.05
  done
  echo "start_service: $name did not listen on $port" >&2
  return 1
}

# For load scripts: makes the run's temporary folder PREFIX.XXXXXX as $work, has
# start_service write the services' logs there beside the rest, and sets an EXIT
# trap (in place of the caller's) that stops the services and removes the folder.
# Not called in a subshell: it sets $work and the trap.
services_workspace() {  # prefix
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  METROPOLIS_SERVICE_LOGS=$work
  trap _remove_workspace EXIT
}

# shellcheck disable=SC2317 # the EXIT trap
_remove_workspace() {
  stop_services >/dev/null
  rm -rf "$work"
}

# Stops whatever start_service, start_postgres and start_redis started and removes their
# data. Safe to call more than once, and when nothing was started.
stop_services() {
  local dir=$METROPOLIS_SERVICES_DIR bindir pid
  # The server programs first, while the databases they use are still up: they finish
  # their calls on the way out. All signalled, then all waited for, so that their
  # shutdowns overlap. They are this shell's children: wait reaps them.
  for pid in "${METROPOLIS_SERVICE_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${METROPOLIS_SERVICE_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  METROPOLIS_SERVICE_PIDS=()
  [[ -n $dir && -d $dir ]] || return 0
  if [[ -f $dir/pg/data/postmaster.pid ]] && bindir=$(_pg_bindir 2>/dev/null); then
    _as_pg_owner "$bindir/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  local pidfile
  for pidfile in "$dir"/redis.pid "$dir"/redis-replica.pid "$dir"/sentinel-*.pid; do
    [[ -f $pidfile ]] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    # Redis exits asynchronously; wait so that its files can go.
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
  done
  rm -rf "$dir"
  METROPOLIS_SERVICES_DIR=
  unset METROPOLIS_PG_CONNINFO METROPOLIS_REDIS_ADDR METROPOLIS_PG_CTL METROPOLIS_REDIS_CTL METROPOLIS_REDIS_SENTINEL_ADDR METROPOLIS_REDIS_REPLICA_ADDR
  echo "services: stopped"
}
