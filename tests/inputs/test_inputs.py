"""Bad input: a message naming file, line, column and problem; exit 2; nothing written to --out."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import write_csv
from solver import load_policy
from solver.cli import app
from solver.errors import InputError
from solver.io.readers import read_problem

CH = ["id", "score", "category", "gender"]
OK_C = [["A", 90, "UR", "M"], ["B", 80, "SC", "F"]]
OK_V = [["X", "UR", 1, ""], ["X", "SC", 1, ""]]
VACS_XY = [["X", "UR", 1, ""], ["Y", "SC", 1, ""]]


def load(tmp_path, cands=OK_C, vacs=OK_V, ch=CH, vh=("post", "category", "vacancies", "women"), prefs=None,
         policy="central-2004", sets=()):
    write_csv(tmp_path / "candidates.csv", ch, cands)
    write_csv(tmp_path / "vacancies.csv", vh, vacs)
    pp = write_csv(tmp_path / "preferences.csv", ["candidate_id", "order", "post"], prefs) if prefs else None
    return read_problem(load_policy(policy, list(sets)), tmp_path / "candidates.csv", tmp_path / "vacancies.csv", pp)


@pytest.mark.parametrize("cands,ch,line,col,text", [
    ([["A", 90, "UR", "M"], ["A", 80, "SC", "F"]], CH, 3, "1 (id)", "duplicate id 'A'"),
    ([["A", 90, "UR", "M"], ["B", 80, "XYZ", "F"]], CH, 3, "3 (category)", "unknown category 'XYZ'"),
    ([["A", "ninety", "UR", "M"]], CH, 2, "2 (score)", "is not a number"),
    ([["A", "", "UR", "M"]], CH, 2, "2 (score)", "missing score"),
    ([["A", 1, "UR", "M"], ["B", 3, "UR", "M"]], ["id", "rank", "category", "gender"], 3, "2 (rank)", "outside 1..2"),
    ([["A", 1, "UR", "M"], ["B", 1, "UR", "M"]], ["id", "rank", "category", "gender"], 3, "2 (rank)", "given twice"),
    ([["A", 90, "UR", "X"]], CH, 2, "4 (gender)", "is not one of"),
])
def test_candidate_errors(tmp_path, cands, ch, line, col, text):
    with pytest.raises(InputError) as e:
        load(tmp_path, cands=cands, ch=ch)
    assert text in e.value.problem and e.value.column == col and str(e.value.path).endswith("candidates.csv")
    if line is not None:
        assert e.value.line == line


def test_unresolvable_tie(tmp_path):
    """Ties the policy's tie-breaks cannot resolve are refused (here: tie-breaks by birth date only)."""
    cands = [["A", 90, "UR", "M", "1990-01-01"], ["B", 90, "UR", "M", "1990-01-01"]]
    with pytest.raises(InputError, match="cannot resolve"):
        load(tmp_path, cands=cands, ch=CH + ["birth_date"], sets=['merit.tie_breaks=["birth_date"]'])


def test_tie_broken_by_age_then_id(tmp_path):
    cands = [["B", 90, "UR", "M", "1991-01-01"], ["A", 90, "UR", "M", "1991-01-01"], ["C", 90, "UR", "M", "1980-05-05"]]
    prob = load(tmp_path, cands=cands, ch=CH + ["birth_date"])
    assert list(prob.candidates.ids) == ["C", "A", "B"]


@pytest.mark.parametrize("vacs,col,text", [
    ([["X", "UR", -1, ""]], "3 (vacancies)", "negative"),
    ([["X", "UR", 1.5, ""]], "3 (vacancies)", "whole number"),
    ([["X", "UR", 1, ""], ["X", "UR", 2, ""]], "2 (category)", "given twice"),
    ([["X", "ZZ", 1, ""]], "2 (category)", "unknown category"),
    ([["X", "SC", 1, 2]], "4 (women)", "exceeds"),
])
def test_vacancy_errors(tmp_path, vacs, col, text):
    with pytest.raises(InputError) as e:
        load(tmp_path, vacs=vacs)
    assert text in e.value.problem and e.value.column == col


