#!/usr/bin/env python3
"""Write the seed corpus of the `delta` fuzz target (Tests/Fuzz/delta/).

    scripts/fuzz-delta-corpus.py [SEEDGEN]     (default: .build/debug/seedgen)

Makes the fuzz target's base seed (the SQL of FuzzEntry.deltaBaseSQL, with this machine's
SQLite) and a few later versions of it, then `seedgen delta` from the base to each: rows
added, removed and changed, a unique value swapped, every storage class, no change at all.
The fuzz target points any delta at its own base seed, so these stay useful with another
SQLite. Each version is the base changed. Also writes a delta cut inside its header and one cut inside its body.
"""

import os
import re
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDGEN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/seedgen")
OUT = os.path.join(ROOT, "Tests/Fuzz/delta")

source = open(os.path.join(ROOT, "Sources/SeedKit/Support/FuzzEntry.swift"), encoding="utf-8").read()
BASE_SQL = re.search(r'static let deltaBaseSQL = """\n(.*?)\n\s*"""', source, re.S).group(1)

VERSIONS = {
    "changes": """
        DELETE FROM items WHERE id % 7 = 0;
        UPDATE items SET weight = weight + 1 WHERE id % 5 = 0;
        INSERT INTO items VALUES (100, 'new one', NULL, x'01', 'added');
        UPDATE pairs SET c = 'changed' WHERE a < 20;
        DELETE FROM pairs WHERE a > 50;
        INSERT INTO pairs VALUES (61, 'z', NULL);
        """,
    "unique-swap": """
        UPDATE items SET name = 'swap' WHERE id = 1;
        UPDATE items SET name = 'item 1' WHERE id = 2;
        UPDATE items SET name = 'item 2' WHERE id = 1;
        """,
    "storage-classes": """
        UPDATE items SET weight = 1e308, data = randomblob(300), note = 'nul' || char(0) || 'inside' WHERE id = 3;
        UPDATE items SET note = -9223372036854775808, data = x'' WHERE id = 4;
        INSERT INTO items VALUES (-7, 'negative', -0.5, NULL, 2.5);
        """,
    "no-change": "",
}


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        base = os.path.join(work, "base.sqlite")
        sqlite3.connect(os.path.join(work, "base-scratch.sqlite"), isolation_level=None).executescript(BASE_SQL + f"VACUUM INTO '{base}';")
        for name, sql in VERSIONS.items():
            # Each version is the base seed changed (so every delta applies to the base seed).
            target = os.path.join(work, name + ".sqlite")
            db = sqlite3.connect(os.path.join(work, name + "-scratch.sqlite"), isolation_level=None)
            db.executescript(BASE_SQL)
            db.executescript(f"""
                UPDATE seedgen_metadata SET value = '{name}' WHERE key = 'seed_version';
                {sql}
                ANALYZE;
                VACUUM INTO '{target}';
                """)
            delta = os.path.join(OUT, name + ".delta")
            subprocess.run([SEEDGEN, "delta", base, target, "--out", delta, "--quiet"], check=True)
        data = open(os.path.join(OUT, "changes.delta"), "rb").read()
        end = data.index(b"\n\n") + 2
        open(os.path.join(OUT, "cut-in-header.delta"), "wb").write(data[: end // 2])
        open(os.path.join(OUT, "cut-in-body.delta"), "wb").write(data[: end + (len(data) - end) // 2])
    print(f"{OUT}: " + ", ".join(sorted(os.listdir(OUT))))


if __name__ == "__main__":
    main()
