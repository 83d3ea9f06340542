#!/usr/bin/env bash
# Installs two SQLite versions besides the system's (3.40.1) for the tests that apply deltas with
# another SQLite: they run seedgen, which links the system's libsqlite3.so.0, with
# LD_PRELOAD=<one of these libraries>. Each one exports the plain sqlite3_* C API and has FTS5 and
# R*Tree (a seed has both). Both come from PyPI, at pinned versions, so their SQLite versions are
# fixed:
#   - SQLite 3.46.1: the libsqlite3 that the pyproj wheel bundles (pyproj.libs/libsqlite3-*.so*);
#   - SQLite 3.50.4: the amalgamation (sqlite/sqlite3.c) in the sqlean-py source distribution,
#     compiled here into a shared library (about 40 s). No prebuilt PyPI library has a newer
#     SQLite with FTS5: apsw's libsqlite3_tool.so (3.54.1) and pyproj 3.8.0's (3.53.4) have
#     neither FTS5 nor R*Tree; rasterio's and pyogrio's have R*Tree only.
# Everything goes in .venv-sqlite/ (git-ignored), and .venv-sqlite/libraries.txt lists the
# libraries, one a line: "<version> <absolute path>". Idempotent: quiet when that is already
# done and each library still loads and has FTS5 and R*Tree; fails with a message otherwise.
# Usage: scripts/other-sqlites.sh   (needs python3 with venv, a C compiler (CC, default cc), PyPI)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=$PWD/.venv-sqlite
LIST=$VENV/libraries.txt
PYPROJ=pyproj==3.7.2
SQLEAN=sqlean-py==3.50.4.5
PINS="$PYPROJ $SQLEAN"
# The SQLite version each pin gives, in the order of libraries.txt.
VERSIONS="3.46.1 3.50.4"
CC=${CC:-cc}
# The SQLite functions seedgen calls: a library lacking one would leave seedgen calling the
# system's for it, with the other library's handles.
FUNCTIONS=$( (grep -rhoE '\bsqlite3_[a-z0-9_]+\(' Sources --include='*.swift' --include='*.c' --include='*.h' || true) |
  tr -d '(' | sort -u | xargs)

# Loads each library given, checks it and prints its "<version> <path>" line; exits 1 when one
# fails to load, lacks a function of FUNCTIONS, or has no FTS5 or R*Tree.
check() {
  FUNCTIONS=$FUNCTIONS python3 - "$@" <<'PY'
import ctypes, os, sys
status = 0
for path in sys.argv[1:]:
    try:
        lib = ctypes.CDLL(path)
        for name in os.environ["FUNCTIONS"].split():
            getattr(lib, name)  # AttributeError: "<path>: undefined symbol: <name>"
        lib.sqlite3_libversion.restype = ctypes.c_char_p
        lib.sqlite3_errmsg.restype = ctypes.c_char_p
        version = lib.sqlite3_libversion().decode()
        missing = [m for m in ("ENABLE_FTS5", "ENABLE_RTREE") if not lib.sqlite3_compileoption_used(m.encode())]
        db = ctypes.c_void_p()
        if lib.sqlite3_open_v2(b":memory:", ctypes.byref(db), 6, None) != 0:
            raise OSError(f"{path}: sqlite3_open_v2 failed")
        for sql in (b"CREATE VIRTUAL TABLE f USING fts5(a)", b"CREATE VIRTUAL TABLE r USING rtree(id, x0, x1)"):
            if lib.sqlite3_exec(db, sql, None, None, None) != 0:
                missing.append(lib.sqlite3_errmsg(db).decode())
        lib.sqlite3_close_v2(db)
    except (OSError, AttributeError) as error:
        print(f"other-sqlites: {error}", file=sys.stderr)  # it names the library
        status = 1
        continue
    if missing:
        print(f"other-sqlites: {path} (SQLite {version}) lacks: {', '.join(missing)}", file=sys.stderr)
        status = 1
    else:
        print(version, path)
sys.exit(status)
PY
}

