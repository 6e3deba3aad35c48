"""Cells of an input table read as what they mean: booleans, choices, numbers, dates, ids, ordinals; each bad
cell named by its line and column."""
from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .tables import Table, numbers_of

TRUE = {"true", "1", "yes", "y", "t"}
FALSE = {"false", "0", "no", "n", "f", ""}
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _first_bad(mask: np.ndarray) -> int | None:
    idx = np.flatnonzero(mask)
    return int(idx[0]) if len(idx) else None


def _bools(t: Table, name: str, empty: bool = False) -> np.ndarray:
    """A true/false column; an empty cell (or no column) reads as `empty`."""
    if not t.has(name):
        return np.full(len(t), empty, dtype=bool)
    low = np.char.lower(t[name].astype(str))
    bad = ~(np.isin(low, list(TRUE)) | np.isin(low, list(FALSE)))
    if (k := _first_bad(bad)) is not None:
        raise t.error(k, name, f"{str(t[name][k])!r} is not true/false")
    return np.isin(low, list(TRUE)) | ((low == "") & empty)


def _choice(t: Table, name: str, allowed: set[str]) -> np.ndarray:
    if not t.has(name):
        return np.full(len(t), "", dtype=object)
    vals = t[name].astype(str)
    bad = ~np.isin(vals, sorted(allowed))
    if (k := _first_bad(bad)) is not None:
        raise t.error(k, name, f"{str(vals[k])!r} is not one of {sorted(a for a in allowed if a)} or empty")
    return vals.astype(object)


def _numbers(t: Table, name: str, integer: bool) -> np.ndarray:
    vals = _arrow_numbers(t, name, integer)
    if vals is not None:
        return vals
    raw = t[name].astype(str)   # (a bad cell: found, and named, the slow way)
    empty = raw == ""
    if (k := _first_bad(empty)) is not None:
        raise t.error(k, name, f"missing {name}")
    vals = _parsed(t, name, raw)
    if (k := _first_bad(~np.isfinite(vals))) is not None:
        raise t.error(k, name, f"{str(raw[k])!r} is not a finite number")
    if integer and (k := _first_bad(vals != np.round(vals))) is not None:
        raise t.error(k, name, f"{str(raw[k])!r} is not a whole number")
    return vals


def _int32s(t: Table, name: str, low: int, high: int) -> np.ndarray | None:
    """A column of whole numbers from `low` to `high` (within int32) as int32, copied chunk by chunk from Arrow's
    buffers, where Arrow read every cell as an integer in that range; else None (`_numbers` then reads and names
    a bad cell). JoSAA's 19.4 million preference orders: 78 MB written once, where the column joined into one
    int64 array was 155 MB (the command's peak about 100 MB lower: benchmarks/README.md).

    Example
    -------
    >>> t = Table("p.csv", ["order"], {}, 3)
    >>> t.arrow = {"order": pa.chunked_array([[1, 2], [3]], pa.int64())}
    >>> _int32s(t, "order", 1, 2**31 - 1).tolist(), _int32s(t, "order", 2, 3)
    ([1, 2, 3], None)
    """
    kept = t.arrow.get(name)
    if kept is None or not pa.types.is_integer(kept.type) or kept.null_count:
        return None
    bounds = pc.min_max(kept).as_py() if len(kept) else {"min": low, "max": low}
    if bounds["min"] < low or bounds["max"] > high:
        return None
    out, at = np.empty(len(kept), dtype=np.int32), 0
    for chunk in kept.chunks:
        out[at:at + len(chunk)] = numbers_of(chunk)
        at += len(chunk)
    return out


def _arrow_numbers(t: Table, name: str, integer: bool) -> np.ndarray | None:
    """The column's numbers read from Arrow where they are all good (integers as they are; floats and text
    cast), else None: the cells are then checked one by one as text."""
    kept = t.arrow.get(name)
    if kept is not None and not pa.types.is_string(kept.type):   # (Arrow's numbers, from a file or a frame)
        if kept.null_count and (k := _first_bad(kept.is_null().to_numpy(zero_copy_only=False))) is not None:
            raise t.error(k, name, f"missing {name}")
        if pa.types.is_integer(kept.type):
            return numbers_of(kept).astype(np.int64 if integer else float, copy=False)
        return None   # (floats: checked as text is)
    if kept is None:
        return None
    if (k := _first_bad(pc.equal(kept, "").to_numpy(zero_copy_only=False))) is not None:
        raise t.error(k, name, f"missing {name}")
    try:
        vals = kept.cast(pa.float64()).to_numpy(zero_copy_only=False)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return vals if np.isfinite(vals).all() and (not integer or (vals == np.round(vals)).all()) else None


def _parsed(t: Table, name: str, raw: np.ndarray) -> np.ndarray:
    """The text cells as floats: numpy's parser in C (a float() per cell took 12 s on JoSAA's 19 million
    preference orders; Arrow's cast needs an Arrow array, whose making imports pandas). It reads what Python's
    float() reads, and more where the text is not ASCII ("²" as 2): there float() says first, cell by cell."""
    ascii_only = raw.dtype.kind == "U" and (not raw.size or int(raw.view(np.uint32).max()) < 128)
    try:
        if not ascii_only:
            raise ValueError
        return raw.astype(float)
    except ValueError:
        for k, v in enumerate(raw):
            try:
                float(v)
            except ValueError:
                raise t.error(k, name, f"{str(v)!r} is not a number") from None
        return np.array([float(v) for v in raw])


def _is_date(text: str) -> bool:
    import datetime
    if not DATE.match(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def unique_ids(t: Table, column: str = "id", within: str | None = None) -> np.ndarray:
    """The `column` of ids, none empty and none twice (the second named with the line of the first); with
    `within`, none twice among the rows of one value of that column (a shortlist's lists)."""
    ids = t[column].astype(str)
    if (k := _first_bad(ids == "")) is not None:
        raise t.error(k, column, f"empty {column}")
    keys = ids if within is None else np.char.add(np.char.add(t[within].astype(str), "\x1f"), ids)
    order = np.argsort(keys, kind="stable")
    dup = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    if len(dup):
        first, second = sorted((order[dup[0]], order[dup[0] + 1]))
        inside = f" in {within} {str(t[within][second])!r}" if within is not None else ""
        raise t.error(second, column, f"duplicate {column} {str(ids[second])!r} (first on line {t.line[first]})"
                      f"{inside}")
    return ids


def ordinals(t: Table, name: str, note: str, plural: str = "") -> np.ndarray:
    """A column that numbers the rows 1..n, each number once (a rank, a seniority): outside 1..n, given twice,
    or a gap is an error naming the row."""
    n = len(t)
    v = _numbers(t, name, integer=True)
    if (k := _first_bad((v < 1) | (v > n))) is not None:
        raise t.error(k, name, f"{name} {t[name][k]} is outside 1..{n} ({note})")
    v = v.astype(np.int64)
    srt = np.sort(v)
    if (k := _first_bad(srt != np.arange(1, n + 1))) is not None:
        missing_or_dup = srt[k]
        dups = np.flatnonzero(v == missing_or_dup)
        if len(dups) > 1:
            raise t.error(int(dups[1]), name, f"{name} {missing_or_dup} given twice (also line {t.line[dups[0]]})")
        raise t.error(int(np.argmin(np.where(v > k + 1, v, np.iinfo(np.int64).max))), name,
                      f"{plural or name + 's'} must run 1..{n} without gaps; {name} {k + 1} is missing")
    return v
