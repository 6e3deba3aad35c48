"""Over several years a backlog is a stock: against_baseline.csv reports the unfilled vacancies and the backlog
carried out as they stand at the end of the period, never as a sum of each year's (which counted one backlog
vacancy once per year it waited), and selections and fills, which are flows, summed; its `over` column says
which."""
from conftest import read_csv
from typer.testing import CliRunner
from years import year_folder

from solver.cli import app


def test_a_backlog_carried_through_two_years_is_one_backlog(tmp_path):
    """central-dopt, post P. 2021: 2 UR, 1 SC; A (UR) 1st, B (SC) 2nd, C (UR) 3rd: A and B take the open
    vacancies on merit, the SC vacancy has no SC candidate left and is carried (DoPT OM 20.07.2000). 2022: 1 UR
    and the backlog; E (SC) 1st takes the open vacancy on merit, X (UR) none: the same backlog vacancy is carried
    on. At the end of 2022 the SC backlog is 1 (the old sum said 2); 3 UR vacancies were filled over the years,
    a flow (A, B, E: all on open merit)."""
    year_folder(tmp_path / "years", 2021, [("A", 1, "UR", "M"), ("B", 2, "SC", "M"), ("C", 3, "UR", "F")],
                [("P", "UR", 2), ("P", "SC", 1)])
    year_folder(tmp_path / "years", 2022, [("E", 1, "SC", "M"), ("X", 2, "UR", "M")], [("P", "UR", 1)])
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", "--years", str(tmp_path / "years"), "--grid",
                                 "roster.tie=relative_deficit,policy_order", "--baseline",
                                 "roster.tie=relative_deficit", "--out", str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    rows = {(x["category"], x["measure"]): x for x in read_csv(tmp_path / "sw" / "against_baseline.csv")}
    backlog = rows[("SC", "carried out")]
    assert (backlog["baseline"], backlog["value"], backlog["over"]) == ("1", "1", "at the end of 2022")
    assert (rows[("SC", "unfilled")]["baseline"], rows[("SC", "unfilled")]["over"]) == ("1", "at the end of 2022")
    filled = rows[("UR", "filled")]
    assert (filled["baseline"], filled["over"], filled["years"]) == ("3", "sum over the years", "2021 2022")
