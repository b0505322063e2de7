#!/usr/bin/env python3
"""Checks that the tree's folders depend on each other only as DEVELOPERS.md says (label lint).

The layers, each allowed to use those before it:

  engine/            the rules: the C++ standard library and nothing else
  lib/<name>/        what several programs share; each names what it may use (LIB_USES)
  bots/              the built-in players: the engine and the chance streams
  analysis/          finished games' luck accounts and win-probability graphs: the
                     engine and the bots
  proto/             the public API (generated code, included as "metropolis/v1/...")
  services/<name>/   one service: engine, bots, analysis, lib, proto and its own folder, never
                     another service's folder or library, never a tool
  tools/<name>/      programs that are not services: anything above, and other tools
  botkits/           clients that play seats: engine, bots, lib, proto
  python/            the engine, the bots and the environments in Python: engine, bots,
                     lib/chance (nothing uses it but its own tests)

Tests, benchmarks and fuzz targets (tests/, bench/, any */tests/ and engine/fuzz/) may
use anything. Two sources of truth are read:

  - every #include "..." of a project header in the C++ files, and #include <...> of
    PostgreSQL's and Redis's client libraries, which only storage implementations may
    include: lib/storage/, and the PostgreSQL and Redis implementations of the stores,
    named pg_* and redis_* (their pools, from lib/storage, may also be built by a
    service's wiring: main.cc and server.*; a store's interface may include neither);
  - the names of tests that need a database: a test file that includes the PostgreSQL
    or the Redis test fixture (lib/storage/tests/test_database.h, test_redis.h) says so
    in its name, *_pg_test.cc, *_redis_test.cc or *_pg_redis_test.cc, unless it lives in
    a tests/integration/ folder or in lib/storage's own tests; so that a reader (and a
    run without servers) tells the hermetic tests from the others by their names;
  - the link graph, from CMake's file API (the codemodel the build writes), so that a
    dependency added in a CMakeLists.txt without an #include is seen as well;
  - the services' CMakeLists.txt, for how they link lib/storage (which brings libpqxx
    and hiredis): PRIVATE only, so that nothing gets the database clients through a
    service's library; a program or test that builds a pool links it itself. (The
    file API of the CMake we require does not say how a library is linked.)

Known violations that are being removed are listed in KNOWN with the reason; each is
reported as known, a known entry that no longer occurs fails the check (so the list
only shrinks), and anything else fails.

  tests/lint/layering.py --cmake CMAKE [--root REPO_ROOT] [-DOPTION=VALUE ...]
                                        # configures the tree in a scratch folder for its link graph
  tests/lint/layering.py --build BUILD_DIR  # reads a build folder whose file API reply exists
  tests/lint/layering.py --self-test     # the check itself, on small trees with planted violations
"""

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# What each shared library may use, besides the standard library and itself.
LIB_USES = {
    "lib/flags": set(),
    "lib/chance": {"engine"},
    "lib/ranking": set(),
    "lib/stats": set(),
    "lib/common": {"lib/flags", "proto", "engine"},
    "lib/protocol": {"engine", "proto"},
    "lib/storage": {"lib/common"},
    "lib/auth": {"lib/common", "proto"},
}

# Violations being removed: (from, to) components, and why they are still here.
KNOWN = {
}

# Headers of the C++ standard library (and the C headers it includes as <cxxx>).
STD_HEADERS = set("""
algorithm any array atomic barrier bit bitset cassert cctype cerrno cfenv cfloat charconv chrono cinttypes climits
clocale cmath codecvt compare complex concepts condition_variable coroutine csetjmp csignal cstdarg cstddef cstdint
cstdio cstdlib cstring ctime cuchar cwchar cwctype deque exception execution expected filesystem format forward_list
fstream functional future initializer_list iomanip ios iosfwd iostream istream iterator latch limits list locale map
memory memory_resource mutex new numbers numeric optional ostream queue random ranges ratio regex scoped_allocator
semaphore set shared_mutex source_location span sstream stack stdexcept stop_token streambuf string string_view
syncstream system_error thread tuple type_traits typeindex typeinfo unordered_map unordered_set utility valarray
variant vector version
""".split())

