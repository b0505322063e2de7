#!/usr/bin/env python3
"""Checks that everything the tree cites from the rulebook is defined in docs/RULES.md (label lint).

What docs/RULES.md defines (its section 0.3 states the convention):

  - rule ids (KN-7, SEA-12), card ids (C-S1) and discrepancies (D01): where the id
    opens a bold span (**KN-7 ...**) outside code; engine decisions (E01): where the
    number fills the first cell of a table row (or opens a bold span); every other
    occurrence is a reference;
  - sections: the numbers of its headings (20, 23.17);
  - options: the first cells of the rows of its option tables (a table whose header
    starts with "| Option |"), with the values written in backticks in the rows' Default
    and Alternatives cells; an option's default is the first value of the Default cell
    of its first row.

What is checked:

  1. every citation in the tree's code, tests and docs: rule and card ids, engine
     decisions and discrepancies (E7 and E07 alike), "RULES.md <section>", and options
     written as name=value: an unknown name with an enum-like value (SOME_MODE), or an
     enum option with an upper-case value the rulebook does not list (a test that
     feeds the parser a wrong value on purpose marks its line with IGNORE_MARK);
     and the ids that C++ test names open with, in camel case (TEST(KnightsTest,
     Kn7MovesAlongOwnRoads) cites KN-7, Cs2... C-S2), for every family of ids the
     rulebook defines;
  2. the engine's options: every option of the parser's table (engine/config.cc) is in
     the catalogue, with each of its enum values, and its default in RulesOptions
     (engine/config.h) is the catalogue's default;
  3. every field of the API's RulesOptions message (proto/metropolis/v1/game.proto) is
     an option of the catalogue;
  4. the rulebook itself: nothing is defined twice, every id it cites is defined in it.

In a git work tree the files git tracks or would add are read (what .gitignore leaves
out, build trees, web/dist, generated stubs, is not); elsewhere the tree is walked
without its build folders. Files that cannot cite the rulebook are skipped (lockfiles,
binaries), and so are a few families of ids that are not rules (NOT_RULE_FAMILIES).

  tests/lint/rulebook.py [--root REPO_ROOT]   # check the tree
  tests/lint/rulebook.py --self-test          # the check itself, on trees with planted faults
"""

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

RULEBOOK = "docs/RULES.md"
CONFIG_H = "engine/config.h"
CONFIG_CC = "engine/config.cc"
PROTO = "proto/metropolis/v1/game.proto"

# Upper-case words followed by a number that are not rule ids, and where they occur.
NOT_RULE_FAMILIES = {
    "SHA": "hash names (SHA-256)",
    "UTF": "text encodings (UTF-8)",
    "IEEE": "floating point (IEEE-754)",
    "ISO": "standards (ISO-8601)",
    "RFC": "standards (RFC-3339)",
    "BSD": "licence names",
    "BSL": "licence names",
    "CVE": "vulnerability ids (CVE-2024-1234)",
    "TLS": "protocol versions (TLS-1.3)",
    "HTTP": "protocol versions (HTTP-2)",
    "AES": "ciphers (AES-256)",
    "RSA": "key sizes (RSA-2048)",
}

# Folders never scanned: version control, build output, installed packages.
SKIP_DIRS = {".git", "node_modules", "__pycache__", ".cache"}
SKIP_TOP_DIRS_PREFIX = ("build",)
SKIP_FILES = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml"}
MAX_FILE_BYTES = 4 << 20
# A line carrying this text is not checked for option values (tests of refusals).
IGNORE_MARK = "rulebook-lint: not a rules value"

RULE_ID = re.compile(r"\b([A-Z]{2,4})-([0-9]+)\b")
CARD_ID = re.compile(r"\bC-[STP][0-9]+\b")
DECISION = re.compile(r"\b([ED])([0-9]{1,2})\b")
SECTION_CITE = re.compile(
    r"RULES\.md\]?(?:\([^)\s]*\))?,?\s+(?:[Ss]ections?\s+)?([0-9]+(?:\.[0-9]+)?)"
    r"(?:\s*(?:–|-|to|and)\s*([0-9]+(?:\.[0-9]+)?))?")
OPTION_USE = re.compile(r"(?<![\w.-])([a-z][a-z0-9_]*)=([A-Za-z0-9_,]+)")
ENUM_LIKE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
VALUE_LIKE = re.compile(r"^[A-Za-z0-9_,]+$")


