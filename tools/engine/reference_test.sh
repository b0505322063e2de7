#!/usr/bin/env bash
# The protocol reference: docs/PROTOCOL.md and docs/protocol.json are what
# `metropolis-engine reference` prints now, and the EventType enum of
# proto/metropolis/v1/game.proto names every event with the engine's number. On a
# difference it prints the first differing lines and how to regenerate.
#
#   tools/engine/reference_test.sh path/to/metropolis-engine path/to/repo
set -euo pipefail

bin=${1:?usage: reference_test.sh path/to/metropolis-engine path/to/repo}
root=${2:?usage: reference_test.sh path/to/metropolis-engine path/to/repo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

check() {
  local flag=$1 file=$2
  "$bin" reference "$flag" >"$tmp/out"
  if [[ ! -f $root/$file ]]; then
    echo "FAIL: $file is missing" >&2
    failures=$((failures + 1))
  elif ! cmp -s "$root/$file" "$tmp/out"; then
    echo "FAIL: $file differs from 'metropolis-engine reference $flag' (first differences, - committed, + now):" >&2
    diff -u "$root/$file" "$tmp/out" | sed -n '3,40p' | grep '^[-+]' | head -n 12 | cut -c1-200 >&2 || true
    failures=$((failures + 1))
  fi
}
check --markdown docs/PROTOCOL.md
check --json docs/protocol.json

# The proto's event enum against the engine's: same names, same numbers.
"$bin" reference --json >"$tmp/protocol.json"
if ! python3 - "$tmp/protocol.json" "$root/proto/metropolis/v1/game.proto" <<'PY'; then
import json, re, sys
engine = {e["proto"]: e["type"] for e in json.load(open(sys.argv[1]))["events"]}
proto = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s*(EVENT_\w+)\s*=\s*(\d+);", open(sys.argv[2]).read(), re.M)}
bad = sorted(set(engine.items()) ^ set(proto.items()))
for name, number in bad:
    where = "engine" if engine.get(name) == number else "game.proto"
    print(f"FAIL: {name} = {number} only in {where}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  failures=$((failures + 1))
fi

if [[ $failures != 0 ]]; then
  echo "The protocol reference is out of date. If the engine's actions, pending kinds or events (or" >&2
  echo "engine/protocol_reference.cc) changed on purpose, run scripts/regen-protocol.sh and review the" >&2
  echo "diff of docs/PROTOCOL.md and docs/protocol.json; an EVENT_ mismatch is fixed in game.proto." >&2
  exit 1
fi
echo "protocol reference: docs/PROTOCOL.md and docs/protocol.json match the engine"
