#!/usr/bin/env bash
# Writes a Prometheus configuration with static targets for the local stack
# (deploy/local/stack.sh up), from the metrics addresses in its stack.env, with
# the same alert rules as on Kubernetes:
#
#   deploy/prometheus/local.sh > /tmp/prometheus-local.yml
#   prometheus --config.file /tmp/prometheus-local.yml
#
# STACK_ENV defaults to $METROPOLIS_STACK_DIR/stack.env (/tmp/metropolis-stack).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
env_file=${1:-${METROPOLIS_STACK_DIR:-/tmp/metropolis-stack}/stack.env}
[[ -r $env_file ]] || { echo "local.sh: no $env_file; start the stack first (deploy/local/stack.sh up)" >&2; exit 1; }
# shellcheck source=/dev/null
source "$env_file"
[[ -n ${METROPOLIS_METRICS_TARGETS:-} ]] ||
  { echo "local.sh: $env_file has no METROPOLIS_METRICS_TARGETS (a stack from before metrics)" >&2; exit 1; }

cat <<YAML
# The local stack's services, from $env_file (deploy/prometheus/local.sh).
global:
  scrape_interval: 5s
  evaluation_interval: 5s
rule_files:
  - $here/alerts.yml
scrape_configs:
  - job_name: metropolis
    static_configs:
YAML
# METROPOLIS_METRICS_TARGETS: "component=host:port ..." (e.g. gamehost=127.0.0.1:41234).
targets=$METROPOLIS_METRICS_TARGETS
[[ -n ${METROPOLIS_GATEWAY_METRICS:-} ]] && targets+=" gateway=$METROPOLIS_GATEWAY_METRICS"
for target in $targets; do
  component=${target%%=*}
  address=${target#*=}
  echo "      - targets: ['$address']"
  echo "        labels: {component: '${component%%[0-9]*}', instance_name: '$component'}"
done