class Rulebook:
    """What docs/RULES.md defines."""

    def __init__(self, text):
        self.text = text
        self.ids = {}  # id -> line of its definition
        self.duplicates = []  # (id, line)
        self.sections = set()
        self.options = {}  # name -> {"default": str or None, "values": set, "line": int}
        self.cited = []  # (id, line): ids cited inside the rulebook
        self._parse()

    def _define(self, ident, line):
        if ident in self.ids:
            self.duplicates.append((ident, line))
        else:
            self.ids[ident] = line

    def _parse(self):
        in_options = False
        in_code = False
        for n, line in enumerate(self.text.splitlines(), 1):
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            heading = re.match(r"^#{1,6}\s+([0-9]+(?:\.[0-9]+)*)\.?\s", line)
            if heading:
                self.sections.add(heading.group(1))
            prose = re.sub(r"`[^`]*`", "", line)  # an id in a code span is an example
            for m in re.finditer(r"\*\*((?:[A-Z]{2,4}-[0-9]+)|(?:C-[STP][0-9]+)|(?:[ED][0-9]{2}))\b", prose):
                self._define(m.group(1), n)
            cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
            if cells:
                first = cells[0]
                if re.fullmatch(r"E[0-9]{2}", first):
                    self._define(first, n)
                if first == "Option":
                    in_options = True
                elif in_options and re.fullmatch(r"`[a-z][a-z0-9_]*`", first) and len(cells) >= 3:
                    self._option_row(first.strip("`"), cells[1], cells[2], n)
            else:
                in_options = False
            for ident in cited_ids(line):
                self.cited.append((ident, n))

    def _option_row(self, name, default_cell, alternatives_cell, line):
        def values(cell):
            return [v for v in re.findall(r"`([^`]+)`", cell) if VALUE_LIKE.match(v)]

        defaults = values(default_cell)
        opt = self.options.setdefault(name, {"default": None, "values": set(), "line": line})
        if opt["default"] is None and defaults:
            opt["default"] = defaults[0]
        opt["values"].update(defaults)
        opt["values"].update(values(alternatives_cell))

    def option_accepts(self, name, value):
        """False only for an upper-case value of an enum option that the rulebook does not list."""
        values = self.options[name]["values"]
        enum_values = {v for v in values if re.fullmatch(r"[A-Z][A-Z0-9_]*", v)}
        if not enum_values or not re.fullmatch(r"[A-Z][A-Z0-9_]*", value):
            return True
        return value in values


def normalise_decision(letter, number):
    return "%s%02d" % (letter, int(number))


def cited_ids(line):
    """The rule ids, card ids, engine decisions and discrepancies a line cites."""
    found = []
    for m in RULE_ID.finditer(line):
        if m.group(1) not in NOT_RULE_FAMILIES:
            found.append(m.group(0))
    found += CARD_ID.findall(line)
    for m in DECISION.finditer(line):
        found.append(normalise_decision(m.group(1), m.group(2)))
    return found


TEST_NAME = re.compile(r"\bTEST(?:_F|_P)?\(\s*\w+\s*,\s*(\w+)\s*\)")


def test_name_families(book):
    """Camel-case prefix of each family of ids the rulebook defines: Kn -> KN-, Cs -> C-S."""
    families = {}
    for ident in book.ids:
        m = re.fullmatch(r"([A-Z]{2,4}-|C-[STP])[0-9]+", ident)
        if m:
            prefix = m.group(1)
            letters = prefix.replace("-", "")
            families[letters[0] + letters[1:].lower()] = prefix
    return families


def test_name_ids(line, families):
    """The ids C++ test names on this line open with: TEST(X, Trd3OffersArePublic) cites TRD-3."""
    if not families:
        return []
    opening = re.compile(r"(%s)([0-9]+)(?=[A-Z_]|$)" % "|".join(sorted(families, key=len, reverse=True)))
    found = []
    for m in TEST_NAME.finditer(line):
        id_m = opening.match(m.group(1))
        if id_m:
            found.append(families[id_m.group(1)] + id_m.group(2))
    return found


