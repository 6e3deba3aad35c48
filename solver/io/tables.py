"""Load a CSV or Parquet table as columns of strings, keeping the line each row came from."""
from __future__ import annotations

import mmap
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..errors import InputError
from .lines import check_utf8, locate_bad_record, mapped, record_lines


class Table:
    """Columns as numpy string arrays; ``line[k]`` is the file line of row k (header is line 1)."""

    def __init__(self, path: Path, header: list[str], columns: dict[str, np.ndarray], n: int | None = None):
        self.path, self.header, self.columns = path, header, columns
        self.n = (len(next(iter(columns.values()))) if columns else 0) if n is None else n
        self._line: np.ndarray | None = None
        # Dictionary-encoded columns (`Encoded`): cheap for long repetitive columns.
        self.encoded: dict[str, Encoded] = {}
        # Number columns kept as Arrow arrays (`read_table(numbers=...)`): parsed by Arrow as integers where every
        # cell is one, else Arrow strings; made numpy strings only if asked for (an error message). JoSAA's 19
        # million preference orders: 3 s of conversions spared.
        self.arrow: dict[str, pa.ChunkedArray] = {}

    @property
    def line(self) -> np.ndarray:
        """The file line of each row (header is line 1); made when first asked for, as most reads need none."""
        if self._line is None:
            self._line = np.arange(2, self.n + 2)
        return self._line

    @line.setter
    def line(self, value: np.ndarray) -> None:
        self._line = value

    def __len__(self) -> int:
        return self.n

    def col_no(self, name: str) -> str:
        return f"{self.header.index(name) + 1} ({name})"

    def error(self, row: int | None, column: str | None, problem: str) -> InputError:
        line = None if row is None else int(self.line[row])
        return InputError(self.path, line, self.col_no(column) if column in self.header else column, problem)

    def has(self, name: str) -> bool:
        return name in self.columns or name in self.arrow

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.columns and name in self.arrow:
            self.columns[name] = _strings(self.arrow[name])
        return self.columns[name]


class Encoded:
    """A dictionary-encoded column as Arrow read it: chunk by chunk (Parquet's row groups, Arrow's CSV blocks),
    each chunk's codes (read in place from Arrow's buffer) into its own dictionary, the dictionaries end to end
    in `values`. Values are trimmed text, and may repeat: two codes may stand for one value.

    Example
    -------
    >>> col = pa.chunked_array([pa.array(["b", "a", "b"]).dictionary_encode(), pa.array([" a"]).dictionary_encode()])
    >>> enc = Encoded.of(col)
    >>> enc.values.tolist(), enc.take(np.array([10, 11, 12])).tolist(), enc.value(3)
    (['b', 'a', 'a'], [10, 11, 10, 12], 'a')
    """

    def __init__(self, chunks: list[np.ndarray], offsets: list[int], values: np.ndarray):
        self.chunks, self.offsets, self.values = chunks, offsets, values
        self.n = sum(len(c) for c in chunks)

    @classmethod
    def of(cls, col: pa.ChunkedArray) -> "Encoded":
        if not pa.types.is_dictionary(col.type):
            col = pc.dictionary_encode(_text(col))
        sizes = [len(arr.dictionary) for arr in col.chunks]
        total = sum(sizes)
        offsets = np.r_[0, np.cumsum(sizes, dtype=np.int64)].tolist()
        chunks = []
        for arr, at in zip(col.chunks, offsets):
            # (a null cell: the value "" put after every dictionary's)
            chunks.append(numbers_of(arr.indices.fill_null(total - at)) if arr.null_count else numbers_of(arr.indices))
        values = _strings(_text(pa.chunked_array([arr.dictionary for arr in col.chunks], pa.string())))
        if col.null_count:
            values = np.r_[values, np.array([""])]
        return cls(chunks, offsets, values)

    def take(self, table: np.ndarray) -> np.ndarray:
        """`table[v]` for the value v of every cell (`table`: one entry per value), written chunk by chunk into
        one array: no array of codes for all rows."""
        out = np.empty(self.n, dtype=table.dtype)
        r = 0
        for codes, at in zip(self.chunks, self.offsets):
            np.take(table[at:], codes, out=out[r:r + len(codes)], mode="clip")   # (codes are in range)
            r += len(codes)
        return out

    def value(self, row: int) -> str:
        """The value of one cell."""
        for codes, at in zip(self.chunks, self.offsets):
            if row < len(codes):
                return str(self.values[at + int(codes[row])])
            row -= len(codes)
        raise IndexError(row)


