#!/usr/bin/env python3
"""A seed's content digest, computed without seedgen.

This is the independent implementation of Documentation/content-digest.md that the tests compare
seedgen's own (`seedgen build`, `verify`, `inspect`, the installer) against: it follows the spec,
not seedgen's code, so the two agree only if both follow it.

    python3 scripts/content_digest.py [--check-record] SEED.sqlite [SEED2.sqlite ...]

prints `<64 hex digits>  <path>` for each file (like sha256sum) and exits 0; a file that is not a
SQLite database or cannot be read gets a one-line error on stderr and makes the exit status 1, as
does (with --check-record) a seed whose chunk record is not its chunks.
As a module: `content_digest(path) -> str`; `content_tree(path)` also gives each content table's
chunks (last rowid, row count, SHA-256), as `seedgen_content_chunks` records them.

The database is opened read-only and immutable (no journal or WAL is read or created: a seed is
a single file). Rows are read one at a time, so memory stays flat whatever the seed's size.
Needs Python's sqlite3 on SQLite 3.37 or later (pragma_table_list), with FTS5 and R*Tree when
the seed has such tables.
"""
import argparse
import hashlib
import sqlite3
import struct
import sys
import urllib.parse

_u32 = struct.Struct(">I").pack
_i64 = struct.Struct(">q").pack
_f64 = struct.Struct(">d").pack


class _Text(bytes):
    """A TEXT value's bytes as stored (the connection's text factory): a BLOB arrives as plain bytes."""


def _text(b):
    return _u32(len(b)) + b


def _value(v):
    if v is None:
        return b"N"
    t = type(v)
    if t is int:
        return b"I" + _i64(v)
    if t is float:
        return b"F" + _f64(v)
    if t is _Text:
        return b"T" + _u32(len(v)) + v
    return b"B" + _u32(len(v)) + v


def _quote(name):
    return '"' + name.decode("utf-8").replace('"', '""') + '"'


_M64 = (1 << 64) - 1
AVERAGE_ROWS = 128
CHUNK_TABLE = b"seedgen_content_chunks"


def _boundary_hash(key):
    """FNV-1a (64-bit) over the key's bytes, then MurmurHash3's 64-bit finalizer."""
    h = 0xCBF29CE484222325
    for b in key:
        h = ((h ^ b) * 0x100000001B3) & _M64
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & _M64
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & _M64
    return h ^ (h >> 33)


def _rows(db, name, without_rowid):
    """The query that reads the table's rows in key order (the rowid first if it has one), and
    the number of key columns at the end of each result row (0: the key is the rowid)."""
    table = _quote(name)
    if without_rowid:
        key = [(r[0], r[1]) for r in db.execute(
            "SELECT x.name, x.coll FROM pragma_index_list(?1) AS l, pragma_index_xinfo(l.name) AS x"
            " WHERE l.origin = 'pk' AND x.key = 1 ORDER BY x.seqno", (name.decode(),))]
        columns = ", ".join(_quote(k) for k, _ in key)
        order = ", ".join(f"{_quote(k)} COLLATE {_quote(c)}" for k, c in key)
        return f"SELECT *, {columns} FROM {table} ORDER BY {order}", len(key)
    columns = {r[0].decode().lower() for r in db.execute(
        "SELECT name FROM pragma_table_xinfo(?)", (name.decode(),))}
    rowid = next((n for n in ("rowid", "_rowid_", "oid") if n not in columns), None)
    if rowid is None:
        raise sqlite3.DatabaseError(f"table {name.decode()}: columns named rowid, _rowid_ and oid hide its rowid")
    return f"SELECT {rowid}, * FROM {table} ORDER BY {rowid}", 0


def table_chunks(db, name, without_rowid):
    """The table's width and its chunks: [(last rowid or None, last key's encoding or None (a
    WITHOUT ROWID table's), row count, sha256 bytes)]."""
    sql, key_width = _rows(db, name, without_rowid)
    cursor = db.execute(sql)
    width = len(cursor.description) - key_width
    columns = [d[0] for d in cursor.description][:width]
    # The digest's own record and the install's sequence stamp: seedgen_metadata's rows whose
    # key is content_sha256 or publication_sequence.
    skip = columns.index("key") if name == b"seedgen_metadata" and "key" in columns else None
    chunks, h, count, last, last_key = [], hashlib.sha256(), 0, None, None
    for row in cursor:
        if skip is not None and type(row[skip]) is _Text and row[skip] in (b"content_sha256", b"publication_sequence"):
            continue
        values = row[:width]
        h.update(b"R" + b"".join(map(_value, values)))
        count += 1
        last = None if key_width else row[0]
        key = b"".join(map(_value, row[width:] if key_width else row[:1]))
        last_key = key if key_width else None
        if _boundary_hash(key) % AVERAGE_ROWS == 0:
            chunks.append((last, last_key, count, h.digest()))
            h, count = hashlib.sha256(), 0
    if count:
        chunks.append((last, last_key, count, h.digest()))
    return width, chunks