def git_files(root):
    """The files of the repository at root that git tracks or would add (ignored files
    such as web/dist or generated stubs left out), or None when root is no git work tree."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                             check=True).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(root):
            return None  # a tree inside some other repository (the self-test's): walk it
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sorted(set(f.decode("utf-8", errors="replace") for f in out.split(b"\0") if f))


def walked_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in SKIP_DIRS and not (rel_dir == "." and d.startswith(SKIP_TOP_DIRS_PREFIX)))
        for f in sorted(filenames):
            yield os.path.relpath(os.path.join(dirpath, f), root)


def scanned_files(root):
    listed = git_files(root)
    for rel in listed if listed is not None else walked_files(root):
        if os.path.basename(rel) in SKIP_FILES or set(rel.split("/")) & SKIP_DIRS:
            continue
        path = os.path.join(root, rel)
        if rel == RULEBOOK or os.path.abspath(path) == os.path.abspath(__file__):
            continue
        try:
            if not os.path.isfile(path) or os.path.getsize(path) > MAX_FILE_BYTES:
                continue
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        if b"\0" in data[:8192]:
            continue
        yield rel, data.decode("utf-8", errors="replace")


def check_citations(root, book, errors):
    families = test_name_families(book)
    for rel, text in scanned_files(root):
        cpp = rel.endswith((".cc", ".h", ".cpp"))
        for n, line in enumerate(text.splitlines(), 1):
            where = "%s:%d" % (rel, n)
            for ident in cited_ids(line):
                if ident not in book.ids:
                    errors.append("%s: cites %s, which %s does not define" % (where, ident, RULEBOOK))
            for ident in test_name_ids(line, families) if cpp else []:
                if ident not in book.ids:
                    errors.append("%s: the test's name cites %s, which %s does not define" % (where, ident, RULEBOOK))
            for m in SECTION_CITE.finditer(line):
                for sec in m.groups():
                    if sec and sec not in book.sections:
                        errors.append("%s: cites RULES.md section %s, which %s does not have" % (where, sec, RULEBOOK))
            for m in OPTION_USE.finditer(line) if IGNORE_MARK not in line else []:
                name, value = m.group(1), m.group(2)
                if name in book.options:
                    if not book.option_accepts(name, value):
                        errors.append("%s: %s=%s: %s lists no value %s for option %s" %
                                      (where, name, value, RULEBOOK, value, name))
                elif ENUM_LIKE.match(value):
                    errors.append("%s: %s=%s: %s defines no option %s" % (where, name, value, RULEBOOK, name))


def read(root, rel):
    path = os.path.join(root, rel)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def parser_options(config_cc):
    """The options of the parser's table: name -> (kind, [enum values])."""
    table = re.search(r"kOptions\[\]\s*=\s*\{(.*?)\n\};", config_cc, re.S)
    if not table:
        return None
    options = {}
    for m in re.finditer(r"METROPOLIS_OPTION\(\s*(\w+)\s*,\s*k(\w+)\s*(?:,\s*\{([^}]*)\})?", table.group(1)):
        options[m.group(1)] = (m.group(2), re.findall(r'"([^"]*)"', m.group(3) or ""))
    for m in re.finditer(r'OptionSpec\{\s*"(\w+)"\s*,\s*Kind::k(\w+)', table.group(1)):
        options[m.group(1)] = (m.group(2), [])
    return options


def struct_defaults(config_h, options):
    """RulesOptions' default of each option, written as the option's text value."""
    enums = {}
    for m in re.finditer(r"enum class (\w+)\s*:\s*\w+\s*\{([^}]*)\}", config_h):
        members = {}
        for e in re.finditer(r"(k\w+)\s*=\s*([0-9]+)", m.group(2)):
            members[e.group(1)] = int(e.group(2))
        enums[m.group(1)] = members
    body = re.search(r"struct RulesOptions\s*\{(.*?)\n\};", config_h, re.S)
    defaults = {}
    if not body:
        return defaults
    for m in re.finditer(r"^\s*[\w:<>, ]+?\s+(\w+)\s*=\s*([^;]+);", body.group(1), re.M):
        name, value = m.group(1), m.group(2).strip()
        enum = re.fullmatch(r"(\w+)::(k\w+)", value)
        if enum:
            index = enums.get(enum.group(1), {}).get(enum.group(2))
            names = options.get(name, (None, []))[1]
            defaults[name] = names[index] if index is not None and index < len(names) else value
        elif value.startswith("{"):
            defaults[name] = ",".join(v.strip() for v in value.strip("{}").split(","))
        else:
            defaults[name] = value
    return defaults


