"""A CSV file's own bytes and lines, for the messages that name a line: the file mapped (not copied), its line
ends counted, the physical line each record starts on, the line of a malformed record, and the first byte that
is not UTF-8."""
from __future__ import annotations

import csv
import io
import mmap
import os
from pathlib import Path

import numpy as np

from ..errors import InputError


def mapped(path: Path) -> "mmap.mmap | bytes":
    """The file's bytes, mapped from the page cache rather than read into a copy (JoSAA's preferences are 408
    MB, and fresh pages are what a read costs on a slow machine); b"" for an empty file, which cannot be
    mapped. The caller closes it."""
    with open(path, "rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if os.fstat(f.fileno()).st_size else b""


def line_ends(data) -> int:
    """How many line ends (b"\\n") `data` holds, counted a block at a time by numpy, outside the interpreter's
    lock (bytes.count held it 0.24 s over JoSAA's 408 MB, while the main thread read the other files)."""
    a = np.frombuffer(data, np.uint8)
    count = sum(int(np.count_nonzero(a[s:s + _BLOCK] == 10)) for s in range(0, len(a), _BLOCK))
    del a      # (a view of the map: it would keep the map from closing)
    return count


_BLOCK = 1 << 24


def check_utf8(path: Path, data: bytes) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        column = data[line_start:e.start].count(b",") + 1
        raise InputError(path, data.count(b"\n", 0, e.start) + 1, column,
                         f"not UTF-8 (byte 0x{data[e.start]:02x}); save the file as UTF-8") from None


def record_lines(data, records: int) -> np.ndarray | None:
    """The physical line on which each record after the header starts, where blank lines or quoted line breaks
    make it differ from its position; None when every record is one line (the common, fast case: as many
    lines as records and a header, which a count of line ends tells without parsing; quoted fields alone, as
    many writers quote every field, do not make a record span lines)."""
    if b'"' not in data and b"\n\n" not in data and b"\n\r\n" not in data:
        return None
    if line_ends(data) + (data[-1:] != b"\n") == records + 1:
        return None
    starts = []
    reader = csv.reader(io.StringIO(bytes(data).decode("utf-8-sig"), newline=""))
    prev, header = 0, False
    for row in reader:
        if row:   # (csv gives [] for a blank line, which Arrow skips)
            if header:
                starts.append(prev + 1)
            header = True
        prev = reader.line_num
    return np.array(starts, dtype=np.int64)


def locate_bad_record(path: Path, data: bytes) -> None:
    """Arrow names no line for a malformed record: find it (wrong number of fields, an unclosed quote)."""
    text = data.decode("utf-8-sig", errors="replace")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    prev, width = 0, None
    try:
        for row in reader:
            if not row:
                prev = reader.line_num
                continue
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise InputError(path, prev + 1, min(len(row), width) + 1,
                                 f"{len(row)} fields where the header has {width}")
            prev = reader.line_num
    except csv.Error as e:
        raise InputError(path, prev + 1, None, f"malformed CSV record ({e}; an unclosed quote?)") from None