def read_table(path: str | Path, required: list[str], optional: list[str], warn=None, encode=(),
               numbers=()) -> Table:
    """Columns in `encode` come back dictionary-encoded in `Table.encoded` instead of as strings, those in
    `numbers` as Arrow arrays in `Table.arrow` (integers where Arrow could parse every cell as one, else
    strings). Errors name the physical line (blank lines and quoted line breaks counted) and the 1-based
    column."""
    if _is_frame(path):
        return _from_frame(path, required, optional, warn, encode, numbers)
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, None, "file not found")
    if not path.is_file():
        raise InputError(path, None, None, "is not a regular file (a folder, a pipe or a device)")
    data = None
    try:
        if path.suffix == ".parquet":
            meta = pq.read_metadata(path)
            names = meta.schema.to_arrow_schema().names
            # String columns to be encoded come dictionary-encoded from the file: no 19-million-string column.
            # (`ParquetFile`, not `read_table`: that goes through pyarrow.dataset, which imports pandas, 0.7 s.)
            tbl = pq.ParquetFile(path, read_dictionary=[n for n in encode if n in names]).read(
                use_threads=meta.num_rows >= THREADED_ROWS)
            tbl = _plain(tbl, keep=encode)
            _check_types(path, tbl)
        else:
            data = mapped(path)
            end = data.find(b"\n")
            try:
                first = data[:end if end >= 0 else len(data)].decode("utf-8-sig").rstrip("\r")
            except UnicodeDecodeError:
                check_utf8(path, bytes(data))
                raise
            header = pacsv.read_csv(pa.py_buffer((first + "\n").encode()), read_options=pacsv.ReadOptions(
                autogenerate_column_names=True, use_threads=False))
            names = [str(x) for x in next(iter(header.to_pylist()), {}).values()]
            _check_header(path, names)
            tbl = _read_csv(path, names, encode, numbers)
        if data is not None:
            lines = record_lines(data, tbl.num_rows)
    except (pa.ArrowException, OSError) as e:
        if data is not None:
            check_utf8(path, bytes(data))   # (Arrow checks UTF-8 too, but names no line)
            locate_bad_record(path, bytes(data))
        raise InputError(path, None, None, f"cannot be read as a table: {str(e).splitlines()[0][:300]}") from None
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
    t = _columns(path, tbl, required, optional, warn, encode, numbers)
    if data is not None and lines is not None and len(lines) == tbl.num_rows:
        t.line = lines
    return t


def release_arrow_memory() -> None:
    """Hand back to the system what Arrow's allocator keeps for reuse once the tables read are gone: nothing
    after the read parses (JoSAA's preferences: 830 MB)."""
    pa.default_memory_pool().release_unused()


def _read_csv(path: Path, names: list[str], encode, numbers) -> pa.Table:
    """Every column as text, except that columns to be encoded are read dictionary-encoded and number columns
    as integers, where the file allows (JoSAA's preferences: 1.5 s against 6 s as strings); a cell Arrow will not
    read so (a blank, a decimal, a space) sends the whole file through as text, for the messages to name it.
    Arrow maps the file itself (a Python-owned buffer made a process abort at exit now and then)."""
    threads = _threaded(path)

    def read(types):
        with pa.memory_map(str(path)) as source:   # (tests/package/test_clean_exit.py)
            return pacsv.read_csv(source, read_options=pacsv.ReadOptions(use_threads=threads),
                                  convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False))
    text = {n: pa.string() for n in names}
    typed = dict(text) | {n: pa.dictionary(pa.int32(), pa.string()) for n in encode if n in text} | \
        {n: pa.int64() for n in numbers if n in text}
    if typed != text:
        try:
            tbl = read(typed)
            if not any(tbl.column(n).null_count for n in numbers if n in text):
                return tbl
        except pa.ArrowInvalid:
            pass
    return read(text)


