"""Surrender of employees on the abolition of posts: Bill 2004 s.12, "a Scheduled Caste or
Scheduled Tribe or an Other Backward Class employee shall not be surrendered ... if it results in lowering the
representation of [their class] in relation to percentage of reservation fixed for them"."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import read_csv, write_csv
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.errors import Unsupported
from solver.study.surrender import check, read_employees, surrender

# A cadre of 20 (seniority 1 = most senior). SC 5, 17, 20; ST 19; OBC 3, 8, 12, 18; UR the rest.
CATS = {5: "SC", 17: "SC", 20: "SC", 19: "ST", 3: "OBC", 8: "OBC", 12: "OBC", 18: "OBC"}
EMPLOYEES = [[f"E{s:02d}", CATS.get(s, "UR"), s] for s in range(1, 21)]


def _write(tmp_path, rows=EMPLOYEES):
    write_csv(tmp_path / "e.csv", ["id", "category", "seniority"], rows)
    return tmp_path / "e.csv"


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_juniors_go_first_except_those_s12_keeps(tmp_path, engine):
    """Abolish 4 posts of 20: the cadre of 16 gives SC 2, ST 1, OBC 4 posts (the central roster's first 16
    points: OBC 4, 8, 12, 16; SC 7, 15; ST 14). Juniors first: E20 (SC) goes, leaving SC its 2; E19 (ST, its
    only one), E18 (OBC, 4 of 4) and E17 (SC, now at 2) are kept under s.12; E16, E15 and E14 (UR) go."""
    pol = load_policy("central-2004")
    emp = read_employees(_write(tmp_path), pol)
    res = surrender(pol, emp, 4, engine=engine)
    assert sorted(emp.ids[res.surrendered]) == ["E14", "E15", "E16", "E20"]
    assert res.floors == {"SC": 2, "ST": 1, "OBC": 4}
    assert check(pol, emp, res.surrendered, 4, 20) == []
    why = {r[0]: r[4] for r in __import__("solver.study.surrender", fromlist=["rows"]).rows(pol, res)}
    assert why["E19"].startswith("kept under s.12") and why["E17"].startswith("kept under s.12")
    assert why["E13"] == "kept: not reached in the service's order"


def test_check_names_what_breaks_s12_and_the_order(tmp_path):
    """Surrendering E17 and E20 leaves SC 1 of its 2; keeping E14 while E13 goes breaks the service's order;
    three instead of four breaks the count."""
    pol = load_policy("central-2004")
    emp = read_employees(_write(tmp_path), pol)
    pick = lambda ids: np.isin(emp.ids, ids)  # noqa: E731
    assert any("SC keeps 1 employees, below 2" in v for v in check(pol, emp, pick(["E20", "E17", "E16", "E15"]), 4, 20))
    assert any("E14" in v and "against the service's order" in v
               for v in check(pol, emp, pick(["E20", "E16", "E15", "E13"]), 4, 20))
    assert any("3 surrendered" in v for v in check(pol, emp, pick(["E20", "E16", "E15"]), 4, 20))


def test_vacant_posts_are_abolished_before_anyone_is_surrendered(tmp_path):
    """A cadre of 24 posts holding 20 employees: abolishing 6 leaves 18 posts, so 2 employees go (E20, then
    E16: the cadre of 18 gives SC 2, so after E20 the SC at E17 is kept)."""
    pol = load_policy("central-2004")
    emp = read_employees(_write(tmp_path), pol)
    res = surrender(pol, emp, 6, strength=24)
    assert sorted(emp.ids[res.surrendered]) == ["E16", "E20"]


def test_cli_writes_the_choice_and_refuses_a_state_act(tmp_path):
    path = _write(tmp_path)
    r = CliRunner().invoke(app, ["surrender", "--policy", "central-2004", "--employees", str(path), "--abolish", "4",
                                 "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "o" / "surrendered.csv")
    assert [x["employee_id"] for x in rows if x["surrendered"] == "yes"] == ["E20", "E16", "E15", "E14"]
    r = CliRunner().invoke(app, ["surrender", "--policy", "bihar-1991", "--employees", str(path), "--abolish", "4",
                                 "--out", str(tmp_path / "b")])
    assert r.exit_code == 3 and "s.12" in r.output and not (tmp_path / "b").exists()
    with pytest.raises(Unsupported):
        surrender(load_policy("manipur-1976"), read_employees(path, load_policy("central-2004")), 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["UR", "SC", "ST", "OBC"]), min_size=1, max_size=14), st.data())
def test_cpsat_and_the_order_agree_and_check_accepts_them(cats, data):
    """On random cadres both choices are the same set (the floors make a partition matroid, on which the
    order's greedy choice is the least sum of positions), and the independent check accepts it."""
    pol = load_policy("central-2004")
    n = len(cats)
    strength = data.draw(st.integers(n, n + 4))
    abolish = data.draw(st.integers(1, strength))
    from solver.study.surrender import Employees
    emp = Employees(np.array([f"E{k}" for k in range(n)], dtype=object), np.array(cats, dtype=object),
                    np.arange(1, n + 1), "random")
    a = surrender(pol, emp, abolish, strength, engine="greedy")
    b = surrender(pol, emp, abolish, strength, engine="cpsat")
    assert np.array_equal(a.surrendered, b.surrendered)
    assert check(pol, emp, a.surrendered, abolish, strength) == []


@pytest.mark.parametrize("rows, where", [
    ([["A", "UR", 1], ["B", "SC", 1]], "line 3, column 3 (seniority): seniority 1 given twice (also line 2)"),
    ([["A", "UR", 1], ["A", "SC", 2]], "line 3, column 1 (id): duplicate id 'A' (first on line 2)"),
    ([["A", "UR", 1], ["B", "OBC", 3]], "line 3, column 3 (seniority): seniority 3 is outside 1..2"),
])
def test_a_bad_employees_file_names_line_and_column(tmp_path, rows, where):
    from solver.errors import InputError
    with pytest.raises(InputError, match=where.replace("(", r"\(").replace(")", r"\)")):
        read_employees(_write(tmp_path, rows), load_policy("central-2004"))


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_read_by_percentage_no_category_s_share_of_the_smaller_cadre_falls(tmp_path, engine):
    """Bill 2004 s.12 read by its words (`surrender.reading = "percentage"`): an employee of a protected class
    is kept if surrendering him lowers its representation "in relation to percentage". The same 20, four posts
    abolished: SC has 3 of 20 (15%) and keeps ceil(3 x 16 / 20) = 3 (2 of 16 would be 12.5%); OBC has 4 (20%)
    and keeps ceil(3.2) = 4; ST keeps its 1. So E20 and E17 (SC), E19 (ST) and E18 (OBC) are kept, and the
    four most junior UR employees go: E16, E15, E14, E13. By the roster (the model's reading) E20 went."""
    pol = load_policy("central-2004", ["surrender.reading=percentage"])
    emp = read_employees(_write(tmp_path), pol)
    res = surrender(pol, emp, 4, engine=engine)
    assert sorted(emp.ids[res.surrendered]) == ["E13", "E14", "E15", "E16"]
    assert res.floors == {"SC": 3, "ST": 1, "OBC": 4}
    assert check(pol, emp, res.surrendered, 4, 20) == []
    roster_reading = surrender(load_policy("central-2004"), emp, 4, engine=engine)
    assert check(pol, emp, roster_reading.surrendered, 4, 20) != []   # E20's surrender lowers SC below 15%
