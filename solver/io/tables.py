"""Load a CSV or Parquet table as columns of strings, keeping the line each row came from."""
from __future__ import annotations

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

    def __len__(self) -> int:
        return len(self.line)

    def col_no(self, name: str) -> str:
        return f"{self.header.index(name) + 1} ({name})"

    def error(self, row: int | None, column: str | None, problem: str) -> InputError:
        line = None if row is None else int(self.line[row])
        return InputError(self.path, line, self.col_no(column) if column in self.header else column, problem)

    def has(self, name: str) -> bool:
        return name in self.columns

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]


def read_table(path: str | Path, required: list[str], optional: list[str], warn=None, encode=()) -> Table:
    """Columns in `encode` come back dictionary-encoded in `Table.encoded` instead of as strings."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, None, None, "file not found")
    try:
        if path.suffix == ".parquet":
            tbl = pq.read_table(path)
            tbl = tbl.cast(pa.schema([(f.name, pa.string()) for f in tbl.schema]))
        else:
            with open(path, "rb") as fh:
                first = fh.readline().decode("utf-8-sig").rstrip("\r\n")
            names = next(iter(pacsv.read_csv(
                pa.py_buffer((first + "\n").encode()),
                read_options=pacsv.ReadOptions(autogenerate_column_names=True)).to_pylist()), {}).values()
            names = [str(x) for x in names]
            tbl = pacsv.read_csv(
                path,
                read_options=pacsv.ReadOptions(use_threads=True),
                convert_options=pacsv.ConvertOptions(
                    column_types={n: pa.string() for n in names}, strings_can_be_null=False),
            )
    except UnicodeDecodeError as e:
        raise InputError(path, None, None, f"not UTF-8: {e}") from None
    except (pa.ArrowInvalid, OSError) as e:
        msg = str(e)
        raise InputError(path, None, None, f"cannot be read as a table: {msg.splitlines()[0]}") from None
    header = list(tbl.column_names)
    for name in required:
        if name not in header:
            raise InputError(path, 1, None, f"missing required column {name!r} (header has {header})")
    unknown = [h for h in header if h not in required and h not in optional]
    if unknown and warn:
        warn(f"{path}: ignoring unknown columns {unknown}")
    cols, coded = {}, {}
    for name in header:
        if name in required or name in optional:
            col = pc.utf8_trim_whitespace(pc.fill_null(tbl.column(name), ""))
            if name in encode:
                enc = pc.dictionary_encode(col).combine_chunks()
                coded[name] = (enc.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                               enc.dictionary.to_numpy(zero_copy_only=False).astype(str))
            else:
                cols[name] = col.to_numpy(zero_copy_only=False).astype(str)
    t = Table(path, header, cols, tbl.num_rows)
    t.encoded = coded
    return t
