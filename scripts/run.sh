#!/usr/bin/env bash
# The main job: installs what is missing, builds the programs it runs (the stack
# target of the release preset), starts the
# whole stack on this machine (its own PostgreSQL and Redis in a throwaway
# folder, accounts, replays, ratings, two matchmaker replicas and a game host), registers
# built-in bots, plays a ladder of games through the matchmaker, and prints the
# leaderboard and how to look at the games. The stack keeps running afterwards;
# the last lines say how to stop it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
export METROPOLIS_STACK_DIR=${METROPOLIS_STACK_DIR:-/tmp/metropolis-stack}

echo "==== setup: packages ===="
scripts/setup.sh
echo "==== release: configure and build ===="
cmake --preset release
# Only what the stack and the demo run (the `stack` target): the tests and
# benchmarks are the test command's and the bench scripts' to build.
cmake --build --preset release -j "${METROPOLIS_JOBS:-2}" --target stack
echo "==== stack: start ===="
if [[ -f $METROPOLIS_STACK_DIR/stack.env ]]; then deploy/local/stack.sh down; fi
METROPOLIS_MATCHMAKERS=2 deploy/local/stack.sh up build/release
echo "==== ladder: 8 bots, 3 games each ===="
# A person may queue on this ladder from the browser: a person's clocks, as in
# practice games, not a bot's 10 s per decision.
scripts/ladder_demo.sh --bots 8 --games 3 --decision-ms 60000 --time-bank-ms 300000
# shellcheck source=/dev/null
source "$METROPOLIS_STACK_DIR/stack.env"
cat <<HELP

==== next ====
The stack is still running. Its addresses and tokens:  source $METROPOLIS_STACK_DIR/stack.env
  in a browser:      ${METROPOLIS_GATEWAY:-(no gateway built)}/   leaderboards, players, replays, live games (docs/WEB.md)
  a game's record:   build/release/tools/ctl/metropolisctl --host \$METROPOLIS_REPLAYS --token \$METROPOLIS_ADMIN_TOKEN export-game GAME_ID > game.json
  any step of it:    build/release/tools/engine/metropolis-engine replay --file game.json --step 100
  a player:          build/release/tools/ctl/metropolisctl --host \$METROPOLIS_RATINGS --token \$METROPOLIS_ADMIN_TOKEN rating --ladder open --identity ID
  accounts, tokens:  build/release/tools/ctl/metropolisctl --host \$METROPOLIS_ACCOUNTS --token \$METROPOLIS_ADMIN_TOKEN identities
  more games:        scripts/ladder_demo.sh --games 10
  a tournament:      scripts/tournament_demo.sh     (five bots, a round robin, standings with intervals)
  over HTTP:         curl \$METROPOLIS_GATEWAY/api/v1/ladders   (docs/GATEWAY.md)
  stop it:           deploy/local/stack.sh down
HELP