PROJECT_ROOTS = ("engine/", "lib/", "bots/", "analysis/", "services/", "tools/", "botkits/", "python/", "bench/", "tests/")
DB_CLIENT_INCLUDE = re.compile(r"^(pqxx|hiredis|libpq-fe\.h|postgresql)")
STORAGE_POOLS = {"lib/storage/pg_pool.h", "lib/storage/redis.h", "lib/storage/migrations.h",
                 "lib/storage/server_storage.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCE_SUFFIXES = (".cc", ".h", ".cpp", ".hpp")


def is_test_path(path):
    return (path.startswith(("tests/", "bench/", "engine/fuzz/")) or "/tests/" in path or
            path.startswith("engine/tests/"))


def component(path):
    """The layer a file or folder (relative to the root) belongs to, or None for tests and others."""
    if is_test_path(path):
        return None
    parts = path.split("/")
    if parts[0] == "engine":
        return "engine"
    if parts[0] == "bots":
        return "bots"
    if parts[0] == "analysis":
        return "analysis"
    if parts[0] == "botkits":
        return "botkits"
    if parts[0] == "python":
        return "python"
    if parts[0] == "proto" or path.startswith("metropolis/v1/"):
        return "proto"
    if parts[0] in ("lib", "services", "tools") and len(parts) >= 2:
        # A file directly in lib/, services/ or tools/ (a CMakeLists.txt) is no component.
        if len(parts) == 2 and "." in parts[1]:
            return None
        return parts[0] + "/" + parts[1]
    return None


def included_component(header):
    if header.startswith("metropolis/v1/"):
        return "proto"
    if header.startswith(PROJECT_ROOTS):
        return component(header) or "tests"
    return None


def lib_closure(lib):
    """What a shared library may use, directly or through the libraries it may use (the
    link graph CMake reports is transitive)."""
    seen, todo = set(), [lib]
    while todo:
        for used in LIB_USES.get(todo.pop(), ()):
            if used not in seen:
                seen.add(used)
                todo.append(used)
    return seen


def allowed(frm, to):
    """Whether component `frm` may use component `to`."""
    if frm == to:
        return True
    if frm == "engine":
        return False
    if frm in LIB_USES:
        return to in lib_closure(frm)
    if frm.startswith("lib/"):
        return False  # a lib folder nobody described: say what it uses in LIB_USES
    if frm == "bots":
        return to in ("engine", "lib/chance")
    if frm == "analysis":
        return to in ("engine", "bots", "lib/chance")
    if frm == "proto":
        return False
    if frm.startswith("services/"):
        return to in ("engine", "bots", "analysis", "proto") or to.startswith("lib/")
    if frm.startswith("tools/"):
        return to not in ("tests", "botkits", "python")
    if frm == "botkits":
        return to in ("engine", "bots", "proto") or to.startswith("lib/")
    if frm == "python":
        return to in ("engine", "bots", "lib/chance")
    return False


def is_storage_implementation(path):
    if path.startswith("lib/storage/"):
        return True
    return os.path.basename(path).startswith(("pg_", "redis_"))


# The fixtures that connect a test to the servers the test command starts, and the
# part of a test's name that says so.
DB_FIXTURES = {"lib/storage/tests/test_database.h": "_pg", "lib/storage/tests/test_redis.h": "_redis"}
DB_TEST_NAME = re.compile(r"_(pg|redis|pg_redis)_test\.cc$")


def check_test_names(root, report):
    """Test files that include a database fixture say which database in their names."""
    for top in ("lib", "services", "tools", "botkits"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = [d for d in dirnames if d not in ("node_modules", "build")]
            rel = os.path.relpath(dirpath, root)
            if "/tests" not in "/" + rel or "/integration" in rel or rel.startswith("lib/storage"):
                continue
            for name in sorted(n for n in filenames if n.endswith(".cc")):
                path = os.path.join(rel, name)
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    needs = {DB_FIXTURES[m.group(2)] for m in map(INCLUDE.match, f) if m and m.group(2) in DB_FIXTURES}
                m = DB_TEST_NAME.search(name)
                said = set() if not m else {"_pg", "_redis"} if m.group(1) == "pg_redis" else {"_" + m.group(1)}
                if needs and not needs <= said:
                    want = "_pg_redis" if len(needs) == 2 else needs.pop()
                    report.forbidden("tests", path, "a test that needs a database is named *%s_test.cc" % want)


TARGET_LINK = re.compile(r"\btarget_link_libraries\s*\(([^)]*)\)")
LINK_SCOPES = {"PUBLIC", "PRIVATE", "INTERFACE", "LINK_PUBLIC", "LINK_PRIVATE", "LINK_INTERFACE_LIBRARIES"}


def check_storage_linkage(root, report):
    """No service links metropolis_storage but PRIVATE."""
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "services")):
        dirnames[:] = [d for d in dirnames if d not in ("node_modules", "build")]
        if "CMakeLists.txt" not in filenames:
            continue
        path = os.path.relpath(os.path.join(dirpath, "CMakeLists.txt"), root)
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = re.sub(r"#[^\n]*", "", f.read())  # comments may name it (no # inside our arguments)
        for m in TARGET_LINK.finditer(text):
            words = m.group(1).split()
            scope = None
            for word in words[1:]:
                if word in LINK_SCOPES:
                    scope = word
                elif word == "metropolis_storage" and scope not in ("PRIVATE", "LINK_PRIVATE"):
                    where = "%s:%d" % (path, text.count("\n", 0, m.start()) + 1)
                    report.forbidden(component(path), where, "target %s links metropolis_storage %s, not PRIVATE" %
                                     (words[0], scope or "without a scope"))


