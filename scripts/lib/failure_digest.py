#!/usr/bin/env python3
"""Why each failed test failed, in a few lines per test, from ctest's JUnit file.

ctest prints a failing test's whole output where the test ran, often thousands of
lines above the end of a long run, and a log that keeps only its head and tail loses
it. This digest goes last: for each failed test, its name, time, and the lines of
its output that say what went wrong (a test's own "FAILED:" and "VIOLATION" lines,
GoogleTest's failures), or its last lines when none does.

  scripts/lib/failure_digest.py --junit build/check/ctest-junit.xml [--lines N]
"""

import argparse
import re
import sys
import xml.etree.ElementTree as ET

# What a failing test of this project says when it fails: the stack tests'
# "NAME: FAILED: ...", the checker's "VIOLATION ...", GoogleTest's "Failure" and
# "[  FAILED  ]", its "Expected ..." / "Which is: ..." and a timeout.
REASON = re.compile(r"FAILED|VIOLATION|Failure|Expected|Which is|Value of|Timeout|timed out|Assertion|Error:|error:")


def digest(output, lines):
    text = [line.rstrip() for line in (output or "").splitlines() if line.strip()]
    reasons = [line for line in text if REASON.search(line)]
    chosen = reasons[-lines:] if reasons else text[-lines:]
    return [line if len(line) <= 240 else line[:237] + "..." for line in chosen]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--junit", required=True, help="ctest --output-junit FILE")
    parser.add_argument("--lines", type=int, default=8, help="lines per failed test (default 8)")
    args = parser.parse_args()
    try:
        root = ET.parse(args.junit).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"failure_digest: cannot read {args.junit}: {e}", file=sys.stderr)
        return 2
    failed = [tc for tc in root.iter("testcase") if tc.get("status") == "fail" or tc.find("failure") is not None]
    if not failed:
        print("no test failed")
        return 0
    print(f"{len(failed)} failed test{'s' if len(failed) != 1 else ''}:")
    for tc in failed:
        out = tc.find("system-out")
        print(f"\n--- {tc.get('name')} ({float(tc.get('time') or 0):.1f} s)")
        for line in digest(out.text if out is not None else "", args.lines):
            print(f"    {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