# A CSV file smaller than this, or a Parquet file of fewer rows, is parsed in the thread that reads it: Arrow's
# threads are one pool for the process, and a small file's blocks queued behind the choices' (parsed in the
# background: `io.readers.read_problem`) made JoSAA's 4,636-line vacancies.csv take 0.8 s, against 0.05 s parsed
# in place. (Parquet by rows: JoSAA's 19.4 million choices are 27 MB, read in 0.2-0.5 s threaded, 0.8-1.0 s not.)
THREADED_BYTES, THREADED_ROWS = 64 << 20, 1 << 21


def _threaded(path: Path) -> bool:
    return path.stat().st_size >= THREADED_BYTES


def _is_frame(obj) -> bool:
    return isinstance(obj, pa.Table) or type(obj).__module__.startswith("pandas")


def source_name(given) -> str:
    """How messages and the provenance name an input: a file by its path, a table by its kind."""
    if isinstance(given, pa.Table):
        return "<Arrow table>"
    return "<DataFrame>" if type(given).__module__.startswith("pandas") else str(given)


def _from_frame(frame, required, optional, warn, encode, numbers=()) -> Table:
    """A pandas DataFrame or an Arrow table, validated as a file is; messages name it `<DataFrame>` and a row
    by the line it would have in a CSV (row 0 is line 2)."""
    label = Path(source_name(frame))
    try:
        tbl = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame, preserve_index=False)
        tbl = _plain(tbl.rename_columns([str(n) for n in tbl.column_names]))
    except (pa.ArrowException, TypeError, ValueError) as e:
        raise InputError(label, None, None, f"cannot be read as a table: {str(e).splitlines()[0][:300]}") from None
    _check_types(label, tbl)
    try:
        return _columns(label, tbl, required, optional, warn, encode, numbers)
    except pa.ArrowException as e:   # (a column Arrow cannot make text of)
        raise InputError(label, None, None, f"cannot be read as a table: {str(e).splitlines()[0][:300]}") from None


def _plain(tbl: pa.Table, keep=()) -> pa.Table:
    """A frame's columns as a file would give them: a categorical (dictionary) column as its text, a large
    string as a string, and a date, or a timestamp that is a date (midnight throughout), as YYYY-MM-DD. The
    dictionary columns named in `keep` (read so on purpose) stay as they are: cast to text, JoSAA's choices were
    19 million strings made and dropped (0.24 s)."""
    cols = []
    for f, col in zip(tbl.schema, tbl.columns):
        t = f.type
        if f.name in keep and pa.types.is_dictionary(t):
            pass
        elif pa.types.is_dictionary(t) and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)):
            col = col.cast(pa.string())
        elif pa.types.is_large_string(t):
            col = col.cast(pa.string())
        elif pa.types.is_timestamp(t):
            day = col.cast(pa.date32())
            if pc.all(pc.equal(day.cast(t), col)).as_py() in (True, None):
                col = day.cast(pa.string())
        elif pa.types.is_date(t):
            col = col.cast(pa.string())
        cols.append(col)
    return pa.table(cols, names=tbl.column_names)


def _check_types(path: Path, tbl: pa.Table) -> None:
    for f in tbl.schema:
        if pa.types.is_nested(f.type) or pa.types.is_binary(f.type) or (
                pa.types.is_dictionary(f.type) and not pa.types.is_string(f.type.value_type)):
            raise InputError(path, None, f"{tbl.schema.names.index(f.name) + 1} ({f.name})",
                             f"a column of type {f.type}; give text, numbers or booleans")


def _text(col: pa.ChunkedArray) -> pa.ChunkedArray:
    """A column as trimmed text, a missing cell (Parquet, a DataFrame) empty."""
    if not pa.types.is_string(col.type):
        col = col.cast(pa.string())
    if col.null_count:   # (only then: Arrow's fill value imports pandas, 0.2 s of every run)
        col = pc.fill_null(col, "")
    return pc.utf8_trim_whitespace(col)


def numbers_of(col) -> np.ndarray:
    """An Arrow column of integers or floats without nulls as a numpy array, read from its buffer: Arrow's
    `to_numpy` imports pandas (0.4 s of every run). Others go through `to_numpy`."""
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    if arr.null_count or not (pa.types.is_integer(arr.type) or pa.types.is_floating(arr.type)):
        return col.to_numpy(zero_copy_only=False)
    dtype = np.dtype({"double": "float64", "float": "float32", "halffloat": "float16"}.get(str(arr.type),
                                                                                          str(arr.type)))
    return np.frombuffer(arr.buffers()[1], dtype=dtype)[arr.offset:arr.offset + len(arr)]