def is_wiring(path):
    base = os.path.basename(path)
    return base == "main.cc" or os.path.splitext(base)[0] == "server"


class Report:
    def __init__(self):
        self.violations = []  # (from, to, where, what)
        self.known_seen = {}

    def dependency(self, frm, to, where, what):
        if allowed(frm, to):
            return
        key = (frm, to)
        if key in KNOWN:
            self.known_seen.setdefault(key, []).append(where)
            return
        self.violations.append((frm, to, where, what))

    def forbidden(self, frm, where, what):
        self.violations.append((frm, "-", where, what))


def source_files(root):
    for top in ("engine", "lib", "bots", "analysis", "services", "tools", "botkits", "python"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = [d for d in dirnames if d not in ("node_modules", "build")]
            for name in sorted(filenames):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def check_includes(root, report):
    count = 0
    for path in source_files(root):
        frm = component(path)
        if frm is None:
            continue
        count += 1
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                kind, header = m.groups()
                where = "%s:%d" % (path, lineno)
                if kind == "<":
                    if frm == "engine" and header not in STD_HEADERS:
                        report.forbidden(frm, where, "the engine includes <%s>, which is not the standard library" %
                                         header)
                    elif DB_CLIENT_INCLUDE.match(header) and not is_storage_implementation(path):
                        report.forbidden(frm, where, "<%s> outside a storage implementation" % header)
                    continue
                to = included_component(header)
                if to is None:
                    if frm == "engine":
                        report.forbidden(frm, where, 'the engine includes "%s", which is not the engine' % header)
                    continue
                if header in STORAGE_POOLS and not (is_storage_implementation(path) or is_wiring(path)):
                    report.forbidden(frm, where, '"%s" outside a storage implementation or wiring' % header)
                report.dependency(frm, to, where, '#include "%s"' % header)
    return count


def configure(cmake, root, definitions, scratch):
    """Configures `root` into `scratch` with a codemodel query, for the link graph."""
    query = os.path.join(scratch, ".cmake", "api", "v1", "query")
    os.makedirs(query)
    open(os.path.join(query, "codemodel-v2"), "w").close()
    args = [cmake, "-S", root, "-B", scratch, "-G", "Ninja"] + ["-D" + d for d in definitions]
    result = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        raise SystemExit("layering: configuring the tree failed:\n" + result.stdout[-4000:])


def load_codemodel(build):
    reply = os.path.join(build, ".cmake", "api", "v1", "reply")
    if not os.path.isdir(reply):
        raise SystemExit("layering: %s has no CMake file API reply (configure with a codemodel-v2 query, "
                         "or use --cmake)" % build)
    indexes = sorted(f for f in os.listdir(reply) if f.startswith("index-") and f.endswith(".json"))
    if not indexes:
        raise SystemExit("layering: no index-*.json in %s" % reply)
    with open(os.path.join(reply, indexes[-1])) as f:
        index = json.load(f)
    codemodel_file = None
    for obj in index.get("objects", []):
        if obj.get("kind") == "codemodel":
            codemodel_file = obj["jsonFile"]
    if codemodel_file is None:
        raise SystemExit("layering: the file API reply has no codemodel")
    with open(os.path.join(reply, codemodel_file)) as f:
        codemodel = json.load(f)
    targets = {}
    for config in codemodel["configurations"][:1]:
        for t in config["targets"]:
            with open(os.path.join(reply, t["jsonFile"])) as f:
                targets[t["id"]] = json.load(f)
    return targets


def target_component(target):
    """A target's layer: from its sources when it has any (a test target is None), else its folder."""
    sources = [s["path"] for s in target.get("sources", []) if not s.get("isGenerated")]
    sources = [s for s in sources if not os.path.isabs(s)]
    if sources and all(is_test_path(s) for s in sources):
        return None
    if target.get("name") == "metropolis_proto":
        return "proto"
    folder = target.get("paths", {}).get("source", ".")
    return component(folder + "/x.cc") if folder != "." else None


def check_links(targets, report):
    count = 0
    for tid, target in targets.items():
        frm = target_component(target)
        if frm is None:
            continue
        count += 1
        for dep in target.get("dependencies", []):
            other = targets.get(dep["id"])
            if other is None:
                continue
            to = target_component(other)
            if to is None:
                if other.get("type") != "UTILITY":
                    report.dependency(frm, "tests", "target %s" % target["name"], "links %s" % other["name"])
                continue
            if frm.startswith("services/") and to.startswith("tools/"):
                report.forbidden(frm, "target %s" % target["name"], "a tool (%s) linked into a service" % other["name"])
                continue
            report.dependency(frm, to, "target %s" % target["name"], "links %s" % other["name"])
    return count


def run(root, build, out=sys.stdout):
    report = Report()
    files = check_includes(root, report)
    check_test_names(root, report)
    check_storage_linkage(root, report)
    targets = check_links(load_codemodel(build), report) if build else 0
    for key, places in sorted(report.known_seen.items()):
        print("known: %s -> %s (%d places): %s" % (key[0], key[1], len(places), KNOWN[key]), file=out)
    stale = [k for k in KNOWN if k not in report.known_seen]
    for frm, to, where, what in report.violations:
        arrow = "" if to == "-" else " (%s may not use %s)" % (frm, to)
        print("FORBIDDEN %s: %s%s" % (where, what, arrow), file=out)
    for key in stale:
        print("STALE known violation %s -> %s no longer occurs: remove it from KNOWN" % key, file=out)
    print("layering: %d files and %d targets checked, %d violations, %d known" %
          (files, targets, len(report.violations), len(report.known_seen)), file=out)
    return 0 if not report.violations and not stale else 1


# ---- the check's own test: planted violations must each be found ---------------------------------------------

def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def fake_codemodel(build, targets):
    """A file API reply with `targets`: (name, folder, [source], [dependency names], type)."""
    reply = os.path.join(build, ".cmake", "api", "v1", "reply")
    os.makedirs(reply)
    entries = []
    for name, folder, sources, deps, kind in targets:
        data = {"name": name, "id": name + "::@1", "type": kind, "paths": {"source": folder},
                "sources": [{"path": s} for s in sources],
                "dependencies": [{"id": d + "::@1"} for d in deps]}
        with open(os.path.join(reply, "target-%s.json" % name), "w") as f:
            json.dump(data, f)
        entries.append({"name": name, "id": name + "::@1", "jsonFile": "target-%s.json" % name})
    with open(os.path.join(reply, "codemodel-v2-x.json"), "w") as f:
        json.dump({"configurations": [{"targets": entries}]}, f)
    with open(os.path.join(reply, "index-1.json"), "w") as f:
        json.dump({"objects": [{"kind": "codemodel", "jsonFile": "codemodel-v2-x.json"}]}, f)


CLEAN_TREE = {
    "engine/state.h": "#include <vector>\n#include \"engine/types.h\"\n",
    "engine/types.h": "#include <cstdint>\n",
    "lib/chance/chance.h": "#include \"engine/state.h\"\n",
    "bots/bot.h": "#include \"engine/state.h\"\n#include \"lib/chance/chance.h\"\n",
    "services/ratings/store.cc": "#include <string>\n",
    "services/ratings/pg_rating_store.cc": "#include <pqxx/pqxx>\n#include \"lib/storage/pg_pool.h\"\n",
    "services/ratings/pg_rows.cc": "#include <pqxx/pqxx>\n",
    "services/ratings/server.cc": "#include \"lib/storage/pg_pool.h\"\n#include \"services/ratings/store.h\"\n",
    "services/ratings/logic.cc": "#include \"engine/state.h\"\n#include \"metropolis/v1/ratings.pb.h\"\n",
    "services/ratings/tests/logic_test.cc": "#include \"tools/ctl/ctl.h\"\n#include <pqxx/pqxx>\n",
    "services/ratings/tests/ratings_pg_redis_test.cc":
        "#include \"lib/storage/tests/test_database.h\"\n#include \"lib/storage/tests/test_redis.h\"\n",
    "services/ratings/tests/integration/stack_test.cc": "#include \"lib/storage/tests/test_redis.h\"\n",
    "lib/storage/tests/pool_test.cc": "#include \"lib/storage/tests/test_database.h\"\n",
    "tools/ctl/main.cc": "#include \"services/ratings/store.h\"\n",
    "services/ratings/CMakeLists.txt":
        "# Links metropolis_storage PRIVATE.\n"
        "target_link_libraries(metropolis_ratings\n  PUBLIC metropolis_proto # not metropolis_storage\n"
        "  PRIVATE metropolis_storage)\ntarget_link_libraries(ratings_tests metropolis_ratings)\n",
    "python/src/session.cc": "#include \"bots/bot.h\"\n#include \"lib/chance/chance.h\"\n",
}
CLEAN_TARGETS = [
    ("metropolis_engine", "engine", ["engine/state.cc"], [], "STATIC_LIBRARY"),
    ("metropolis_ratings", "services/ratings", ["services/ratings/store.cc"], ["metropolis_engine"], "STATIC_LIBRARY"),
    ("metropolis_ctl", "tools/ctl", ["tools/ctl/ctl.cc"], ["metropolis_ratings"], "STATIC_LIBRARY"),
    ("ratings_tests", "services/ratings", ["services/ratings/tests/logic_test.cc"], ["metropolis_ctl"], "EXECUTABLE"),
]
# Each planted violation: (what, extra files, extra targets, text the report must show).
PLANTED = [
    ("the engine on the bots", {"engine/rules.cc": "#include \"bots/bot.h\"\n"}, [], "engine/rules.cc:1"),
    ("the engine on a library", {"engine/rules.cc": "#include <grpcpp/grpcpp.h>\n"}, [], "not the standard library"),
    ("a service on another service", {"services/ratings/logic2.cc": "#include \"services/replays/store.h\"\n"}, [],
     "services/ratings may not use services/replays"),
    ("a service on a tool", {"services/ratings/logic3.cc": "#include \"tools/ctl/ctl.h\"\n"}, [],
     "services/ratings may not use tools/ctl"),
    ("pqxx in a service's logic", {"services/ratings/ratings.cc": "#include <pqxx/pqxx>\n"}, [],
     "outside a storage implementation"),
    ("hiredis in the bots", {"bots/search.cc": "#include <hiredis/hiredis.h>\n"}, [],
     "outside a storage implementation"),
    ("pqxx in a store's interface", {"services/ratings/store.cc": "#include <pqxx/pqxx>\n"}, [],
     "outside a storage implementation"),
    ("a database test named like a hermetic one",
     {"services/ratings/tests/rate_test.cc": "#include \"lib/storage/tests/test_database.h\"\n"}, [],
     "services/ratings/tests/rate_test.cc: a test that needs a database is named *_pg_test.cc"),
    ("a Redis test named for PostgreSQL only",
     {"services/ratings/tests/cache_pg_test.cc": "#include \"lib/storage/tests/test_redis.h\"\n"}, [],
     "is named *_redis_test.cc"),
    ("a pool in a service's logic", {"services/ratings/ratings.cc": "#include \"lib/storage/pg_pool.h\"\n"}, [],
     "outside a storage implementation or wiring"),
    ("a service linking storage PUBLIC",
     {"services/ratings/CMakeLists.txt":
          "target_link_libraries(metropolis_ratings PRIVATE metropolis_warnings\n  PUBLIC metropolis_storage)\n"},
     [], "services/ratings/CMakeLists.txt:1: target metropolis_ratings links metropolis_storage PUBLIC"),
    ("a service program linking storage without a scope",
     {"services/ratings/tests/CMakeLists.txt": "\ntarget_link_libraries(ratings_tests metropolis_storage)\n"},
     [], "target ratings_tests links metropolis_storage without a scope"),
    ("the bots on a service", {"bots/x.cc": "#include \"services/ratings/store.h\"\n"}, [],
     "bots may not use services/ratings"),
    ("a shared library on a service", {"lib/chance/x.cc": "#include \"services/gamehost/game.h\"\n"}, [],
     "lib/chance may not use services/gamehost"),
    ("a service linking another service", {},
     [("metropolis_replays", "services/replays", ["services/replays/store.cc"], ["metropolis_ratings"],
       "STATIC_LIBRARY")], "target metropolis_replays: links metropolis_ratings"),
    ("a tool linked into a service", {},
     [("metropolis_replays", "services/replays", ["services/replays/store.cc"], ["metropolis_ctl"],
       "STATIC_LIBRARY")], "a tool (metropolis_ctl) linked into a service"),
    ("the Python module on a service", {"python/src/x.cc": "#include \"services/ratings/store.h\"\n"}, [],
     "python may not use services/ratings"),
    ("a tool on the Python module", {"tools/ctl/x.cc": "#include \"python/src/session.h\"\n"}, [],
     "tools/ctl may not use python"),
    ("the engine linking the bots", {},
     [("metropolis_engine2", "engine", ["engine/x.cc"], ["metropolis_bots"], "STATIC_LIBRARY"),
      ("metropolis_bots", "bots", ["bots/bot.cc"], [], "STATIC_LIBRARY")], "engine may not use bots"),
]


def self_test():
    global KNOWN
    saved_known, KNOWN = KNOWN, {}
    failures = 0
    try:
        for name, files, targets, expect in [("a clean tree", {}, [], None)] + PLANTED:
            tmp = tempfile.mkdtemp(prefix="layering-self-test-")
            try:
                for path, text in {**CLEAN_TREE, **files}.items():
                    write(tmp, path, text)
                fake_codemodel(os.path.join(tmp, "build"), CLEAN_TARGETS + targets)
                out = io.StringIO()
                status = run(tmp, os.path.join(tmp, "build"), out)
                text = out.getvalue()
                ok = (status == 0) if expect is None else (status == 1 and expect in text)
                print("%s: %s" % ("ok  " if ok else "FAIL", name))
                if not ok:
                    failures += 1
                    print("    expected %s; the check printed:\n%s" %
                          ("a pass" if expect is None else repr(expect), text))
            finally:
                shutil.rmtree(tmp)
        # A known violation that no longer occurs must fail, so that the list only shrinks.
        KNOWN = {("services/ratings", "services/replays"): "planted"}
        tmp = tempfile.mkdtemp(prefix="layering-self-test-")
        try:
            for path, text in CLEAN_TREE.items():
                write(tmp, path, text)
            fake_codemodel(os.path.join(tmp, "build"), CLEAN_TARGETS)
            out = io.StringIO()
            ok = run(tmp, os.path.join(tmp, "build"), out) == 1 and "STALE" in out.getvalue()
            print("%s: a stale known violation" % ("ok  " if ok else "FAIL"))
            failures += 0 if ok else 1
        finally:
            shutil.rmtree(tmp)
    finally:
        KNOWN = saved_known
    print("layering self-test: %d of %d cases failed" % (failures, len(PLANTED) + 2))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."),
                        help="the repository (default: this file's)")
    parser.add_argument("--cmake", help="configure the tree with this cmake in a scratch folder, for the link graph")
    parser.add_argument("--build", help="or: a build folder that already has a file API reply")
    parser.add_argument("-D", dest="definitions", action="append", default=[],
                        help="a cache setting for the scratch configure, e.g. -DMETROPOLIS_BUILD_SERVICES=ON")
    parser.add_argument("--self-test", action="store_true", help="check the check on trees with planted violations")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = os.path.abspath(args.root)
    if args.build:
        return run(root, os.path.abspath(args.build))
    if not args.cmake:
        parser.error("--cmake or --build is required (the link graph is part of the check)")
    scratch = tempfile.mkdtemp(prefix="layering-")
    try:
        configure(args.cmake, root, args.definitions, scratch)
        return run(root, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
