#!/usr/bin/env python3
"""A seed's content digest, computed without seedgen.

This is the independent implementation of Documentation/content-digest.md that the tests compare
seedgen's own (`seedgen build`, `verify`, `inspect`, the installer) against: it follows the spec,
not seedgen's code, so the two agree only if both follow it.

    python3 scripts/content_digest.py SEED.sqlite [SEED2.sqlite ...]

prints `<64 hex digits>  <path>` for each file (like sha256sum) and exits 0; a file that is not a
SQLite database or cannot be read gets a one-line error on stderr and makes the exit status 1.
As a module: `content_digest(path) -> str`.

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


def _rows(db, name, without_rowid):
    """The query that reads the table's rows in key order, with the rowid first if it has one."""
    table = _quote(name)
    if without_rowid:
        key = [r[0] for r in db.execute(
            "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", (name.decode(),))]
        return f"SELECT * FROM {table} ORDER BY " + ", ".join(map(_quote, key))
    columns = {r[0].decode().lower() for r in db.execute(
        "SELECT name FROM pragma_table_xinfo(?)", (name.decode(),))}
    rowid = next((n for n in ("rowid", "_rowid_", "oid") if n not in columns), None)
    if rowid is None:
        raise sqlite3.DatabaseError(f"table {name.decode()}: columns named rowid, _rowid_ and oid hide its rowid")
    return f"SELECT {rowid}, * FROM {table} ORDER BY {rowid}"


def content_digest(path):
    """The content digest of the SQLite database at `path`: 64 lower-case hexadecimal digits."""
    with open(path, "rb") as f:  # SQLite would take an empty file for an empty database
        if f.read(16) != b"SQLite format 3\0":
            raise sqlite3.DatabaseError("file is not a database")
    uri = "file:" + urllib.parse.quote(str(path)) + "?mode=ro&immutable=1"
    db = sqlite3.connect(uri, uri=True)
    try:
        db.text_factory = _Text
        h = hashlib.sha256(b"seedgen-content-1\n")
        shadow = {r[0] for r in db.execute(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'")}
        without_rowid = {r[0] for r in db.execute(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND wr")}
        entries = sorted(
            (bytes(t), bytes(n), bytes(tn), bytes(sql or b""))
            for t, n, tn, sql in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema")
            if not n.startswith(b"sqlite_") and n not in shadow)
        for entry in entries:
            h.update(b"S" + b"".join(map(_text, entry)))
        virtual = [n for t, n, _, sql in entries if t == b"table" and sql.startswith(b"CREATE VIRTUAL TABLE")]
        for name in virtual:
            # A SQLite without the table's module ("no such module: fts5") would not know its
            # shadow tables as such, and would count them as content: refuse instead.
            db.execute(f"SELECT * FROM {_quote(name)} LIMIT 0")
        tables = sorted(n for t, n, _, _ in entries if t == b"table" and n not in virtual)
        for name in tables:
            cursor = db.execute(_rows(db, name, name in without_rowid))
            columns = [d[0] for d in cursor.description]
            h.update(b"T" + _text(name) + _u32(len(columns)))
            # The digest's own record and the install's sequence stamp: seedgen_metadata's rows
            # whose key is content_sha256 or publication_sequence.
            skip = columns.index("key") if name == b"seedgen_metadata" and "key" in columns else None
            for row in cursor:
                if skip is not None and type(row[skip]) is _Text and row[skip] in (b"content_sha256", b"publication_sequence"):
                    continue
                h.update(b"R" + b"".join(map(_value, row)))
        h.update(b"E")
        return h.hexdigest()
    finally:
        db.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Print the content digest of each SQLite seed.")
    parser.add_argument("paths", nargs="+", metavar="SEED")
    status = 0
    for path in parser.parse_args(argv).paths:
        try:
            print(f"{content_digest(path)}  {path}", flush=True)
        except (OSError, sqlite3.Error, UnicodeDecodeError) as error:
            message = error.strerror if isinstance(error, OSError) and error.strerror else error
            print(f"content_digest.py: {path}: {message}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