def test_preference_duplicates(tmp_path):
    with pytest.raises(InputError, match="order 1 given twice") as e:
        load(tmp_path, prefs=[["A", 1, "X"], ["B", 1, "X"], ["A", 1, "X"]])
    assert e.value.line == 4 and "also line 2" in e.value.problem


def test_preference_errors(tmp_path):
    with pytest.raises(InputError, match="unknown post 'Z'") as e:
        load(tmp_path, prefs=[["A", 1, "X"], ["B", 1, "Z"]])
    assert e.value.line == 3
    with pytest.raises(InputError, match="unknown candidate"):
        load(tmp_path, prefs=[["Q", 1, "X"]])


def test_policy_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nsource = "y"\n\n[[categories]]\ncode = "SC"\nshare = 0.1\nsharee = 2\n')
    with pytest.raises(InputError) as e:
        load_policy(bad)
    assert e.value.line == 7 and "sharee" in e.value.problem
    with pytest.raises(InputError, match="no entry 'XX'"):
        load_policy("central-dopt", ["categories.XX.share=0.1"])
    assert load_policy("central-dopt", ["categories.OBC.share=0.19"]).category("OBC").share == 0.19
    with pytest.raises(InputError, match="categories.OBC.share=lots") as e:
        load_policy("central-dopt", ["categories.OBC.share=lots"])
    # (the library names the field; the command line tells it as --set: tests/robustness/test_hostile.py)
    assert e.value.path == "overrides" and e.value.field == "overrides"


def test_policy_refuses_fallback_inside_same_year_exchange():
    with pytest.raises(InputError, match="may not also be in a same-year exchange group"):
        load_policy("bihar-1991", ['exchange=[{categories=["WBC", "SC"]}]'])


def test_unknown_columns_warn(tmp_path):
    seen = []
    write_csv(tmp_path / "c.csv", CH + ["hobby"], [r + ["chess"] for r in OK_C])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1]])
    read_problem(load_policy("central-2004"), tmp_path / "c.csv", tmp_path / "v.csv", warn=seen.append)
    assert any("hobby" in s for s in seen)


def test_parquet_accepted(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"id": ["A", "B"], "score": [90.0, 80.0], "category": ["UR", "SC"]}), tmp_path / "c.parquet")
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "SC", 1]])
    prob = read_problem(load_policy("central-2004"), tmp_path / "c.parquet", tmp_path / "v.csv")
    assert list(prob.candidates.ids) == ["A", "B"]


def test_cli_bad_input_exit_2_and_nothing_written(tmp_path):
    write_csv(tmp_path / "c.csv", CH, [["A", 90, "UR", "M"], ["A", 80, "SC", "F"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1]])
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["solve", "--policy", "central-2004", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--out", str(out)])
    assert r.exit_code == 2 and "line 3" in r.stderr and "duplicate id" in r.stderr
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".aarakshan-")]


def test_cli_ceiling_exit_3(tmp_path):
    write_csv(tmp_path / "c.csv", CH, OK_C)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "SC", 2]])
    r = CliRunner().invoke(app, ["solve", "--policy", "central-2004", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / "o")])
    assert r.exit_code == 3 and "s.10" in r.stderr and not (tmp_path / "o").exists()


