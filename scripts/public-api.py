#!/usr/bin/env python3
"""Lists the public and open declarations of Swift modules and which lack a doc comment.

A declaration is documented when a `///` line (or the end of a `/** */` block) is right above
it, lines of attributes (`@inlinable`, `@available(...)`) skipped. Members of a public type count only when they are themselves public or open (a
`public extension` makes its members public too).

    scripts/public-api.py                      counts for every module under Sources/
    scripts/public-api.py --list SeedUpdater   each undocumented declaration, file:line
    scripts/public-api.py --check SeedInstaller SeedUpdater
                                               exits 1 when any of them lacks a doc comment
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources")

KEYWORDS = r"(?:func|init|init\?|init!|subscript|var|let|case|struct|class|enum|protocol|actor|typealias|extension|associatedtype|static|final|mutating|nonmutating|override|convenience|required|indirect|nonisolated|consuming|borrowing|lazy|dynamic|unowned|weak)"
# `public`/`open` (not `public(set)` alone), then what it declares.
DECLARATION = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:final|static|class|override|nonisolated|convenience|required|mutating|indirect)\s+)*(public|open)(?:\(set\))?\s+(?:(?:final|static|class|override|nonisolated|convenience|required|mutating|indirect|private\(set\)|internal\(set\)|package\(set\)|fileprivate\(set\))\s+)*(\w+\??)")
ATTRIBUTE = re.compile(r"^\s*@[\w.]+(\(.*\))?\s*$")
PUBLIC_EXTENSION = re.compile(r"^\s*public\s+extension\b")
MEMBER = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:static|class|final|override|mutating|nonisolated|convenience|required)\s+)*(func|init|var|let|subscript|case|struct|class|enum|typealias)\b")
NOT_PUBLIC = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:\w+\s+)*(private|fileprivate|internal|package)\b(?!\()")


def declarations(path):
    """(line number, text, documented) for each public or open declaration of one file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    depth = 0
    public_extension_depth = None  # brace depth inside a `public extension`
    in_block_comment = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if in_block_comment:
            if "*/" in stripped:
                in_block_comment = False
            continue
        if stripped.startswith("/*") and "*/" not in stripped:
            in_block_comment = True
            continue
        if stripped.startswith("//"):
            continue
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("//")[0] if '"' not in line else line)
        is_public = False
        if not stripped.startswith("#") and DECLARATION.match(line) and not PUBLIC_EXTENSION.match(line) \
                and not re.match(r"^\s*(?:public|open)\s+(?:import|extension)\b", line) \
                and not re.match(r"^\s*extension\b", line):
            is_public = True
        elif public_extension_depth is not None and depth == public_extension_depth and MEMBER.match(line) \
                and not NOT_PUBLIC.match(line):
            is_public = True
        if is_public:
            found.append((number, stripped, documented(lines, number - 1)))
        if PUBLIC_EXTENSION.match(line):
            public_extension_depth = depth + 1
        depth += code.count("{") - code.count("}")
        if public_extension_depth is not None and depth < public_extension_depth:
            public_extension_depth = None
    return found


def documented(lines, index):
    """True when a doc comment ends right above line `index` (attributes skipped)."""
    i = index - 1
    while i >= 0 and ATTRIBUTE.match(lines[i]):
        i -= 1
    if i < 0:
        return False
    above = lines[i].strip()
    if above.startswith("///"):
        return True
    if not above.endswith("*/"):
        return False
    while i >= 0 and "/*" not in lines[i]:
        i -= 1
    return i >= 0 and "/**" in lines[i]


def module_files(module):
    folder = os.path.join(SOURCES, module)
    for directory, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", nargs="+", metavar="MODULE", help="exit 1 when a declaration of these modules lacks a doc comment")
    parser.add_argument("--list", nargs="+", metavar="MODULE", help="list the undocumented declarations of these modules")
    args = parser.parse_args()
    modules = args.check or args.list or sorted(
        m for m in os.listdir(SOURCES) if os.path.isdir(os.path.join(SOURCES, m)) and any(module_files(m)))
    missing_total = 0
    for module in modules:
        if not os.path.isdir(os.path.join(SOURCES, module)):
            sys.exit(f"public-api.py: no module {module} under Sources/")
        total = missing = 0
        for path in module_files(module):
            for number, text, ok in declarations(path):
                total += 1
                if not ok:
                    missing += 1
                    if args.check or args.list:
                        print(f"{os.path.relpath(path, ROOT)}:{number}: {text}")
        print(f"{module}: {total} public declarations, {missing} without a doc comment")
        missing_total += missing
    if args.check and missing_total:
        sys.exit(1)


if __name__ == "__main__":
    main()
