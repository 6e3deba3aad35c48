"""Property: random corruptions of valid inputs (cells, headers, encodings,
truncation) fed to `solve` and `verify` end with a documented exit code (solve 0, 2, 3 or 4; verify 0, 1 or
2), never a traceback, and nothing new in --out unless solve exits 0."""
import shutil
import tempfile
from pathlib import Path

from conftest import write_csv
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from solver.cli import app

CANDS = [["id", "rank", "category", "gender", "creamy_layer", "pwbd", "birth_date"],
         ["A", 1, "UR", "M", "", "", "1990-01-02"], ["B", 2, "SC", "F", "", "a", ""],
         ["C", 3, "OBC", "F", "true", "", "1991-03-04"], ["D", 4, "ST", "M", "", "", ""],
         ["E", 5, "EWS", "F", "", "", ""], ["F", 6, "OBC", "M", "", "", ""]]
VACS = [["post", "category", "vacancies", "women"], ["X", "UR", 2, 1], ["X", "SC", 1, ""], ["X", "OBC", 1, ""],
        ["Y", "TOTAL", 3, ""]]
ALLOC = [["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"],
         ["A", "X", "UR", "UR", "", "open_merit", 1], ["B", "X", "UR", "UR", "women", "open_merit", 2],
         ["C", "Y", "UR", "UR", "", "open_merit", 3], ["D", "X", "SC", "SC", "", "reserved", 4]]
PREFS = [["candidate_id", "order", "post"], ["A", 1, "X"], ["A", 2, "Y"], ["B", 1, "Y"], ["B", 2, "X"],
         ["C", 1, "X"], ["E", 1, "Y"], ["F", 2, "X"], ["F", 1, "Y"]]
ODD = ["", " ", "0", "-1", "1e23", "nan", "NaN", "inf", "true", "TOTAL", "UR", "SC", "é", "\u202e", "a,b",
       '"', "x" * 3000, "2023-02-30", "9" * 40, "\t", "None", "null"]


def _csv_bytes(rows) -> bytes:
    import csv
    import io
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue().encode("utf-8")


@st.composite
def corrupted(draw, rows):
    rows = [list(map(str, r)) for r in rows]
    kind = draw(st.sampled_from(["cell", "cell", "header", "drop_column", "blank", "bytes", "truncate",
                                 "latin1", "duplicate_row"]))
    if kind == "cell":
        r = draw(st.integers(1, len(rows) - 1))
        c = draw(st.integers(0, len(rows[0]) - 1))
        rows[r][c] = draw(st.sampled_from(ODD) | st.text(max_size=8))
    elif kind == "header":
        c = draw(st.integers(0, len(rows[0]) - 1))
        rows[0][c] = draw(st.sampled_from([rows[0][(c + 1) % len(rows[0])], "", "ID", "rank ", "x"]))
    elif kind == "drop_column":
        c = draw(st.integers(0, len(rows[0]) - 1))
        rows = [r[:c] + r[c + 1:] for r in rows]
    elif kind == "duplicate_row":
        rows.append(list(rows[draw(st.integers(1, len(rows) - 1))]))
    data = _csv_bytes(rows)
    if kind == "blank":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\n\n" + data[at:]
    elif kind == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=6)) + data[at:]
    elif kind == "truncate":
        data = data[:draw(st.integers(0, len(data)))]
    elif kind == "latin1":
        data = data.replace(b"A,1", "\u00c9,1".encode("latin-1"), 1)
    return data


def _files(tmp: Path, which: str, data: bytes):
    paths = {}
    for name, rows in (("candidates", CANDS), ("vacancies", VACS), ("allocation", ALLOC), ("preferences", PREFS)):
        paths[name] = tmp / f"{name}.csv"
        if name == which:
            paths[name].write_bytes(data)
        else:
            write_csv(paths[name], rows[0], rows[1:])
    return paths


def _no_traceback(r):
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["candidates", "vacancies"]).flatmap(
    lambda w: st.tuples(st.just(w), corrupted(CANDS if w == "candidates" else VACS))),
       st.sampled_from(["greedy", "cpsat"]))
def test_solve_on_corrupted_inputs(case, engine):
    which, data = case
    _solve_ends_documented(which, data, engine)


def _solve_ends_documented(which: str, data: bytes, engine: str, preferences: bool = False) -> None:
    """`solve` on the files with `which` corrupted: a documented exit code, a message on bad input, nothing
    in --out and no scratch left unless it succeeds."""
    tmp = Path(tempfile.mkdtemp())
    try:
        p = _files(tmp, which, data)
        out = tmp / "out"
        prefs = ["--preferences", str(p["preferences"])] if preferences else []
        r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(p["candidates"]),
                                     "--vacancies", str(p["vacancies"]), *prefs, "--out", str(out),
                                     "--engine", engine])
        _no_traceback(r)
        assert r.exit_code in (0, 2, 3, 4), r.output
        if r.exit_code == 2:
            assert "error" in r.output
        if r.exit_code != 0:
            assert not out.exists() or not any(out.iterdir())
        assert not list(tmp.glob(".aarakshan-*"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["candidates", "vacancies", "allocation"]).flatmap(
    lambda w: st.tuples(st.just(w), corrupted({"candidates": CANDS, "vacancies": VACS, "allocation": ALLOC}[w]))))
def test_verify_on_corrupted_inputs(case):
    which, data = case
    tmp = Path(tempfile.mkdtemp())
    try:
        p = _files(tmp, which, data)
        r = CliRunner().invoke(app, ["verify", "--policy", "central-dopt", "--candidates", str(p["candidates"]),
                                     "--vacancies", str(p["vacancies"]), "--allocation", str(p["allocation"])])
        _no_traceback(r)
        assert r.exit_code in (0, 1, 2), r.output
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrupted(PREFS), st.sampled_from(["greedy", "cpsat"]))
def test_solve_on_corrupted_preferences(data, engine):
    """The preferences reader's typed fast path (Arrow parses ids as dictionaries, orders as integers) and its
    fallback to text end alike: a documented exit code, a message, nothing written."""
    _solve_ends_documented("preferences", data, engine, preferences=True)
