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


def test_a_scenario_refused_in_a_later_year_says_so_everywhere(tmp_path):
    """central-dopt, post P on its running roster: 2021 has 11 vacancies (points 1-11: 4 reserved of 11), 2022
    has 5 (points 12-16: OBC, UR, ST, SC, OBC, 4 of 5 reserved). At a 50% ceiling 2022 is refused (Art. 16(4B)
    read per year, `ceiling.roster_window = "counted"`); at 90% it is not. The refused scenario's note that its
    ceiling "does not bind" holds only for 2021 and says so; the console counts the refusal."""
    cands = [(f"C{k}", k, ["UR", "OBC", "SC", "ST"][k % 4], "M") for k in range(1, 41)]
    year_folder(tmp_path / "years", 2021, cands, [("P", "TOTAL", 11)])
    year_folder(tmp_path / "years", 2022, cands, [("P", "TOTAL", 5)])
    r = CliRunner().invoke(app, ["sweep", "--policy", "central-dopt", "--years", str(tmp_path / "years"), "--grid",
                                 "ceiling.share=0.5,0.9", "--out", str(tmp_path / "sw")])
    assert r.exit_code == 0, r.output
    assert "2 scenarios x 2 year(s); 1 refused" in " ".join(r.output.split())
    notes = {x["scenario"]: (x["status"], x["notes"]) for x in read_csv(tmp_path / "sw" / "scenarios.csv")}
    status, note = notes["ceiling.share=0.5"]
    assert status.startswith("refused in 2022")
    assert "does not bind" in note and "(only in 2021; the scenario was refused in 2022)" in note
    assert notes["ceiling.share=0.9"][0] == "solved"
