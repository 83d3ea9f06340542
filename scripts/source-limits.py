#!/usr/bin/env python3
"""Checks the size limits of Sources/: no line over 120 columns (characters), no file over 400
lines, no function (func, init, deinit, subscript, computed property) over 80 lines.

    scripts/source-limits.py          lists what is over a limit and the counts
    scripts/source-limits.py --check  the same; exits 1 when anything is over

Function bodies are measured from the declaration's first line to its closing brace, with
string literals (single-line, multi-line, raw) and comments blanked first, so braces inside
them do not count.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MAX_COLUMNS, MAX_FILE_LINES, MAX_FUNCTION_LINES = 120, 400, 80
DECLARATION = re.compile(
    r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*'
    r'(?:(?:public|package|internal|private|fileprivate|open|static|final|override|mutating|nonmutating|'
    r'nonisolated|convenience|required|class)(?:\([^)]*\))?\s+)*'
    r'(func\s|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<]|(?:var|let)\s+\w+\s*:[^=]*\{\s*$)')


def blank_strings_and_comments(text):
    """The text with string literal contents and comments replaced by spaces (newlines kept);
    the code of interpolations is kept."""
    out, n = [], len(text)

    def literal(i, delimiter, hashes):
        close = delimiter + '#' * hashes
        while i < n:
            if text.startswith(close, i):
                out.append(' ' * len(close))
                return i + len(close)
            if text[i] == '\\' and text.startswith('#' * hashes, i + 1):
                j = i + 1 + hashes
                if j < n and text[j] == '(':
                    out.append(' ' * (j - i + 1))
                    i = code(j + 1, True)
                    continue
                if j < n and text[j] != '\n':
                    out.append(' ' * (j - i + 1))
                    i = j + 1
                else:
                    out.append(' ' * (j - i))
                    i = j
                continue
            out.append('\n' if text[i] == '\n' else ' ')
            i += 1
        return i

    def code(i, in_interpolation):
        depth = 0
        while i < n:
            c = text[i]
            if in_interpolation and c == '(':
                depth += 1
            elif in_interpolation and c == ')':
                if depth == 0:
                    out.append(' ')
                    return i + 1
                depth -= 1
            if text.startswith('//', i):
                j = text.find('\n', i)
                j = n if j < 0 else j
                out.append(' ' * (j - i))
                i = j
                continue
            if text.startswith('/*', i):
                j = text.find('*/', i)
                j = n if j < 0 else j + 2
                out.append(''.join('\n' if ch == '\n' else ' ' for ch in text[i:j]))
                i = j
                continue
            hashes = 0
            while i + hashes < n and text[i + hashes] == '#':
                hashes += 1
            if i + hashes < n and text[i + hashes] == '"':
                j = i + hashes
                delimiter = '"""' if text.startswith('"""', j) else '"'
                out.append(' ' * (hashes + len(delimiter)))
                i = literal(j + len(delimiter), delimiter, hashes)
                continue
            out.append(c)
            i += 1
        return i

    code(0, False)
    return ''.join(out)


def long_functions(lines, blanked):
    found = []
    for i, line in enumerate(lines):
        if not DECLARATION.match(blanked[i]):
            continue
        depth, opened = 0, False
        for j in range(i, len(lines)):
            for ch in blanked[j]:
                if ch == '{':
                    depth, opened = depth + 1, True
                elif ch == '}':
                    depth -= 1
            if opened and depth <= 0:
                if j - i + 1 > MAX_FUNCTION_LINES:
                    found.append((j - i + 1, i + 1, line.strip()[:70]))
                break
            if not opened and j > i + 8:
                break  # a declaration without a body (a protocol requirement)
    return found


def main():
    long_lines, big_files, functions = [], [], []
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, 'Sources'))):
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(folder, name)
            shown = os.path.relpath(path, ROOT)
            text = open(path, encoding='utf-8').read()
            lines = text.split('\n')
            if lines and lines[-1] == '':
                lines.pop()
            blanked = blank_strings_and_comments(text).split('\n')
            if len(lines) > MAX_FILE_LINES:
                big_files.append(f'{shown}: {len(lines)} lines')
            long_lines += [f'{shown}:{i + 1}: {len(l)} columns' for i, l in enumerate(lines) if len(l) > MAX_COLUMNS]
            functions += [f'{shown}:{line}: {count} lines: {head}' for count, line, head in
                          long_functions(lines, blanked)]
    for title, items in [(f'lines over {MAX_COLUMNS} columns', long_lines),
                         (f'files over {MAX_FILE_LINES} lines', big_files),
                         (f'functions over {MAX_FUNCTION_LINES} lines', functions)]:
        print(f'{title}: {len(items)}')
        for item in items:
            print('  ' + item)
    if '--check' in sys.argv and (long_lines or big_files or functions):
        print('over the limits of Documentation/layout.md (Limits): split them', file=sys.stderr)
        sys.exit(1)


main()