def _strings(col) -> np.ndarray:
    """An Arrow column as a numpy string array, through Python strings: Arrow's own `to_numpy` of text
    imports pandas (0.4 s of every run that reads a file)."""
    return np.array(col.to_pylist(), dtype=str) if len(col) else np.zeros(0, dtype=str)


def _columns(path: Path, tbl, required, optional, warn, encode, numbers=()) -> Table:
    """The checked header and the wanted columns of an Arrow table, as strings (or dictionary-encoded, or kept
    as Arrow numbers)."""
    header = list(tbl.column_names)
    _check_header(path, header)
    for name in required:
        if name not in header:
            raise InputError(path, 1, None, f"missing required column {name!r} (header has {header})")
    unknown = [h for h in header if h not in required and h not in optional]
    if unknown and warn:
        warn(f"{path}: ignoring unknown columns {unknown}")
    cols, coded, kept, unseen = {}, {}, {}, []
    for name in header:
        if name in required or name in optional:
            bad = _read_column(name, tbl.column(name), encode, numbers, cols, coded, kept)
            if bad is not None:
                unseen.append(bad)
    t = Table(path, header, cols, tbl.num_rows)
    t.encoded, t.arrow = coded, kept
    if unseen:
        row, name, char = min(unseen)
        raise t.error(row, name, f"a {'bidirectional control' if ord(char) > 0x7f else 'control'} character "
                      f"(U+{ord(char):04X}) in the cell: " + ("it makes the text display otherwise than it reads"
                                                               if ord(char) > 0x7f else "the file is damaged, or not text"))
    return t


def _read_column(name: str, col, encode, numbers, cols: dict, coded: dict, kept: dict):
    """One wanted column into its dict (text, dictionary-encoded, or Arrow numbers); returns the first cell
    holding an `INVISIBLE` character (row, name, character), or None."""
    bad = None
    if name in encode:
        # (the dictionaries first: a few thousand values; the cells only where one of them is bad)
        values = pa.chunked_array([c.dictionary for c in col.chunks]) if pa.types.is_dictionary(col.type) else col
        if _invisible(values) is not None:
            bad = _first_invisible(col.cast(pa.string()), name)
        coded[name] = Encoded.of(col)
    elif name in numbers:
        kept[name] = col if pa.types.is_integer(col.type) or pa.types.is_floating(col.type) else _text(col)
    else:
        text = _text(col)
        if _invisible(text) is not None:
            bad = _first_invisible(text, name)
        cols[name] = _strings(text)
    return bad


# Characters a cell may not hold: C0 controls and DEL (a tab and quoted line breaks aside), which no id, post
# or category has and a damaged file does; and the bidirectional embeddings, overrides and isolates, which make
# an id display otherwise than it reads ("Trojan Source", CVE-2021-42574) in a list a court or candidate reads.
INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
_INVISIBLE_RE2 = "[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f\\x{202a}-\\x{202e}\\x{2066}-\\x{2069}]"


def _invisible(col) -> pa.ChunkedArray | None:
    """Which cells of a text column hold an `INVISIBLE` character, or None where none does (Arrow's regex over
    the column, on Arrow's text: a numpy string array would drop a trailing NUL unseen)."""
    hits = pc.match_substring_regex(col, _INVISIBLE_RE2)
    return hits if pc.any(hits).as_py() else None


def _first_invisible(col, name: str) -> tuple[int, str, str]:
    """The first row holding an `INVISIBLE` character, the column's name and the character."""
    row = pc.index(_invisible(col), True).as_py()
    return row, name, INVISIBLE.search(col[row].as_py()).group()


def _check_header(path: Path, names: list[str]) -> None:
    seen: dict[str, int] = {}
    for k, name in enumerate(names, 1):
        if name in seen:
            raise InputError(path, 1, f"{k} ({_short(name)})", f"column {_short(name)!r} appears twice (also "
                             f"column {seen[name]})")
        seen[name] = k


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
