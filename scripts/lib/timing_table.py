#!/usr/bin/env python3
"""Prints the test command's time per ctest label, from the JUnit file ctest wrote
(--output-junit) and the labels ctest reports (--show-only=json-v1): the owner of
the test budget reads where the minutes go.

    timing_table.py --junit FILE --tests-json FILE
"""
import argparse
import json
import sys
import xml.etree.ElementTree as ET


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--junit", required=True, help="ctest's --output-junit file")
    parser.add_argument("--tests-json", required=True, help="ctest --show-only=json-v1 output")
    args = parser.parse_args()
    try:
        with open(args.tests_json) as f:
            listing = json.load(f)
        root = ET.parse(args.junit).getroot()
    except (OSError, ValueError, ET.ParseError) as e:
        print(f"timing_table: {e}", file=sys.stderr)
        return 2
    labels = {}
    for test in listing.get("tests", []):
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                labels[test["name"]] = prop.get("value", [])
    rows = {}  # label -> [tests, seconds, failed]
    total = 0.0
    for case in root.iter("testcase"):
        name, seconds = case.get("name"), float(case.get("time", 0))
        failed = case.find("failure") is not None or case.get("status") == "fail"
        total += seconds
        for label in labels.get(name) or ["(no label)"]:
            row = rows.setdefault(label, [0, 0.0, 0])
            row[0] += 1
            row[1] += seconds
            row[2] += int(failed)
    print("| label | tests | failed | test time | share |")
    print("|---|---:|---:|---:|---:|")
    for label, (n, seconds, failed) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
        share = 100 * seconds / total if total else 0
        print(f"| {label} | {n} | {failed} | {seconds / 60:.1f} min | {share:.0f} % |")
    print(f"\nTest time summed over tests (tests of several labels count in each): {total / 60:.1f} min.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