# Already done: same pins, and every listed library still passes the check with its version.
if [ -f "$LIST" ] && [ "$(cat "$VENV/pins" 2>/dev/null)" = "$PINS" ] &&
   [ "$(cut -d' ' -f1 "$LIST" | xargs)" = "$VERSIONS" ]; then
  mapfile -t listed < <(cut -d' ' -f2- "$LIST")
  check "${listed[@]}" 2>/dev/null | cmp -s - "$LIST" && exit 0
fi

fail() { echo "other-sqlites: $*" >&2; exit 1; }

if [ -f "$VENV/pins" ] && [ "$(cat "$VENV/pins")" != "$PINS" ]; then
  echo "other-sqlites: pins changed: removing $VENV"
  rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
  echo "other-sqlites: creating $VENV"
  python3 -m venv "$VENV" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
fi
echo "$PINS" > "$VENV/pins"
rm -f "$LIST"
PIP=("$VENV/bin/python" -m pip -q --disable-pip-version-check)

# 1. pyproj's wheel, for its bundled libsqlite3 (pyproj itself is not used: no dependencies).
echo "other-sqlites: installing $PYPROJ (its libsqlite3)"
"${PIP[@]}" install --no-deps --only-binary :all: "$PYPROJ" || fail "pip install $PYPROJ failed"
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
libs=("$site"/pyproj.libs/libsqlite3-*.so*)
[ ${#libs[@]} -eq 1 ] && [ -f "${libs[0]}" ] || fail "no single libsqlite3 in $site/pyproj.libs/"
lib1=${libs[0]}

# 2. SQLite from the amalgamation in sqlean-py's source distribution.
version2=${VERSIONS#* }
lib2=$VENV/lib/libsqlite3-$version2.so
if [ ! -f "$lib2" ]; then
  src=$VENV/src
  rm -rf "$src" && mkdir -p "$src"
  echo "other-sqlites: downloading $SQLEAN (source distribution, for its sqlite3.c)"
  "${PIP[@]}" download --no-deps --no-binary :all: -d "$src" "$SQLEAN" || fail "pip download $SQLEAN failed"
  tar -xzf "$src"/*.tar.gz -C "$src" --wildcards '*/sqlite/sqlite3.c' || fail "no sqlite/sqlite3.c in $SQLEAN"
  # sqlean's build takes sqlite.org's amalgamation as released and appends its own start-up hook
  # (src/init.c) after the last line: leave that out.
  amalgamation=$src/sqlite3.c
  sed '/^\/\*\** End of sqlite3\.c \**\*\/$/q' "$src"/*/sqlite/sqlite3.c > "$amalgamation"
  tail -1 "$amalgamation" | grep -q "End of sqlite3.c" || fail "$SQLEAN: sqlite3.c has no end marker"
  grep -q "^#define SQLITE_VERSION  *\"$version2\"" "$amalgamation" || fail "$SQLEAN: sqlite3.c is not SQLite $version2"
  echo "other-sqlites: compiling SQLite $version2 with $CC"
  "$CC" -O2 -fPIC -shared -Wl,-soname,"${lib2##*/}" \
    -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_MATH_FUNCTIONS \
    -o "$lib2.tmp" "$amalgamation" -lm -lpthread -ldl || fail "compiling $amalgamation failed"
  mv "$lib2.tmp" "$lib2"
  rm -rf "$src"
fi

check "$lib1" "$lib2" > "$LIST.tmp" || { rm -f "$LIST.tmp"; fail "a library failed its check (above); rm -rf $VENV to start over"; }
[ "$(cut -d' ' -f1 "$LIST.tmp" | xargs)" = "$VERSIONS" ] ||
  { rm -f "$LIST.tmp"; fail "expected SQLite $VERSIONS, got: $(cut -d' ' -f1 "$LIST.tmp" | xargs)"; }
mv "$LIST.tmp" "$LIST"
echo "other-sqlites: wrote $LIST:"
sed 's/^/  /' "$LIST"
