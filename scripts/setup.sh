#!/usr/bin/env bash
# Installs what Metropolis needs on Debian 12, and only what is missing: safe to run
# again and again. Runs apt-get as root, or through sudo for another user.
set -euo pipefail

# The engine, its tests, benchmarks, fuzzing and formatting.
engine_packages=(
  build-essential cmake ninja-build pkg-config ccache
  clang-14 libclang-rt-14-dev clang-format
  libgtest-dev libgmock-dev libbenchmark-dev
)
# The services (gRPC API, PostgreSQL, Redis, metrics) and their tests.
# libgrpc-dev ships gRPCConfig.cmake, whose targets import the protoc plugins, so
# protobuf-compiler-grpc must be there for find_package(gRPC) to work; grpc-proto
# ships health.proto and reflection.proto. libmicrohttpd is the gateway's HTTP
# server (event-driven; docs/GATEWAY.md, "The HTTP server").
service_packages=(
  libgrpc++-dev libgrpc-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler grpc-proto
  libpqxx-dev libpq-dev libhiredis-dev prometheus-cpp-dev nlohmann-json3-dev libssl-dev libsodium-dev
  libmicrohttpd-dev
  postgresql redis-server
)
# The example bots: Python's gRPC runtime (its stubs are generated with protoc and
# grpc_python_plugin, from protobuf-compiler-grpc).
bot_packages=(python3 python3-grpcio python3-protobuf)
# The web app's browser tests (tests/browser/) drive Debian's Chromium headless
# through playwright-core, which set-up installs from web/package-lock.json
# with `npm ci` (below): Playwright's own browser downloads are not used.
web_packages=(chromium)
# The Helm chart's check (tests/helm/): Go renders the templates with sprig and
# sigs.k8s.io/yaml, both from Debian's Go sources (GOPATH mode, nothing downloaded).
helm_packages=(golang-go golang-github-masterminds-sprig-dev golang-k8s-sigs-yaml-dev)
# Small tools the scripts use (ss to find free ports, runuser to run PostgreSQL,
# faketime for the fault test of matchmaker clocks that disagree).
tool_packages=(git iproute2 util-linux faketime)
# The observability check (tests/observability): promtool, and YAML for Python.
observability_packages=(prometheus python3-yaml)

# The Python module (python/, METROPOLIS_BUILD_PYTHON): pybind11's headers and CMake
# package, Python's headers for Debian's /usr/bin/python3, and numpy, which the
# module's arrays and the environments use.
python_packages=(pybind11-dev python3-dev python3-numpy)

packages=("${engine_packages[@]}" "${service_packages[@]}" "${bot_packages[@]}" "${web_packages[@]}" "${tool_packages[@]}"
  "${observability_packages[@]}" "${python_packages[@]}")
# The Node.js example bot and the web tests need Node.js 20 or later; Debian's own
# nodejs is used only when no node is installed at all.
command -v node >/dev/null 2>&1 || packages+=(nodejs npm)
packages+=("${helm_packages[@]}")

installed() {
  [[ $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) == installed ]]
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done

install_packages() {
  if [[ ${#missing[@]} -eq 0 ]]; then
    echo "setup: all ${#packages[@]} packages are installed"
    return 0
  fi
  local as_root
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "setup: missing packages (${missing[*]}) and not root, and sudo is not available" >&2
    exit 1
  fi
  local apt_get=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
  echo "setup: installing ${#missing[@]} missing packages: ${missing[*]}"
  echo "setup: apt-get update"
  "${apt_get[@]}" update -qq
  echo "setup: apt-get install"
  "${apt_get[@]}" install -y -qq "${missing[@]}"
}
install_packages

# The npm packages of the web app, the Node.js bot, the Helm check and the ratings
# reference, each from its committed lockfile; the tests only check they are there.
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/npm.sh
source "$root/scripts/lib/npm.sh"
for dir in $(npm_folders); do
  npm_install "$root" "$dir" || { echo "setup: npm ci in $dir failed (is the npm registry reachable?)" >&2; exit 1; }
done
echo "setup: done"
