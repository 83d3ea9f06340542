#!/usr/bin/env python3
"""Writes into README.md the summary `make example` prints: the fenced block after the line
`<!-- the output of make example: written by make readme -->`. ReadmeTests (SeedGenTests)
builds the same feed and fails when the block differs from what seedgen prints now (the time
and the rate aside).

Usage: scripts/readme-example.py SEEDGEN   (from the repository root; `make readme` runs it)
"""
import pathlib
import subprocess
import sys

MARKER = "<!-- the output of make example: written by make readme -->"


def main() -> int:
    seedgen = sys.argv[1] if len(sys.argv) > 1 else ".build/release/seedgen"
    pathlib.Path("out").mkdir(exist_ok=True)
    # The command `make example` runs, so the block is what a reader sees.
    summary = subprocess.run([seedgen, "build", "examples/cairns", "--out", "out/cairns.sqlite"],
                             check=True, capture_output=True, text=True).stdout.rstrip("\n")
    readme = pathlib.Path("README.md")
    lines = readme.read_text().split("\n")
    start = lines.index(MARKER) + 1
    if lines[start] != "```":
        sys.exit(f"README.md: the line after the marker must open a fenced block, not {lines[start]!r}")
    end = lines.index("```", start + 1)
    lines[start + 1:end] = summary.split("\n")
    readme.write_text("\n".join(lines))
    print(f"README.md: the example's summary, {len(summary.splitlines())} lines, written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
