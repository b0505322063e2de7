#!/usr/bin/env python3
"""Why each failed test failed, in a few lines per test, from ctest's JUnit file.

ctest prints a failing test's whole output where the test ran, often thousands of
lines above the end of a long run, and a log that keeps only its head and tail loses
it. This digest goes last: for each failed test, its name, time, and the lines of
its output that say what went wrong (a test's own "FAILED:" and "VIOLATION" lines,
GoogleTest's failures), or its last lines when none does.

  scripts/lib/failure_digest.py --junit build/check/ctest-junit.xml [--lines N]
  scripts/lib/failure_digest.py --self-test    # a made-up JUnit file, checked (ctest, label lint)
"""

import argparse
import io
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout

# What a failing test of this project says when it fails: the stack tests'
# "NAME: FAILED: ...", the checker's "VIOLATION ...", GoogleTest's "Failure" and
# "[  FAILED  ]", its "Expected ..." / "Which is: ..." and a timeout.
REASON = re.compile(r"FAILED|VIOLATION|Failure|Expected|Which is|Value of|Timeout|timed out|Assertion|Error:|error:")


def digest(output, lines):
    text = [line.rstrip() for line in (output or "").splitlines() if line.strip()]
    reasons = [line for line in text if REASON.search(line)]
    chosen = reasons[-lines:] if reasons else text[-lines:]
    return [line if len(line) <= 240 else line[:237] + "..." for line in chosen]


def report(junit, lines):
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"failure_digest: cannot read {junit}: {e}", file=sys.stderr)
        return 2
    failed = [tc for tc in root.iter("testcase") if tc.get("status") == "fail" or tc.find("failure") is not None]
    if not failed:
        print("no test failed")
        return 0
    print(f"{len(failed)} failed test{'s' if len(failed) != 1 else ''}:")
    for tc in failed:
        out = tc.find("system-out")
        print(f"\n--- {tc.get('name')} ({float(tc.get('time') or 0):.1f} s)")
        for line in digest(out.text if out is not None else "", lines):
            print(f"    {line}")
    return 0


def self_test():
    """A passing test, a stack test that says why it failed among other lines, and a
    test that failed without saying: each appears as the digest promises."""
    junit = """<testsuite>
  <testcase name="passes" status="run"><system-out>all good\nFAILED: only a word in a passing test</system-out></testcase>
  <testcase name="stack_fault" status="fail" time="61.5"><failure message="Failed"/><system-out>starting
services: up
stack_test: FAILED: the game host wrote no checkpoint
tail line</system-out></testcase>
  <testcase name="silent" status="fail" time="1"><system-out>one\ntwo\nthree</system-out></testcase>
</testsuite>"""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "junit.xml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(junit)
        out = io.StringIO()
        with redirect_stdout(out):
            status = report(path, 2)
    text = out.getvalue()
    checks = [
        ("exit status 0", status == 0),
        ("two failed tests counted", text.startswith("2 failed tests:")),
        ("the passing test left out", "passes" not in text),
        ("the stack test's reason shown", "--- stack_fault (61.5 s)\n    stack_test: FAILED: the game host" in text),
        ("its other lines left out", "tail line" not in text and "services: up" not in text),
        ("a silent test's last lines instead", "--- silent (1.0 s)\n    two\n    three" in text),
    ]
    bad = [name for name, ok in checks if not ok]
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        unreadable = report(os.path.join(tempfile.gettempdir(), "no-such-folder-x", "junit.xml"), 2)
    if unreadable != 2:
        bad.append("an unreadable file gives exit status 2")
    for name in bad:
        print(f"failure_digest self-test: FAILED: {name}\n{text}")
    if not bad:
        print(f"failure_digest self-test: {len(checks) + 1} checks passed")
    return 1 if bad else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--junit", help="ctest --output-junit FILE")
    parser.add_argument("--lines", type=int, default=8, help="lines per failed test (default 8)")
    parser.add_argument("--self-test", action="store_true", help="check the digest on a made-up JUnit file")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.junit:
        parser.error("--junit FILE is required")
    return report(args.junit, args.lines)


if __name__ == "__main__":
    sys.exit(main())
