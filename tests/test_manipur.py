"""Manipur Act 1976 rules of its own (issue 16, items 5 and 6), each answer derived by hand from the text."""
from __future__ import annotations

import json

import pytest
from conftest import write_csv
from typer.testing import CliRunner

from solver import load_policy, solve
from solver.cli import app
from solver.errors import InputError
from solver.io.readers import read_problem


def _year(tmp_path, year, rows, cands, reg="m.sqlite", extra=()):
    d = tmp_path / str(year)
    d.mkdir(exist_ok=True)
    write_csv(d / "c.csv", ["id", "rank", "category"], cands)
    write_csv(d / "v.csv", ["post", "category", "vacancies"], rows)
    r = CliRunner().invoke(app, ["solve", "--policy", "manipur-1976", "--candidates", str(d / "c.csv"),
                                 "--vacancies", str(d / "v.csv"), "--out", str(d / "out"), "--engine", "greedy",
                                 "--register", str(tmp_path / reg), "--year", str(year), "--quiet", *extra])
    assert r.exit_code == 0, r.output
    seats = json.loads((d / "out" / "summary.json").read_text())
    return seats


def test_two_vacancies_take_the_carry_over_of_the_preceding_three_years(tmp_path):
    """s.4(2)(a) proviso: "if there be only two vacancies, the roster points must be ensured after taking into
    account the carry-over of the percentage of the preceding three recruitment years". ST 31%, SC 2%, two
    vacancies a year at post X:

    - 2019: no years before; floor(0.31 x 2) = 0: UR 2.
    - 2020: window 2019 (2 vacancies, ST 0); floor(0.31 x 4) = 1: ST 1, UR 1.
    - 2021: window 2019-20 (4, ST 1); floor(0.31 x 6) = 1, less 1: UR 2.
    - 2022: window 2019-21 (6, ST 1); floor(0.31 x 8) = 2, less 1: ST 1, UR 1.
    - 2023: window 2020-22 (6, ST 2); floor(0.31 x 8) = 2, less 2: UR 2 (2019 has left the window; the running
      roster would have given ST its point 10 here).
    SC's 2% never reaches a vacancy in a window of 8."""
    cands = [["U1", 1, "UR"], ["T1", 2, "ST"], ["U2", 3, "UR"]]
    got = {}
    for year in range(2019, 2024):
        _year(tmp_path, year, [["X", "TOTAL", 2]], cands)
        alloc = (tmp_path / str(year) / "out" / "allocation.csv").read_text().splitlines()[1:]
        got[year] = sorted(line.split(",")[2] for line in alloc)
    assert got == {2019: ["UR", "UR"], 2020: ["ST", "UR"], 2021: ["UR", "UR"], 2022: ["ST", "UR"],
                   2023: ["UR", "UR"]}


def test_two_vacancies_without_the_register_are_an_input_error(tmp_path):
    """Without the register the preceding three years are unknown: the row is refused naming file, line and
    column, instead of starting the percentage afresh."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["U1", 1, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 2]])
    pol = load_policy("manipur-1976")
    with pytest.raises(InputError, match=r"v.csv, line 2, column vacancies.*preceding 3 recruitment years"):
        solve(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv"), "greedy")