def test_dataframes_and_arrow_tables_are_read_as_files_are(tmp_path):
    """solve() takes pandas DataFrames or Arrow tables as well as paths, validated as a file
    is (a bad cell names its row as the line it would have in a CSV, and the column), and Result.to_frames()
    gives the outputs with the files' columns."""
    import pandas as pd
    import pyarrow as pa

    from solver import solve
    from solver.errors import InputError
    c = pd.DataFrame({"id": ["A", "B", "C"], "rank": [1, 2, 3], "category": ["OBC", "UR", "OBC"]})
    v = pd.DataFrame({"post": ["X", "X"], "category": ["UR", "OBC"], "vacancies": [1, 1]})
    frames = solve("central-dopt", candidates=c, vacancies=pa.Table.from_pandas(v), engine="greedy").result.to_frames()
    assert frames["allocation"][["candidate_id", "seat_category"]].values.tolist() == [["A", "UR"], ["C", "OBC"]]
    assert list(frames["decisions"].columns) == ["candidate_id", "selected", "post", "reason"]
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], c.values.tolist())
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], v.values.tolist())
    from_files = solve("central-dopt", candidates=tmp_path / "c.csv", vacancies=tmp_path / "v.csv", engine="greedy")
    assert list(from_files.result.allocation_rows()) == frames["allocation"].values.tolist()
    bad = c.assign(category=["OBC", "XX", "OBC"])
    with pytest.raises(InputError, match=r"<DataFrame>, line 3, column 3 \(category\): unknown category 'XX'"):
        solve("central-dopt", candidates=bad, vacancies=v, engine="greedy")


def test_preferences_in_any_row_order_read_alike(tmp_path):
    """A file written candidate by candidate takes the reader's fast path (no sort); the same rows shuffled
    take the sort, and give the same lists."""
    import random
    cands = [["A", 90, "UR", "M"], ["B", 80, "SC", "F"], ["C", 70, "UR", "F"]]
    vacs = [["X", "UR", 1, ""], ["Y", "SC", 1, ""]]
    rows = [["A", 1, "Y"], ["A", 2, "X"], ["C", 1, "X"], ["B", 2, "Y"], ["B", 1, "X"]]
    grouped = load(tmp_path, cands, vacs, prefs=rows[:3] + rows[4:] + rows[3:4]).preferences
    assert [x.tolist() for x in grouped] == [[1, 0], [0, 1], [0]]
    for seed in range(5):
        shuffled = rows[:]
        random.Random(seed).shuffle(shuffled)
        assert [x.tolist() for x in load(tmp_path, cands, vacs, prefs=shuffled).preferences] == \
            [x.tolist() for x in grouped]


def test_a_post_ranked_twice_is_named_with_both_lines(tmp_path):
    """The check finds it whether the file is written candidate by candidate (run by run) or not (the P x n
    bitmap); the error names the later line and the earlier one."""
    with pytest.raises(InputError, match="post 'X' ranked twice by 'A'") as e:
        load(tmp_path, prefs=[["A", 1, "X"], ["A", 2, "X"], ["B", 1, "X"]])
    assert e.value.line == 3 and "also line 2" in e.value.problem
    with pytest.raises(InputError, match="post 'X' ranked twice by 'A'") as e:
        load(tmp_path, prefs=[["A", 2, "X"], ["B", 1, "X"], ["A", 1, "X"]])
    assert e.value.line == 4 and "also line 2" in e.value.problem


def test_a_program_ranked_twice_is_named_where_choices_become_seat_pools(tmp_path):
    """With seat pools the reader makes no table of who ranked each program (nothing reads it after the check):
    the check runs block by block of candidates, and still names both lines, grouped file or not."""
    vh = ("post", "category", "vacancies", "gender_pool", "supernumerary")
    vacs = [["X", "UR", 1, "neutral", "false"], ["X", "UR", 1, "female", "true"], ["Y", "UR", 1, "neutral", "false"]]
    ok = load(tmp_path, vacs=vacs, vh=vh, prefs=[["A", 1, "X"], ["A", 2, "Y"], ["B", 1, "Y"], ["B", 2, "X"]])
    assert len(ok.preferences[1]) == 3            # (B, a woman, ranks Y, then X's neutral and female pools)
    for rows, line in (([["A", 1, "X"], ["A", 2, "Y"], ["A", 3, "X"], ["B", 1, "X"]], 4),
                       ([["A", 1, "X"], ["B", 1, "Y"], ["B", 2, "Y"]], 4),
                       ([["B", 2, "Y"], ["A", 1, "X"], ["B", 1, "Y"]], 4)):
        with pytest.raises(InputError, match="ranked twice by") as e:
            load(tmp_path, vacs=vacs, vh=vh, prefs=rows)
        assert e.value.line == line and "also line" in e.value.problem


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), max_size=6), min_size=1, max_size=12), st.integers(1, 40))
def test_each_post_once_by_blocks_matches_the_plain_reading(runs, marks):
    """`_each_post_once` over reused blocks of any size says what a set per run says."""
    from solver.io.preferences import _each_post_once
    post = np.array([p for run in runs for p in run], dtype=np.int32)
    starts = np.cumsum([0] + [len(run) for run in runs[:-1]])
    assert _each_post_once(post, starts, 6, marks) == all(len(set(run)) == len(run) for run in runs)


