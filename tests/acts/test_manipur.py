"""Manipur Act 1976 rules of its own, each answer derived by hand from the text."""
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


def test_a_year_without_vacancies_counts_in_the_two_vacancy_window(tmp_path):
    """A year the post recruited for with no vacancy is one of "the preceding three recruitment years" with none,
    not a year the register cannot read: 2019 X has 0 vacancies, 2020 two. Window 2019 (0 vacancies):
    floor(0.31 x 2) = 0 for ST: UR 2 (it was refused as "written before schema 4")."""
    cands = [["U1", 1, "UR"], ["T1", 2, "ST"], ["U2", 3, "UR"]]
    _year(tmp_path, 2019, [["X", "UR", 0], ["X", "ST", 0]], cands)
    _year(tmp_path, 2020, [["X", "TOTAL", 2]], cands)
    alloc = (tmp_path / "2020" / "out" / "allocation.csv").read_text().splitlines()[1:]
    assert sorted(line.split(",")[2] for line in alloc) == ["UR", "UR"]


def test_two_vacancies_without_the_register_are_an_input_error(tmp_path):
    """Without the register the preceding three years are unknown: the row is refused naming file, line and
    column, instead of starting the percentage afresh."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [["U1", 1, "UR"]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "TOTAL", 2]])
    pol = load_policy("manipur-1976")
    with pytest.raises(InputError, match=r"v.csv, line 2, column vacancies.*preceding 3 recruitment years"):
        solve(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv"), "greedy")


# s.8(3), second proviso: recruitment on probation ----------------------------------------------------------

PROB_CANDS = [["U1", 1, "UR", ""], ["U5", 2, "UR", ""], ["S2", 3, "SC", ""], ["T3", 4, "ST", "true"],
              ["T4", 5, "ST", "true"], ["U6", 6, "UR", ""]]


def _probation(tmp_path, post_class, cands=PROB_CANDS, rows=(("X", "UR", 2), ("X", "SC", 1), ("X", "ST", 1)),
               sets=()):
    pol = load_policy("manipur-1976", list(sets))
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "failed_test"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "post_class"],
              [[*r, post_class] for r in rows])
    return pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")


def _got(sol):
    return {r[0]: (r[2], r[5]) for r in sol.result.allocation_rows()}


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_st_candidates_who_failed_the_test_are_recruited_on_probation_before_de_reservation(tmp_path, engine):
    """s.8(3) second proviso at a Class IV post: UR 2, SC 1, ST 1 (half reserved, within s.7's ceiling). U1
    and U5 take the open vacancies, S2 the SC one. No ST candidate passed the test and no SC candidate is left
    for the exchange (s.6), so the ST vacancy is "the remaining reserved vacancies": T3, who has the
    qualification but failed the test, is recruited on probation (before T4, in merit order), before s.7
    would de-reserve it to U6."""
    from solver.verify import verify
    pol, prob = _probation(tmp_path, "IV")
    sol = solve(pol, prob, engine)
    assert _got(sol) == {"U1": ("UR", "open_merit"), "U5": ("UR", "open_merit"), "S2": ("SC", "reserved"),
                         "T3": ("ST", "probation")}
    assert verify(pol, prob, _read_alloc(tmp_path, sol, pol, prob)) == []


def test_at_a_technical_post_there_is_no_probation_and_the_vacancy_is_de_reserved(tmp_path):
    """The same list at a Class III technical post: s.8(3) does not reach it. By s.8(4) the ST vacancy waits
    for a fresh recruitment from SC and ST candidates (the model's reading), so U6 does not take it; with s.7
    read alone (`unfilled.dereserve_when = "same_year"`) it is de-reserved to general candidates at once, to
    U6. T3 and T4, who failed the test, hold nothing either way."""
    pol, prob = _probation(tmp_path, "III-technical")
    assert _got(solve(pol, prob, "greedy")) == {"U1": ("UR", "open_merit"), "U5": ("UR", "open_merit"),
                                                "S2": ("SC", "reserved")}
    pol, prob = _probation(tmp_path, "III-technical", sets=["unfilled.dereserve_when=same_year"])
    assert _got(solve(pol, prob, "greedy")) == {"U1": ("UR", "open_merit"), "U5": ("UR", "open_merit"),
                                                "S2": ("SC", "reserved"), "U6": ("ST", "dereserved")}


def test_probation_comes_after_the_exchange(tmp_path):
    """"Remaining" reserved vacancies: an SC candidate who passed the test (S7) takes the ST vacancy by exchange
    (s.6) before an ST candidate who failed it is recruited on probation."""
    pol, prob = _probation(tmp_path, "IV", cands=[*PROB_CANDS, ["S7", 7, "SC", ""]])
    got = _got(solve(pol, prob, "greedy"))
    assert got["S7"] == ("ST", "exchange") and "T3" not in got


def test_verify_rejects_probation_out_of_turn(tmp_path):
    """verify, from the Act's text: probation at a post whose class the proviso does not name; a failed
    candidate on an ordinary reserved vacancy; probation while a qualified ST candidate waits; and a
    de-reserved vacancy while a failed candidate who could have been recruited on probation waits."""
    from solver.verify import read_allocation, verify

    def rules(pol, prob, rows):
        write_csv(tmp_path / "a.csv", ["candidate_id", "post", "seat_category", "counted_as", "route"], rows)
        return {v.rule for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))}
    base = [["U1", "X", "UR", "UR", "open_merit"], ["U5", "X", "UR", "UR", "open_merit"],
            ["S2", "X", "SC", "SC", "reserved"]]
    pol, prob = _probation(tmp_path, "IV", cands=[*PROB_CANDS, ["T7", 7, "ST", ""]])
    assert "failed the test, appointed other than on probation" in rules(pol, prob,
                                                                         [*base, ["T3", "X", "ST", "ST", "reserved"]])
    assert "probation before the own category ran out" in rules(pol, prob, [*base, ["T3", "X", "ST", "ST", "probation"]])
    pol, prob = _probation(tmp_path, "IV")
    assert "dereserved before the own category ran out" in rules(pol, prob,
                                                                 [*base, ["U6", "X", "ST", "UR", "dereserved"]])
    pol, prob = _probation(tmp_path, "III-technical")
    assert "probation not allowed" in rules(pol, prob, [*base, ["T3", "X", "ST", "ST", "probation"]])


def _read_alloc(tmp_path, sol, pol, prob):
    from solver.verify import read_allocation
    write_csv(tmp_path / "alloc.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"],
              [r[:6] for r in sol.result.allocation_rows()])
    return read_allocation(tmp_path / "alloc.csv", prob, pol)
