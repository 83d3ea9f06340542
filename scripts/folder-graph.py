#!/usr/bin/env python3
"""Which folders of a Swift module use which: the import graph of SeedKit's folders.

Swift files of one module import nothing from each other, so a folder "uses" another when one
of its files names a type, protocol or top-level function that the other declares (extensions
of it included). Comments and string literals are left out.

    scripts/folder-graph.py                      # Sources/SeedKit: the graph, as Markdown
    scripts/folder-graph.py --check              # exit 1 if a folder uses a later stage, or
                                                 # two folders use each other
    scripts/folder-graph.py --why Load/CSV State # the names one folder uses of another

The order of the pipeline (ORDER below) is the order data flows; the shared folders come
first, the stages after them in the order SeedBuilder runs them, the builder last. A folder
may use the folders before it, never one after it.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "SeedKit")

# Below the stages: what every stage shares, the least dependent first. Then the stages in
# the order they run, then the builder that runs them. A folder may use those before it.
ORDER = [
    "Support", "Values", "Schema", "Input", "State", "Resolve", "Previous",
    "Load/CSV", "Load/GeoJSON", "Load/XML", "Load/PBF", "Stage", "Load",
    "GTFSCheck", "StableIDs", "Derive", "Index", "Finish",
    "Draft", "Builder",
]

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect|nonisolated)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias|func)\s+([A-Za-z_]\w*)",
    re.M)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


def strip(text):
    """The code without comments and string literals."""
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r"/\*[\s\S]*?\*/", " ", text)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def folder_of(path):
    relative = os.path.relpath(os.path.dirname(path), ROOT)
    return "." if relative == "." else relative


def read(root):
    files = {}
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as f:
                    files[path] = strip(f.read())
    return files


def graph(root=ROOT):
    files = read(root)
    declared = {}  # name -> folder (top-level declarations only: no indentation)
    for path, text in files.items():
        for match in DECLARATION.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            if match.start() == line_start:
                declared.setdefault(match.group(1), folder_of(path))
    uses = defaultdict(lambda: defaultdict(set))  # folder -> used folder -> names
    for path, text in files.items():
        folder = folder_of(path)
        for name in set(IDENTIFIER.findall(text)):
            other = declared.get(name)
            if other and other != folder:
                uses[folder][other].add(name)
    return uses


def rank(folder):
    return ORDER.index(folder) if folder in ORDER else len(ORDER)


def problems(uses):
    found = []
    folders = set(uses) | {o for u in uses.values() for o in u}
    for folder in sorted(folders - set(ORDER) - {"."}):
        found.append(f"{folder}: not in the pipeline's order (scripts/folder-graph.py ORDER)")
    for folder, used in sorted(uses.items()):
        for other, names in sorted(used.items()):
            if rank(other) > rank(folder):
                found.append(f"{folder} uses {other}, which comes after it: {', '.join(sorted(names)[:6])}")
    return found


def markdown(uses):
    lines = ["| folder | uses |", "|---|---|"]
    present = {folder_of(path) for path in read(ROOT)} - {"."}
    for folder in sorted(present, key=rank):
        used = sorted(uses[folder], key=rank)
        lines.append(f"| `{folder}` | {', '.join(f'`{u}`' for u in used) or '(none)'} |")
    return "\n".join(lines)


def main(argv):
    uses = graph()
    if argv[:1] == ["--why"] and len(argv) == 3:
        print("\n".join(sorted(uses[argv[1]][argv[2]])))
        return 0
    if argv[:1] == ["--check"]:
        found = problems(uses)
        for line in found:
            print(line)
        print(f"{len(found)} problem(s) in {len(uses)} folders")
        return 1 if found else 0
    print(markdown(uses))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
