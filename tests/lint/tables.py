#!/usr/bin/env python3
"""Checks that every table has one owner and that only its owner's SQL names it (label lint).

Services meet through gRPC, never through each other's tables (docs/OWNERSHIP.md). This
check reads files only:

  - the migrations: the tables of the shared history (migrations/NNNN_*.sql, applied
    before tables had owners) are owned as OWNERS says, and every one of them must be
    listed there; a table created in migrations/<owner>/ belongs to that owner. A
    migration in an owner's folder may create, alter or index only its owner's tables
    and may not add a foreign key to another owner's table. The shared history is
    frozen: its files keep the checksums in migrations/SHA256SUMS (an applied file is
    never edited: the migrator refuses a database whose file changed), and no new
    file may be added beside them.
  - the SQL in the C++ of every service and tool (FROM, JOIN, INTO, UPDATE, TABLE,
    REFERENCES followed by a table): a file belongs to the owner of its folder
    (FOLDER_OWNERS); naming another owner's table fails.
  - docs/OWNERSHIP.md lists every foreign key of the shared history that crosses
    owners ("from_table -> to_table"), with what replaces it.

Known violations being removed are listed in KNOWN with the reason; each is reported as
known, a known entry that no longer occurs fails (so the list only shrinks), and
anything else fails.

  tests/lint/tables.py [--root REPO_ROOT]
  tests/lint/tables.py --self-test     # the check itself, on small trees with planted violations
"""

import argparse
import hashlib
import os
import re
import sys
import tempfile

# The tables of the shared history and their owners.
OWNERS = {
    "identities": "accounts",
    "api_tokens": "accounts",
    "ladders": "accounts",
    "seasons": "accounts",
    "player_passwords": "accounts",
    "web_sessions": "accounts",
    "web_seats": "accounts",
    "games": "replays",
    "game_seats": "replays",
    "replays": "replays",
    "ratings": "ratings",
    "rated_games": "ratings",
    "rating_history": "ratings",
    "tournaments": "tournaments",
    "tournament_entrants": "tournaments",
    "tournament_games": "tournaments",
}

# Which owner a source folder speaks for; the most specific prefix wins. Folders not
# listed (the game host, the engine, bots, libraries) own no table and may name none.
FOLDER_OWNERS = {
    "services/accounts/": "accounts",
    "services/replays/": "replays",
    "services/ratings/": "ratings",
    "services/matchmaker/tournaments/": "tournaments",
    "services/matchmaker/": "matchmaker",
    "services/gamehost/": "gamehost",
    "services/gateway/": "gateway",
    "tools/admin/": "accounts",  # the Accounts service's own administration tool
}

# (owner, table) still named across owners, and why: none any more. Should one be
# listed again, it must only shrink.
KNOWN = {}

SQL_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE|REFERENCES)\s+(?:ONLY\s+|IF\s+(?:NOT\s+)?EXISTS\s+)?"
                       r"([a-z_][a-z0-9_]*)((?:\s+(?:AS\s+)?[a-z_][a-z0-9_]*)?(?:\s*,\s*[a-z_][a-z0-9_]*"
                       r"(?:\s+(?:AS\s+)?[a-z_][a-z0-9_]*)?)*)")
INDEX_ON = re.compile(r"\bINDEX\b[^;]*?\bON\s+(?:ONLY\s+)?([a-z_][a-z0-9_]*)")
CREATE_TABLE = re.compile(r"\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)")
ALTER_TABLE = re.compile(r"\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?([a-z_][a-z0-9_]*)")
REFERENCES = re.compile(r"\bREFERENCES\s+([a-z_][a-z0-9_]*)")
SQL_WORDS = {"select", "where", "on", "set", "values", "using", "returning", "group", "order", "limit", "join",
             "left", "right", "inner", "outer", "cross", "natural", "lateral", "for", "as", "and", "or", "with",
             "union", "having", "window", "offset", "fetch", "into", "from", "update", "delete", "insert"}
SOURCE_SUFFIXES = (".cc", ".h", ".cpp", ".hpp")
HISTORY = re.compile(r"^\d{4}_[a-z0-9_]+\.sql$")


def strip_sql_comments(text):
    return re.sub(r"--[^\n]*", "", text)


def strip_cpp_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)(^|[^:\"])//[^\n]*", r"\1", text)


def tables_named(sql):
    """Tables named after FROM, JOIN, INTO, UPDATE, TABLE, REFERENCES or INDEX ... ON."""
    names = set()
    for m in SQL_TABLE.finditer(sql):
        names.add(m.group(1))
        for extra in re.finditer(r",\s*([a-z_][a-z0-9_]*)", m.group(2) or ""):
            names.add(extra.group(1))
    names.update(m.group(1) for m in INDEX_ON.finditer(sql))
    return {n for n in names if n not in SQL_WORDS}


def folder_owner(path):
    best = None
    for prefix, owner in FOLDER_OWNERS.items():
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, owner)
    return best[1] if best else None


