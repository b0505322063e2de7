# shellcheck shell=bash
# The project's npm packages: each folder with a package-lock.json gets its
# node_modules from the lockfile (npm ci) at set-up, never while tests run — a test
# that needs a registry is a test that fails for reasons of the network.
#
#   source scripts/lib/npm.sh
#   npm_folders            # the folders, relative to the repository
#   npm_install ROOT DIR   # npm ci in ROOT/DIR unless its install matches its lockfile
#   npm_ready ROOT DIR     # true when ROOT/DIR's install matches its lockfile

npm_folders() { echo web botkits/node tests/helm services/ratings/model/reference; }

# A stamp, written only after a complete `npm ci`, holds the lockfile it installed.
npm_stamp() { echo "$1/$2/node_modules/.metropolis-installed-lock.json"; }

npm_ready() { cmp -s "$1/$2/package-lock.json" "$(npm_stamp "$1" "$2")"; }

npm_install() {
  local root=$1 dir=$2
  npm_ready "$root" "$dir" && return 0
  echo "setup: npm ci in $dir (from its package-lock.json)"
  rm -f "$(npm_stamp "$root" "$dir")"
  (cd "$root/$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || return 1
  cp "$root/$dir/package-lock.json" "$(npm_stamp "$root" "$dir")"
}
