"""A GTFS file as Python's csv module reads it, for the independent reference scripts
(gtfs_reference.py, journey_reference.py): UTF-8 with or without a byte order mark (bytes that
are not UTF-8 replaced), blank lines skipped, header names and values stripped of padding, no
limit on a field's size. An absent or empty file is no rows."""

import csv
import os
import sys

csv.field_size_limit(sys.maxsize)


def read(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return []
    with open(path, newline='', encoding='utf-8-sig', errors='replace') as f:
        rows = [row for row in csv.reader(f) if row]
    if not rows:
        return []
    header = [name.strip() for name in rows[0]]
    return [dict(zip(header, (value.strip() for value in row))) for row in rows[1:]]