def is_test_path(path):
    return "/tests/" in path or path.startswith(("tests/", "bench/"))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def check(root, owners=OWNERS, known=KNOWN):
    """Returns (errors, known_seen)."""
    errors, seen = [], set()
    table_owner = dict(owners)
    mig = os.path.join(root, "migrations")
    history, cross_fks = [], []
    sums_path = os.path.join(mig, "SHA256SUMS")
    sums = {}
    if os.path.exists(sums_path):
        for line in read(sums_path).splitlines():
            if line.strip():
                digest, name = line.split()
                sums[name] = digest
    for name in sorted(os.listdir(mig)):
        path = os.path.join(mig, name)
        if os.path.isfile(path) and name.endswith(".sql"):
            history.append(name)
            data = open(path, "rb").read()
            if name not in sums:
                errors.append(f"migrations/{name}: a new migration goes in its owner's folder "
                              "(migrations/<service>/), not beside the shared history")
            elif hashlib.sha256(data).hexdigest() != sums[name]:
                errors.append(f"migrations/{name}: changed after it was applied (SHA256SUMS); add a new migration "
                              "in its owner's folder instead")
            sql = strip_sql_comments(data.decode())
            for t in CREATE_TABLE.findall(sql):
                if t not in owners:
                    errors.append(f"migrations/{name}: table {t} has no owner in OWNERS")
    for name in sums:
        if name not in history:
            errors.append(f"migrations/SHA256SUMS: {name} is listed but missing")
    # The owners' folders: their tables, and what each migration touches.
    folders = sorted(d for d in os.listdir(mig) if os.path.isdir(os.path.join(mig, d)))
    for owner in folders:
        for name in sorted(os.listdir(os.path.join(mig, owner))):
            if name.endswith(".sql"):
                for t in CREATE_TABLE.findall(strip_sql_comments(read(os.path.join(mig, owner, name)))):
                    if t in table_owner and table_owner[t] != owner:
                        errors.append(f"migrations/{owner}/{name}: creates {t}, owned by {table_owner[t]}")
                    table_owner.setdefault(t, owner)
    for owner in folders:
        for name in sorted(os.listdir(os.path.join(mig, owner))):
            if not name.endswith(".sql"):
                continue
            sql = strip_sql_comments(read(os.path.join(mig, owner, name)))
            touched = set(CREATE_TABLE.findall(sql)) | set(ALTER_TABLE.findall(sql)) | set(INDEX_ON.findall(sql))
            for t in sorted(touched):
                if table_owner.get(t, owner) != owner:
                    errors.append(f"migrations/{owner}/{name}: changes {t}, owned by {table_owner[t]}")
            for t in sorted(set(REFERENCES.findall(sql))):
                if table_owner.get(t, owner) != owner:
                    errors.append(f"migrations/{owner}/{name}: a foreign key to {t} ({table_owner[t]}'s) "
                                  "crosses owners")
    # Foreign keys of the shared history that cross owners must be documented.
    for name in history:
        sql = strip_sql_comments(read(os.path.join(mig, name)))
        for stmt in sql.split(";"):
            m = CREATE_TABLE.search(stmt) or ALTER_TABLE.search(stmt)
            if not m:
                continue
            for t in REFERENCES.findall(stmt):
                if table_owner.get(m.group(1)) != table_owner.get(t):
                    cross_fks.append((m.group(1), t))
    doc_path = os.path.join(root, "docs", "OWNERSHIP.md")
    doc = read(doc_path) if os.path.exists(doc_path) else ""
    for frm, to in sorted(set(cross_fks)):
        if not re.search(rf"`{frm}`\s*(?:->|→)\s*`{to}`", doc):
            errors.append(f"docs/OWNERSHIP.md: the foreign key {frm} -> {to} crosses owners "
                          f"({table_owner.get(frm)} -> {table_owner.get(to)}) and is not listed with what "
                          "replaces it (write `" + frm + "` -> `" + to + "`)")
    # The owners' table at the top of docs/OWNERSHIP.md lists every table under its
    # owner, so that the page a reader trusts cannot fall behind the migrations.
    listed = {}
    for line in doc.splitlines():
        row = re.match(r"\|\s*([a-z_]+)\b[^|`]*(?:`[^`|]*`[^|`]*)*\|([^|]*)\|", line)
        if row:
            for t in re.findall(r"`([a-z_][a-z0-9_]*)`", row.group(2)):
                listed.setdefault(t, row.group(1))
    for t, owner in sorted(table_owner.items()):
        if t not in listed:
            errors.append(f"docs/OWNERSHIP.md: table {t} ({owner}'s) is missing from the owners' table")
        elif listed[t] != owner:
            errors.append(f"docs/OWNERSHIP.md: table {t} is listed under {listed[t]} but owned by {owner}")
    # The SQL in the code.
    for top in ("services", "tools", "lib"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                if is_test_path(path):
                    continue
                me = folder_owner(path)
                for t in sorted(tables_named(strip_cpp_comments(read(os.path.join(root, path))))):
                    owner = table_owner.get(t)
                    if owner is None or owner == me:
                        continue
                    if (me, t) in known:
                        seen.add((me, t))
                    else:
                        errors.append(f"{path}: names {t}, owned by {owner} ({me or 'no owner'} may not); "
                                      "ask its owner through gRPC")
    for entry in sorted(set(known) - seen):
        errors.append(f"tables.py KNOWN: {entry[0]} no longer names {entry[1]}; remove the entry")
    return errors, seen


def self_test():
    def tree(files):
        root = tempfile.mkdtemp(prefix="tables-self-test-")
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        return root

    base_sql = ("CREATE TABLE identities (id BIGSERIAL PRIMARY KEY);\n"
                "CREATE TABLE games (id TEXT PRIMARY KEY);\n"
                "CREATE TABLE rated_games (game_id TEXT REFERENCES games (id));\n")
    base = {
        "migrations/0001_a.sql": base_sql,
        "migrations/SHA256SUMS": hashlib.sha256(base_sql.encode()).hexdigest() + "  0001_a.sql\n",
        "docs/OWNERSHIP.md": ("| owner | tables |\n|---|---|\n| accounts | `identities` |\n| replays | `games` |\n"
                              "| ratings | `rated_games` |\n\n"
                              "`rated_games` -> `games`: replaced by a digest Replays confirms.\n"),
        "services/ratings/store.cc": 'const char* k = "SELECT x FROM rated_games WHERE a = $1";\n',
    }
    owners = {"identities": "accounts", "games": "replays", "rated_games": "ratings"}
    cases = [
        ("a clean tree", {}, {}, None),
        ("a service naming another owner's table", {
            "services/ratings/store.cc": 'auto k = "SELECT g.id FROM rated_games r JOIN games g ON true";'},
         {}, "names games, owned by replays"),
        ("a comma join", {"services/ratings/store.cc": 'auto k = "SELECT 1 FROM rated_games r, identities i";'},
         {}, "names identities, owned by accounts"),
        ("a known violation still present", {
            "services/ratings/store.cc": 'auto k = "UPDATE games SET x = 1";'},
         {("ratings", "games"): "why"}, None),
        ("a known violation gone", {}, {("ratings", "games"): "why"}, "no longer names games"),
        ("an edited history file", {"migrations/0001_a.sql": base_sql + "-- edited\n"}, {}, "changed after"),
        ("a new file beside the history", {"migrations/0002_b.sql": "SELECT 1;"}, {}, "its owner's folder"),
        ("a migration altering another owner's table", {
            "migrations/ratings/0002_x.sql": "ALTER TABLE games ADD COLUMN y INT;"}, {}, "changes games"),
        ("a new cross-owner foreign key", {
            "migrations/ratings/0002_x.sql": "CREATE TABLE r2 (g TEXT REFERENCES games (id));"}, {},
         "crosses owners"),
        ("an undocumented cross-owner foreign key", {"docs/OWNERSHIP.md": "nothing\n"}, {},
         "rated_games -> games crosses owners"),
        ("a table without owner", {
            "migrations/0001_a.sql": base_sql + "CREATE TABLE stray (x INT);\n",
            "migrations/SHA256SUMS": hashlib.sha256((base_sql + "CREATE TABLE stray (x INT);\n").encode())
            .hexdigest() + "  0001_a.sql\n"}, {}, "stray has no owner"),
        ("a comment is not SQL", {"services/ratings/store.cc": "// we never read FROM games here\nint x;\n"}, {},
         None),
        ("a table of an owner's folder is its own", {
            "migrations/ratings/0002_x.sql": "CREATE TABLE digests (g TEXT);",
            "services/gateway/a.cc": 'auto k = "SELECT 1 FROM digests";'}, {}, "names digests, owned by ratings"),
        ("a new table missing from the owners' table", {
            "migrations/ratings/0002_x.sql": "CREATE TABLE digests (g TEXT);"}, {},
         "table digests (ratings's) is missing"),
        ("a table listed under the wrong owner", {
            "docs/OWNERSHIP.md": ("| accounts | `identities`, `games` |\n| ratings | `rated_games` |\n"
                                  "`rated_games` -> `games`\n")}, {}, "table games is listed under accounts"),
    ]
    failed = 0
    for title, changes, known, expect in cases:
        files = dict(base)
        files.update(changes)
        errors, _ = check(tree(files), owners=owners, known=known)
        text = "\n".join(errors)
        ok = (not errors) if expect is None else (expect in text)
        if not ok:
            failed += 1
            print(f"tables self-test: {title}: expected {expect or 'no error'}, got:\n{text or '(no error)'}",
                  file=sys.stderr)
    if failed:
        return 1
    print(f"tables self-test: {len(cases)} planted trees judged as expected")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    errors, seen = check(os.path.abspath(args.root))
    for owner, table in sorted(seen):
        print(f"known: {owner} names {table} ({KNOWN[(owner, table)]})")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    if errors:
        print(f"tables: {len(errors)} problem(s); docs/OWNERSHIP.md says who owns what", file=sys.stderr)
        return 1
    print(f"tables: every table named only by its owner ({len(seen)} known exceptions being removed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