def check_engine_options(root, book, errors):
    config_cc, config_h = read(root, CONFIG_CC), read(root, CONFIG_H)
    if config_cc is None or config_h is None:
        errors.append("%s or %s is missing" % (CONFIG_CC, CONFIG_H))
        return
    options = parser_options(config_cc)
    if not options:
        errors.append("%s: the options table (kOptions) was not found" % CONFIG_CC)
        return
    defaults = struct_defaults(config_h, options)
    for name, (kind, values) in options.items():
        if name not in book.options:
            errors.append("%s: option %s is not in the catalogue of %s (section 20 or 23.17)" %
                          (CONFIG_CC, name, RULEBOOK))
            continue
        listed = book.options[name]
        for v in values:
            if v not in listed["values"]:
                errors.append("%s: option %s has the value %s, which %s does not list" %
                              (CONFIG_CC, name, v, RULEBOOK))
        if name not in defaults:
            errors.append("%s: no default for option %s in RulesOptions" % (CONFIG_H, name))
        elif listed["default"] != defaults[name]:
            errors.append("%s: option %s defaults to %s, but %s says %s" %
                          (CONFIG_H, name, defaults[name], RULEBOOK, listed["default"]))


def check_proto(root, book, errors):
    proto = read(root, PROTO)
    if proto is None:
        return  # the API is optional for this check: an engine-only tree has none
    body = re.search(r"message RulesOptions\s*\{(.*?)\n\}", proto, re.S)
    if not body:
        errors.append("%s: message RulesOptions not found" % PROTO)
        return
    for m in re.finditer(r"^\s*(?:optional\s+|repeated\s+)?[\w.]+\s+(\w+)\s*=\s*[0-9]+", body.group(1), re.M):
        if m.group(1) not in book.options:
            errors.append("%s: RulesOptions.%s is not an option of %s" % (PROTO, m.group(1), RULEBOOK))


def run(root, out=sys.stdout):
    text = read(root, RULEBOOK)
    if text is None:
        print("FAIL: %s is missing" % RULEBOOK, file=out)
        return 1
    book = Rulebook(text)
    errors = []
    for ident, line in book.duplicates:
        errors.append("%s:%d: %s is defined twice (first at line %d)" % (RULEBOOK, line, ident, book.ids[ident]))
    for ident, line in book.cited:
        if ident not in book.ids:
            errors.append("%s:%d: cites %s, which it does not define" % (RULEBOOK, line, ident))
    check_citations(root, book, errors)
    check_engine_options(root, book, errors)
    check_proto(root, book, errors)
    for e in errors:
        print("FAIL: " + e, file=out)
    print("rulebook: %d ids, %d sections, %d options defined; %d problems" %
          (len(book.ids), len(book.sections), len(book.options), len(errors)), file=out)
    return 1 if errors else 0


# --- self-test ---------------------------------------------------------------------

SMALL_RULEBOOK = """# Rules
## 0. Conventions
## 8. Knights
- **KN-7 Move**: a knight moves (E01).
- **KN-8 Displace**: see KN-7.
**C-S1 Alchemist ×2**
## 20. Options
| Option | Default | Alternatives (source) | Settles |
|---|---|---|---|
| `saboteur` | `HALF_HAND_VP_GE` | `SABOTAGE_CITY` | D01 |
| `fiesepeter` | `false` | `true` | — |
| `victory_points` | `13` | any | — |

## 21. Decisions
| Id | Decision | Reason |
|---|---|---|
| E01 | a decision | a reason |

## Discrepancies
- **D01 Saboteur.** Default: `saboteur=HALF_HAND_VP_GE`.
"""

SMALL_CONFIG_H = """enum class Saboteur : uint8_t { kHalfHandVpGe = 0, kSabotageCity = 1 };
struct RulesOptions {
  Saboteur saboteur = Saboteur::kHalfHandVpGe;  // D01
  bool fiesepeter = false;
  uint8_t victory_points = 13;
};
"""

SMALL_CONFIG_CC = """constexpr OptionSpec kOptions[] = {
    METROPOLIS_OPTION(saboteur, kEnum, {"HALF_HAND_VP_GE", "SABOTAGE_CITY"}),
    METROPOLIS_OPTION(fiesepeter, kBool),
    METROPOLIS_OPTION(victory_points, kInt, {}, 1, 255),
};
"""

