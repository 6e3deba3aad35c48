"""Load a CSV or Parquet table as columns of strings, keeping the line each row came from."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..errors import InputError


class Table:
    """Columns as numpy string arrays; ``line[k]`` is the file line of row k (header is line 1)."""

    def __init__(self, path: Path, header: list[str], columns: dict[str, np.ndarray], n: int | None = None):
        self.path, self.header, self.columns = path, header, columns
        n = (len(next(iter(columns.values()))) if columns else 0) if n is None else n
        self.line = np.arange(2, n + 2)
        # Dictionary-encoded columns: name -> (codes per row, distinct values); cheap for long repetitive columns.
        self.encoded: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        # Columns kept as Arrow strings (`read_table(arrow=...)`), made numpy strings only if asked for: a number
        # column Arrow parses itself (JoSAA's 19 million preference orders: 3 s of conversions spared).
        self.arrow: dict[str, pa.ChunkedArray] = {}

    def __len__(self) -> int:
        return len(self.line)

    def col_no(self, name: str) -> str:
        return f"{self.header.index(name) + 1} ({name})"

    def error(self, row: int | None, column: str | None, problem: str) -> InputError:
        line = None if row is None else int(self.line[row])
        return InputError(self.path, line, self.col_no(column) if column in self.header else column, problem)

    def has(self, name: str) -> bool:
        return name in self.columns or name in self.arrow

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.columns and name in self.arrow:
            self.columns[name] = self.arrow[name].to_numpy(zero_copy_only=False).astype(str)
        return self.columns[name]


def read_table(path: str | Path, required: list[str], optional: list[str], warn=None, encode=(),
               arrow=()) -> Table:
    """Columns in `encode` come back dictionary-encoded in `Table.encoded` instead of as strings, those in
    `arrow` as Arrow strings in `Table.arrow`. Errors name the physical line (blank lines and quoted line
    breaks counted) and the 1-based column."""
    if _is_frame(path):
        return _from_frame(path, required, optional, warn, encode, arrow)
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, None, "file not found")
    if not path.is_file():
        raise InputError(path, None, None, "is not a regular file (a folder, a pipe or a device)")
    data = None
    try:
        if path.suffix == ".parquet":
            tbl = pq.read_table(path)
            for f in tbl.schema:
                if pa.types.is_nested(f.type) or pa.types.is_binary(f.type):
                    raise InputError(path, None, f"{tbl.schema.names.index(f.name) + 1} ({f.name})",
                                     f"a column of type {f.type}; give text, numbers or booleans")
            tbl = tbl.cast(pa.schema([(f.name, pa.string()) for f in tbl.schema]))
        else:
            data = path.read_bytes()
            _check_utf8(path, data)
            first = data.split(b"\n", 1)[0].decode("utf-8-sig").rstrip("\r")
            names = next(iter(pacsv.read_csv(
                pa.py_buffer((first + "\n").encode()),
                read_options=pacsv.ReadOptions(autogenerate_column_names=True)).to_pylist()), {}).values()
            names = [str(x) for x in names]
            _check_header(path, names)
            tbl = pacsv.read_csv(
                pa.py_buffer(data),
                read_options=pacsv.ReadOptions(use_threads=True),
                convert_options=pacsv.ConvertOptions(
                    column_types={n: pa.string() for n in names}, strings_can_be_null=False),
            )
    except (pa.ArrowException, OSError) as e:
        if data is not None:
            _locate_bad_record(path, data)
        msg = str(e)
        raise InputError(path, None, None, f"cannot be read as a table: {msg.splitlines()[0][:300]}") from None
    t = _columns(path, tbl, required, optional, warn, encode, arrow)
    if data is not None:
        lines = _record_lines(data, tbl.num_rows)
        if lines is not None and len(lines) == tbl.num_rows:
            t.line = lines
    return t


def _is_frame(obj) -> bool:
    return isinstance(obj, pa.Table) or type(obj).__module__.startswith("pandas")


def _from_frame(frame, required, optional, warn, encode, arrow=()) -> Table:
    """A pandas DataFrame or an Arrow table, validated as a file is; messages name it `<DataFrame>` and a row
    by the line it would have in a CSV (row 0 is line 2)."""
    label = Path("<DataFrame>" if not isinstance(frame, pa.Table) else "<Arrow table>")
    try:
        tbl = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame, preserve_index=False)
        for f in tbl.schema:
            if pa.types.is_nested(f.type) or pa.types.is_binary(f.type):
                raise InputError(label, None, f"{tbl.schema.names.index(f.name) + 1} ({f.name})",
                                 f"a column of type {f.type}; give text, numbers or booleans")
        tbl = tbl.cast(pa.schema([(str(f.name), pa.string()) for f in tbl.schema]))
    except (pa.ArrowException, TypeError, ValueError) as e:
        raise InputError(label, None, None, f"cannot be read as a table: {str(e).splitlines()[0][:300]}") from None
    return _columns(label, tbl, required, optional, warn, encode, arrow)


def _columns(path: Path, tbl, required, optional, warn, encode, arrow=()) -> Table:
    """The checked header and the wanted columns of an Arrow table, as strings (or dictionary-encoded)."""
    header = list(tbl.column_names)
    _check_header(path, header)
    for name in required:
        if name not in header:
            raise InputError(path, 1, None, f"missing required column {name!r} (header has {header})")
    unknown = [h for h in header if h not in required and h not in optional]
    if unknown and warn:
        warn(f"{path}: ignoring unknown columns {unknown}")
    cols, coded, kept = {}, {}, {}
    for name in header:
        if name in required or name in optional:
            col = pc.utf8_trim_whitespace(pc.fill_null(tbl.column(name), ""))
            if name in arrow:
                kept[name] = col
            elif name in encode:
                enc = pc.dictionary_encode(col).combine_chunks()
                coded[name] = (enc.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                               enc.dictionary.to_numpy(zero_copy_only=False).astype(str))
            else:
                cols[name] = col.to_numpy(zero_copy_only=False).astype(str)
    t = Table(path, header, cols, tbl.num_rows)
    t.encoded, t.arrow = coded, kept
    return t


def _check_utf8(path: Path, data: bytes) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        column = data[line_start:e.start].count(b",") + 1
        raise InputError(path, data.count(b"\n", 0, e.start) + 1, column,
                         f"not UTF-8 (byte 0x{data[e.start]:02x}); save the file as UTF-8") from None


def _check_header(path: Path, names: list[str]) -> None:
    seen: dict[str, int] = {}
    for k, name in enumerate(names, 1):
        if name in seen:
            raise InputError(path, 1, f"{k} ({_short(name)})", f"column {_short(name)!r} appears twice (also "
                             f"column {seen[name]})")
        seen[name] = k


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _record_lines(data: bytes, records: int) -> np.ndarray | None:
    """The physical line on which each record after the header starts, where blank lines or quoted line breaks
    make it differ from its position; None when every record is one line (the common, fast case: as many
    lines as records and a header, which a count of line ends tells without parsing; quoted fields alone, as
    many writers quote every field, do not make a record span lines)."""
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if lines == records + 1 or (b'"' not in data and b"\n\n" not in data and b"\n\r\n" not in data):
        return None
    starts = []
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))
    prev, header = 0, False
    for row in reader:
        if row:   # (csv gives [] for a blank line, which Arrow skips)
            if header:
                starts.append(prev + 1)
            header = True
        prev = reader.line_num
    return np.array(starts, dtype=np.int64)


def _locate_bad_record(path: Path, data: bytes) -> None:
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
