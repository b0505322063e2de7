#!/usr/bin/env python3
"""Every test of the build has a timeout: a test that hangs must fail on its own
clock, not eat CI's whole budget. Reads ctest's own listing of the build
(--show-only=json-v1, discovered gtest cases included) and fails naming each
test without a TIMEOUT property.

    timeouts.py --ctest CTEST --build BUILD_DIR
    timeouts.py --self-test
"""
import argparse
import json
import subprocess
import sys


def untimed(listing):
    """The names of the tests in a ctest json-v1 listing that have no TIMEOUT."""
    missing = []
    for test in listing.get("tests", []):
        props = {p.get("name"): p.get("value") for p in test.get("properties", [])}
        if not props.get("TIMEOUT"):
            missing.append(test.get("name", "?"))
    return missing


def self_test():
    listing = {"tests": [
        {"name": "a", "properties": [{"name": "TIMEOUT", "value": 30}]},
        {"name": "b", "properties": [{"name": "LABELS", "value": ["x"]}]},
        {"name": "c"},
    ]}
    got = untimed(listing)
    if got != ["b", "c"]:
        print(f"timeouts self-test: expected ['b', 'c'] without a timeout, got {got}", file=sys.stderr)
        return 1
    print("timeouts self-test: a test without TIMEOUT is flagged, one with it is not")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ctest", default="ctest")
    parser.add_argument("--build")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.build:
        parser.error("--build is required")
    out = subprocess.run([args.ctest, "--test-dir", args.build, "--show-only=json-v1"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f"timeouts: ctest failed: {out.stderr.strip()}", file=sys.stderr)
        return 2
    listing = json.loads(out.stdout)
    missing = untimed(listing)
    for name in missing:
        print(f"timeouts: test '{name}' has no TIMEOUT", file=sys.stderr)
    print(f"timeouts: {len(listing.get('tests', []))} tests, {len(missing)} without a timeout")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
