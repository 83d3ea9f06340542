#!/usr/bin/env python3
"""Write the seed corpus of the `delta` fuzz target (Tests/Fuzz/delta/).

    scripts/fuzz-delta-corpus.py [SEEDGEN]     (default: .build/debug/seedgen)

Makes the fuzz target's base seed (the SQL of FuzzEntry.deltaBaseSQL, with this machine's
SQLite) and a few later versions of it, then `seedgen delta` from the base to each, as a
channel would publish them: format 2, both seeds named by their content digest (seedgen
computes it when a seed does not record it), rows added, removed and changed, a unique value
swapped, every storage class (1 and 1.0 in an untyped column), no change at all. Each version
is the base changed, so every valid delta applies to the base: the fuzz target points a
delta's `from` at its own base seed (its content digest and size), and the content digest
does not depend on the SQLite that laid the pages out, so these deltas go through the whole
apply (records, the check of the result's digest) with any SQLite.

Damaged deltas reach the other paths: cut inside the header and inside the body, a byte of the
compressed body flipped, a result other than promised (to-content-sha256 changed: applied to
the end, then refused), a delta made from another seed (its records do not fit the base), and
a format-1 header (from a seedgen before content digests: refused, install the full seed).
FuzzCorpusTests replays them and checks that each still reaches its path.
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

source = open(os.path.join(ROOT, "Sources/SeedKit/Builder/FuzzEntry.swift"), encoding="utf-8").read()
BASE_SQL = re.search(r'static let deltaBaseSQL = """\n(.*?)\n\s*"""', source, re.S).group(1)
# A line that ends with a backslash continues on the next (Swift's multi-line string literal).
BASE_SQL = re.sub(r"\\\n *", "", BASE_SQL)

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
        UPDATE items SET note = 6.0 WHERE id = 6;
        INSERT INTO items VALUES (-7, 'negative', -0.5, NULL, 2.5);
        """,
    "no-change": "",
}


def header_end(data):
    return data.index(b"\n\n") + 2


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if name.endswith(".delta"):
            os.remove(os.path.join(OUT, name))
    with tempfile.TemporaryDirectory() as work:
        base = os.path.join(work, "base.sqlite")
        sqlite3.connect(os.path.join(work, "base-scratch.sqlite"), isolation_level=None).executescript(BASE_SQL + f"VACUUM INTO '{base}';")
        seeds = {}
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
            seeds[name] = target
            delta = os.path.join(OUT, name + ".delta")
            subprocess.run([SEEDGEN, "delta", base, target, "--out", delta, "--quiet"], check=True)

        data = open(os.path.join(OUT, "changes.delta"), "rb").read()
        end = header_end(data)
        assert data.startswith(b"seedgen-delta 2\n"), "seedgen writes format 2"

        def write(name, content):
            open(os.path.join(OUT, name), "wb").write(content)

        write("cut-in-header.delta", data[: end // 2])
        write("cut-in-body.delta", data[: end + (len(data) - end) // 2])
        flipped = bytearray(data)
        flipped[end + (len(data) - end) // 2] ^= 0x55
        write("flipped-body-byte.delta", bytes(flipped))
        # Applied whole, then refused: the result is not the content promised.
        header = data[:end].decode()
        promised = re.sub(r"^to-content-sha256=[0-9a-f]{64}$", "to-content-sha256=" + "0" * 64, header, flags=re.M)
        assert promised != header
        write("wrong-result.delta", promised.encode() + data[end:])
        # Made from another seed: its deletes, inserts and updates do not fit the base.
        foreign = os.path.join(work, "foreign.delta")
        subprocess.run([SEEDGEN, "delta", seeds["changes"], seeds["storage-classes"], "--out", foreign, "--quiet"], check=True)
        write("foreign-base.delta", open(foreign, "rb").read())
        # Format 1, from a seedgen before content digests: file SHA-256s and a schema cookie.
        old = re.sub(r"^(from|to)-content-sha256=", r"\1-sha256=", header, flags=re.M)
        old = old.replace("seedgen-delta 2\n", "seedgen-delta 1\n").replace("\n\n", "\nto-schema-cookie=3\n\n")
        write("format-1.delta", old.encode() + data[end:])
    print(f"{OUT}: " + ", ".join(sorted(os.listdir(OUT))))


if __name__ == "__main__":
    main()
