#!/usr/bin/env bash
# Generates the Python stubs of the Metropolis API (package metropolis.v1) into OUTDIR
# (default: botkits/python/gen, which git ignores). Run it from anywhere:
#
#   botkits/python/generate.sh [OUTDIR]
#
# Needs protoc and grpc_python_plugin (Debian: protobuf-compiler, protobuf-compiler-grpc).
# The stubs import each other as `metropolis.v1.*`, so OUTDIR is what goes on sys.path
# (random_bot.py --stubs OUTDIR, or METROPOLIS_PY_STUBS=OUTDIR). The SDK (metropolis_bot/)
# also reads OUTDIR/protocol.json, a copy of docs/protocol.json, for the protocol's names.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/gen}
mkdir -p "$out"
out=$(cd "$out" && pwd)  # absolute: protoc runs from the repository root

for tool in protoc grpc_python_plugin; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "generate.sh: $tool not found (Debian: apt-get install protobuf-compiler protobuf-compiler-grpc)" >&2
    exit 1
  fi
done

cd "$root"
protoc -I proto --python_out="$out" --grpc_out="$out" \
  --plugin=protoc-gen-grpc="$(command -v grpc_python_plugin)" \
  metropolis/v1/game.proto metropolis/v1/gamehost.proto metropolis/v1/matchmaker.proto \
  metropolis/v1/tournaments.proto
cp docs/protocol.json "$out/protocol.json"
echo "generate.sh: stubs in $out/metropolis/v1"
