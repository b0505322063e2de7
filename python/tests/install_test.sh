#!/usr/bin/env bash
# `cmake --install` of the Python package into a scratch prefix, then an import of
# the installed copy (not the build's) with the Python it was built for.
#   install_test.sh CMAKE BUILD_DIR PYTHON INSTALL_DIR(relative to the prefix)
set -euo pipefail
cmake=$1 build=$2 python=$3 rel=$4
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --component python --prefix "$prefix" >/dev/null
cd "$prefix"
PYTHONPATH="$prefix/$rel" "$python" -s - "$prefix/$rel" <<'PY'
import sys
import metropolis, metropolis.env, metropolis.policy
where = metropolis.__file__
assert where.startswith(sys.argv[1]), "imported %s, not the installed copy" % where
env = metropolis.env.AECEnv()
env.reset(seed=1)
obs = env.observe(env.agent_selection)
assert obs["observation"].shape == (metropolis.observation_size(),)
assert obs["action_mask"].any()
print("installed metropolis imports from", where)
PY