SMALL_PROTO = """message RulesOptions {
  optional uint32 saboteur = 1;
  optional bool fiesepeter = 2;
}
"""

SMALL_CODE = """// KN-7: a move (RULES.md section 8, E01, D01, C-S1).
const char* kOpts = "saboteur=SABOTAGE_CITY fiesepeter=true victory_points=10";
"""

SMALL_TREE = {
    RULEBOOK: SMALL_RULEBOOK,
    CONFIG_H: SMALL_CONFIG_H,
    CONFIG_CC: SMALL_CONFIG_CC,
    PROTO: SMALL_PROTO,
    "engine/rules.cc": SMALL_CODE,
}

# (name, files to add or replace, text the failure must contain). Ids are assembled so
# that this file itself cites nothing.
PLANTED = [
    ("an undefined rule id in code", {"engine/x.cc": "// " + "KN" + "-99 breaks\n"}, "cites KN" + "-99"),
    ("an undefined rule id in docs", {"docs/ENGINE.md": "See " + "TRX" + "-1.\n"}, "cites TRX" + "-1"),
    ("an undefined card", {"engine/x.cc": "// " + "C-S" + "11\n"}, "cites C-S" + "11"),
    ("an undefined engine decision", {"tests/x_test.cc": "// (" + "E" + "7" + ")\n"}, "cites E" + "07"),
    ("an undefined discrepancy", {"docs/CLI.md": "(" + "D" + "44)\n"}, "cites D" + "44"),
    ("an undefined rule id opening a test's name",
     {"tests/x_test.cc": "TEST(KnightsTest, " + "Kn" + "9" + "9MovesFar) {}\n"}, "test's name cites KN" + "-99"),
    ("an undefined card opening a test's name",
     {"tests/x_test.cc": "TEST_F(CardsTest, " + "Cs" + "4" + "2_Draws) {}\n"}, "test's name cites C-S" + "42"),
    ("defined ids opening test names", {"tests/x_test.cc": "TEST(KnightsTest, Kn7Moves) {}\n"
                                                           "TEST(CardsTest, Cs1) {}\n"
                                                           "TEST(KnightsTest, Kn7) {}  // Kn8 in prose is no name\n"
                                                           "TEST(KnightsTest, Knights9Ways) {}\n"}, None),
    ("an undefined section", {"docs/CLI.md": "RULES.md section " + "31\n"}, "section 31"),
    ("an undefined section, linked", {"README.md": "[RULES.md](docs/RULES.md) " + "9.9\n"}, "section 9.9"),
    ("an undefined option", {"tests/x_test.cc": '"' + "harbor_mode" + "=" + "TWO_FOR_ONE" + '"\n'},
     "defines no option harbor_mode"),
    ("an option value the rulebook does not list", {"tests/x_test.cc": '"saboteur=' + "SABOTAGE_TOWN" + '"\n'},
     "lists no value SABOTAGE_TOWN"),
    ("a wrong value marked as a test of refusal", {"tests/x_test.cc": '"saboteur=' + "SABOTAGE_TOWN" + '"  // ' +
                                                   IGNORE_MARK + "\n"}, None),
    ("a parser option missing from the catalogue",
     {CONFIG_CC: SMALL_CONFIG_CC.replace("};", '    METROPOLIS_OPTION(' + 'crane_limit' + ', kBool),\n};')},
     "option crane_limit is not in the catalogue"),
    ("a parser enum value missing from the catalogue",
     {CONFIG_CC: SMALL_CONFIG_CC.replace('"SABOTAGE_CITY"}', '"SABOTAGE_CITY", "' + 'HALF_HAND_VP_GT' + '"}')},
     "value HALF_HAND_VP_GT"),
    ("a default that differs", {CONFIG_H: SMALL_CONFIG_H.replace("victory_points = 13", "victory_points = 12")},
     "defaults to 12, but"),
    ("an enum default that differs",
     {CONFIG_H: SMALL_CONFIG_H.replace("Saboteur::kHalfHandVpGe;", "Saboteur::kSabotageCity;")},
     "saboteur defaults to SABOTAGE_CITY"),
    ("a proto field that is no option",
     {PROTO: SMALL_PROTO.replace("}", "  optional uint32 " + "crane_limit" + " = 3;\n}")},
     "RulesOptions.crane_limit"),
    ("an id defined twice", {RULEBOOK: SMALL_RULEBOOK + "- **KN-8 Again**\n"}, "defined twice"),
    ("an engine decision defined twice", {RULEBOOK: SMALL_RULEBOOK + "| E01 | again | why |\n"}, "defined twice"),
    ("an id in a code span is no definition", {RULEBOOK: SMALL_RULEBOOK.replace("**C-S1 Alchemist ×2**",
                                                                             "`**C-S1 Alchemist**`")},
     "does not define"),
    ("the rulebook citing an id it lacks", {RULEBOOK: SMALL_RULEBOOK + "See " + "KN" + "-12.\n"},
     "it does not define"),
    ("a missing rulebook", {RULEBOOK: None}, "is missing"),
]