@pytest.mark.parametrize("cell, line_text", [
    ("", "missing order"), (" 2", None), ("2.0", None), ("x", "'x' is not a number"), ("2.5", "not a whole number"),
    (" B ", None)])
def test_preferences_read_typed_or_as_text_alike(tmp_path, cell, line_text):
    """Arrow reads preferences.csv's orders as integers and ids as dictionaries when every cell allows; a cell
    that does not (a blank, a space, a decimal) sends the file through the text reader, whose messages name
    the line and column (SPEC: bad input names file, line, column)."""
    rows = [["A", 1, "X"], ["B", cell, "X"] if cell.strip() != "B" else [cell, 2, "X"], ["B", 1, "Y"]]
    if line_text is None:
        prefs = load(tmp_path, vacs=VACS_XY, prefs=rows).preferences
        assert [x.tolist() for x in prefs][:2] == [[0], [1, 0]]
    else:
        with pytest.raises(InputError, match=line_text) as e:
            load(tmp_path, vacs=VACS_XY, prefs=rows)
        assert e.value.line == 3 and e.value.column == "2 (order)"


@pytest.mark.parametrize("rows, seeded", [
    ([["B", 2, "X"], ["A", 1, "Y"], ["B", 1, "Y"]], True),     # in no order: the check's bitmap is kept
    ([["A", 1, "Y"], ["B", 1, "Y"], ["B", 2, "X"]], False)])   # in runs: checked run by run, no bitmap made
def test_the_readers_who_ranked_bitmap_is_the_rankings_own(tmp_path, rows, seeded):
    """read_problem seeds `Ranking.ranked_by_post` with the bitmap its duplicate check made, where it made one;
    it must be what the ranking computes from the lists."""
    from solver.data.ranking import Ranking
    prob = load(tmp_path, vacs=VACS_XY, prefs=rows)
    assert ("ranked_by_post" in prob.ranking.__dict__) == seeded
    fresh = Ranking(prob.preferences, prob.n, len(prob.posts))
    assert prob.ranking.ranked_by_post.tolist() == fresh.ranked_by_post.tolist() == [[False, True], [True, True]]


@pytest.mark.parametrize("rows, seeded", [
    ([["A", 1, "Y"], ["A", 2, "X"], ["B", 1, "X"], ["B", 2, "Y"], ["C", 1, "X"]], True),   # merit order, grouped
    ([["C", 1, "X"], ["A", 1, "Y"], ["A", 2, "X"], ["B", 1, "X"], ["B", 2, "Y"]], False),  # grouped, not merit order
    ([["B", 2, "Y"], ["A", 2, "X"], ["C", 1, "X"], ["A", 1, "Y"], ["B", 1, "X"]], True)])  # sorted by the reader
def test_the_readers_ranked_rows_are_the_rankings_own(tmp_path, rows, seeded):
    """read_problem gives the Ranking the rows its checks (or its sort) left in merit order, so that 19 million
    rows are not copied again; they must be what the ranking computes from the lists, and are given only
    where the candidates' blocks came in merit order."""
    from solver.data.ranking import Ranking
    cands = [["A", 90, "UR", "M"], ["B", 80, "SC", "F"], ["C", 70, "UR", "F"]]
    prob = load(tmp_path, cands, vacs=VACS_XY, prefs=rows)
    assert ("rows" in prob.ranking.__dict__) == seeded
    fresh = Ranking(prob.preferences, prob.n, len(prob.posts))
    assert [a.tolist() for a in prob.ranking.rows] == [a.tolist() for a in fresh.rows] == \
        [[0, 0, 1, 1, 2], [1, 0, 0, 1, 0]]
    assert all(a.dtype == np.int32 for a in prob.ranking.rows)