def content_tree(path):
    """The root (64 hexadecimal digits) and {table: (width, chunks)} of the database at `path`."""
    with open(path, "rb") as f:  # SQLite would take an empty file for an empty database
        if f.read(16) != b"SQLite format 3\0":
            raise sqlite3.DatabaseError("file is not a database")
    uri = "file:" + urllib.parse.quote(str(path)) + "?mode=ro&immutable=1"
    db = sqlite3.connect(uri, uri=True)
    try:
        db.text_factory = _Text
        root = hashlib.sha256(b"seedgen-content-2\n")
        shadow = {r[0] for r in db.execute(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'")}
        without_rowid = {r[0] for r in db.execute(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr")}
        entries = sorted(
            (bytes(t), bytes(n), bytes(tn), bytes(sql or b""))
            for t, n, tn, sql in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema")
            if not n.startswith(b"sqlite_") and n not in shadow and n != CHUNK_TABLE)
        for entry in entries:
            root.update(b"S" + b"".join(map(_text, entry)))
        virtual = [n for t, n, _, sql in entries if t == b"table" and sql.startswith(b"CREATE VIRTUAL TABLE")]
        for name in virtual:
            # A SQLite without the table's module ("no such module: fts5") would not know its
            # shadow tables as such, and would count them as content: refuse instead.
            db.execute(f"SELECT * FROM {_quote(name)} LIMIT 0")
        tables = {}
        for name in sorted(n for t, n, _, _ in entries if t == b"table" and n not in virtual):
            width, chunks = tables[name] = table_chunks(db, name, name in without_rowid)
            root.update(b"T" + _text(name) + _u32(width))
            root.update(b"".join(b"C" + c[3] for c in chunks))
        root.update(b"E")
        return root.hexdigest(), tables
    finally:
        db.close()


def content_digest(path):
    """The content digest of the SQLite database at `path`: 64 lower-case hexadecimal digits."""
    return content_tree(path)[0]


def record_difference(path, tables):
    """What differs first between the chunks `tables` (content_tree's) and the seed's chunk record
    (seedgen_content_chunks), or None."""
    uri = "file:" + urllib.parse.quote(str(path)) + "?mode=ro&immutable=1"
    db = sqlite3.connect(uri, uri=True)
    try:
        recorded = {}
        for name, position, last, key, count, sha in db.execute(
                "SELECT table_name, position, last_rowid, last_key, row_count, sha256 FROM seedgen_content_chunks"
                " ORDER BY table_name, position"):
            recorded.setdefault(name.encode(), []).append((position, last, key, count, sha))
    except sqlite3.Error as error:
        return f"no chunk record ({error})"
    finally:
        db.close()
    for name, (_, chunks) in tables.items():
        mine = [(i, last, key, count, sha) for i, (last, key, count, sha) in enumerate(chunks)]
        if recorded.pop(name, []) != mine:
            return f"table {name.decode()}: the chunk record differs from its {len(chunks)} chunks"
    if recorded:
        return "the chunk record names other tables: " + ", ".join(n.decode() for n in recorded)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description="Print the content digest of each SQLite seed.")
    parser.add_argument("paths", nargs="+", metavar="SEED")
    parser.add_argument("--check-record", action="store_true",
                        help="also compare each chunk with the seed's record (seedgen_content_chunks)")
    status = 0
    arguments = parser.parse_args(argv)
    for path in arguments.paths:
        try:
            root, tables = content_tree(path)
            difference = record_difference(path, tables) if arguments.check_record else None
            if difference:
                print(f"content_digest.py: {path}: {difference}", file=sys.stderr)
                status = 1
            print(f"{root}  {path}", flush=True)
        except (OSError, sqlite3.Error, UnicodeDecodeError) as error:
            message = error.strerror if isinstance(error, OSError) and error.strerror else error
            print(f"content_digest.py: {path}: {message}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