def write_tree(tmp, files):
    for path, text in files.items():
        if text is None:
            continue
        full = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(text)


def real_tree():
    """The project's own rulebook, options and API, if this file sits in the project."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    files = {}
    for rel in (RULEBOOK, CONFIG_H, CONFIG_CC, PROTO):
        text = read(here, rel)
        if text is None:
            return None
        files[rel] = text
    return files


def self_test():
    cases = [("a clean small tree", SMALL_TREE, {}, None)]
    cases += [(name, SMALL_TREE, files, expect) for name, files, expect in PLANTED]
    real = real_tree()
    if real is not None:
        # The real rulebook and engine: clean, then with one planted id each kind.
        cases.append(("the project's rulebook and options", real, {}, None))
        cases.append(("the project's rulebook, an undefined rule id planted", real,
                      {"engine/planted.cc": "// " + "KN" + "-14\n"}, "cites KN" + "-14"))
        cases.append(("the project's rulebook, an undefined engine decision planted", real,
                      {"docs/PLANTED.md": "(" + "E" + "37)\n"}, "cites E" + "37"))
        cases.append(("the project's rulebook, an undefined rule id in a test's name planted", real,
                      {"engine/tests/planted_test.cc": "TEST(SeafarersTest, " + "Sea" + "99" + "ShipsSail) {}\n"},
                      "test's name cites SEA" + "-99"))
        cases.append(("the project's rulebook, an undefined option planted", real,
                      {"tests/planted_test.cc": '"' + "pirate_mode" + "=" + "ALWAYS_ON" + '"\n'},
                      "defines no option pirate_mode"))
    cases = [(name, base, files, expect, False) for name, base, files, expect in cases]
    if shutil.which("git"):
        # In a git work tree only what git tracks or would add is read: an ignored build
        # output citing nonsense passes, a new file not yet added is still checked.
        ignored = {".gitignore": "/dist/\n", "dist/bundle.js": "var a=" + "KN" + "-99;\n"}
        cases.append(("a git tree: an ignored file is not read", SMALL_TREE, ignored, None, True))
        cases.append(("a git tree: a file not yet added is read", SMALL_TREE,
                      {**ignored, "engine/new.cc": "// " + "KN" + "-98\n"}, "cites KN" + "-98", True))
    else:
        print("skipped: the git-tree cases (no git on this machine)")
    failures = 0
    for name, base, files, expect, git in cases:
        tmp = tempfile.mkdtemp(prefix="rulebook-self-test-")
        try:
            write_tree(tmp, {**base, **files})
            if git:
                subprocess.run(["git", "-C", tmp, "init", "-q"], check=True)
            out = io.StringIO()
            status = run(tmp, out)
            text = out.getvalue()
            ok = (status == 0) if expect is None else (status == 1 and expect in text)
            print("%s: %s" % ("ok  " if ok else "FAIL", name))
            if not ok:
                failures += 1
                print("    expected %s; the check printed:\n%s" % ("a pass" if expect is None else repr(expect), text))
        finally:
            shutil.rmtree(tmp)
    print("rulebook self-test: %d of %d cases failed" % (failures, len(cases)))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."),
                        help="the repository (default: this file's)")
    parser.add_argument("--self-test", action="store_true", help="check the check on trees with planted faults")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    return run(os.path.abspath(args.root))


if __name__ == "__main__":
    sys.exit(main())