def test_preferences_read_beside_the_candidates_tell_in_file_order(tmp_path):
    """The preferences are decoded in a background thread while the candidates and vacancies are read: what
    the reader says must not depend on which finishes first. Warnings come candidates, vacancies, then
    preferences; a bad candidates file is told before a bad preferences file, as when read one by one."""
    said = []
    write_csv(tmp_path / "candidates.csv", CH + ["note"], [r + ["x"] for r in OK_C])
    write_csv(tmp_path / "vacancies.csv", ["post", "category", "vacancies", "memo"], [r[:3] + ["y"] for r in VACS_XY])
    pp = write_csv(tmp_path / "preferences.csv", ["candidate_id", "order", "post", "why"], [["A", 1, "X", "z"]])
    policy = load_policy("central-2004")
    read_problem(policy, tmp_path / "candidates.csv", tmp_path / "vacancies.csv", pp, warn=said.append)
    assert [w.split(":")[0].rsplit("/", 1)[-1] for w in said] == ["candidates.csv", "vacancies.csv", "preferences.csv"]
    write_csv(tmp_path / "candidates.csv", CH, [["A", 90, "XYZ", "M"]])
    write_csv(tmp_path / "preferences.csv", ["candidate_id", "order", "post"], [["A", "", "X"]])
    with pytest.raises(InputError, match="unknown category 'XYZ'"):
        read_problem(policy, tmp_path / "candidates.csv", tmp_path / "vacancies.csv", pp)


def test_a_superscript_digit_is_not_a_count(tmp_path):
    """"²" is a digit to Python's str.isdigit but no number int() reads: a women's minimum written so is bad
    input naming the cell (found by the corruption property), not a crash."""
    with pytest.raises(InputError, match="not a whole number") as e:
        load(tmp_path, vacs=[["X", "UR", 2, "\u00b2"], ["X", "SC", 1, ""]])
    assert e.value.line == 2 and e.value.column == "4 (women)"


@pytest.mark.parametrize("where, char, line, col, kind", [
    ("candidates", "\x00", 3, "1 (id)", "control character (U+0000)"),
    ("candidates", "\x1b", 2, "3 (category)", "control character (U+001B)"),
    ("candidates", "\u202e", 3, "1 (id)", "bidirectional control character (U+202E)"),
    ("vacancies", "\x00", 2, "1 (post)", "control character (U+0000)"),
    ("vacancies", "\u2067", 3, "1 (post)", "bidirectional control character (U+2067)"),
    ("preferences", "\u202d", 3, "3 (post)", "bidirectional control character (U+202D)"),
    ("preferences", "\x07", 2, "1 (candidate_id)", "control character (U+0007)"),
])
def test_a_cell_with_a_control_or_bidirectional_character_is_refused(tmp_path, where, char, line, col, kind):
    """An id or post holding a control character (a NUL: a damaged file) or a bidirectional override (U+202E
    shows "C00\u202e50" as "C0005": an id that displays otherwise than it reads, CVE-2021-42574) is refused
    naming the file, line and column, before anything is solved; it used to go through to allocation.csv."""
    cands, vacs, prefs = [["A", 90, "UR", "M"], ["B", 80, "SC", "F"]], [["X", "UR", 1, ""], ["Y", "SC", 1, ""]], \
        [["A", 1, "X"], ["B", 1, "Y"]]
    if where == "candidates":
        r, c = line - 2, int(col[0]) - 1
        cands[r][c] = cands[r][c][:1] + char + cands[r][c][1:]
    elif where == "vacancies":
        vacs[line - 2][0] += char
        prefs = [["A", 1, vacs[0][0]], ["B", 1, vacs[1][0]]]
    else:
        r, c = line - 2, int(col[0]) - 1
        prefs[r][c] = prefs[r][c] + char
    with pytest.raises(InputError) as e:
        load(tmp_path, cands=cands, vacs=vacs, prefs=prefs)
    assert str(e.value.path).endswith(f"{where}.csv") and (e.value.line, e.value.column) == (line, col)
    assert kind in e.value.problem


def test_a_tab_inside_a_cell_and_text_in_any_script_are_read(tmp_path):
    """The refusal above is narrow: a tab inside a name, Devanagari, an en dash and a right-to-left mark-free
    Urdu id are text a reader sees, and read as given."""
    cands = [["\u0905\u092e\u093f\u0924\u093e", 90, "UR", "M"], ["B\tC", 80, "SC", "F"], ["\u0627\u0645\u0631", 70, "SC", "F"]]
    prob = load(tmp_path, cands=cands, vacs=[["P\u2013I", "UR", 1, ""], ["P\u2013I", "SC", 1, ""]])
    assert list(prob.candidates.ids) == ["\u0905\u092e\u093f\u0924\u093e", "B\tC", "\u0627\u0645\u0631"]


def test_a_dataframe_or_parquet_cell_with_a_control_character_is_refused(tmp_path):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from solver import solve
    c = pd.DataFrame({"id": ["A", "B\u202e"], "rank": [1, 2], "category": ["UR", "UR"]})
    v = pd.DataFrame({"post": ["X"], "category": ["UR"], "vacancies": [1]})
    with pytest.raises(InputError, match=r"<DataFrame>, line 3, column 1 \(id\): a bidirectional control"):
        solve("central-dopt", candidates=c, vacancies=v, engine="greedy")
    pq.write_table(pa.Table.from_pandas(v.assign(post=["X\x00"])), tmp_path / "v.parquet")
    with pytest.raises(InputError, match=r"v.parquet, line 2, column 1 \(post\): a control character \(U\+0000\)"):
        solve("central-dopt", candidates=c.assign(id=["A", "B"]), vacancies=tmp_path / "v.parquet", engine="greedy")


@pytest.mark.parametrize("row, col", [
    (["X", "TOTAL", 2, "50000000"], "4 (roster_start)"),     # a start past any cadre's roster
    (["X", "TOTAL", 1_000_001, ""], "3 (vacancies)"),        # a TOTAL row longer than any roster
    (["X", "TOTAL", 3, "999999"], "4 (roster_start)"),       # points 999,999 .. 1,000,001
])
def test_a_total_row_past_the_last_roster_point_is_refused(tmp_path, row, col):
    """A running roster is walked from its first point (DoPT OM 02.07.1997: a year's vacancies take the next
    unused points), so a TOTAL row reaching past point 1,000,000 is refused at its line and column: a start of
    50,000,000 had the split walk points for minutes before."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "roster_start"], [row])
    with pytest.raises(InputError) as e:
        read_problem(load_policy("central-dopt"), tmp_path / "c.csv", tmp_path / "v.csv")
    assert e.value.line == 2 and e.value.column == col and "past point 1,000,000" in e.value.problem


def test_a_total_row_up_to_the_last_roster_point_is_split(tmp_path):
    """Points 999,998 .. 1,000,000 are still a roster's, and split by it; the register's next point counts as the
    row's own start does (`vacancy.split`)."""
    from solver.chain.vacancy import determine_seats
    from solver.chain.vacancy.carried import YearState
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["A", 1, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "roster_start"], [["X", "TOTAL", 3, "999998"]])
    pol = load_policy("central-2004")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    assert sum(determine_seats(pol, prob, enforce_ceiling=False).seats.values()) == 3   # (all reserved: a cycle ends)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 3]])
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    with pytest.raises(InputError) as e:
        determine_seats(pol, prob, state=YearState(2025, roster_next={"X": 999_999}))
    assert e.value.line == 2 and "past point 1,000,000" in e.value.problem
