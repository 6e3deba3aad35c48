"""The annual report on appointments: Bill 2004 s.14(1) ("a report on the appointments made
by direct recruitment and promotions"), Manipur Act 1976 s.13(1) ("by the end of the month of July of the
succeeding financial year"; s.2(b): the recruitment year is the financial year), Bihar Act 1991 s.15(2)(c).

The figures below are derived by hand from what each year's inputs leave under the Act."""
from __future__ import annotations

from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver.cli import app


def _solve(tmp_path, policy, year, reg, cands, rows, kind="direct"):
    d = tmp_path / f"{kind}{year}"
    d.mkdir()
    write_csv(d / "c.csv", ["id", "rank", "category"], cands)
    write_csv(d / "v.csv", ["post", "category", "vacancies"], rows)
    r = CliRunner().invoke(app, ["solve", "--policy", policy, "--candidates", str(d / "c.csv"), "--vacancies",
                                 str(d / "v.csv"), "--out", str(d / "out"), "--engine", "greedy", "--register",
                                 str(tmp_path / reg), "--year", str(year), "--recruitment", kind, "--quiet"])
    assert r.exit_code == 0, r.output


def _row(rows, kind, post, code):
    return next(r for r in rows if (r["recruitment"], r["post"], r["category"]) == (kind, post, code))


def test_report_counts_appointments_by_route_and_the_backlog_for_direct_recruitment_and_promotion(tmp_path):
    """Bihar, post X. 2021 direct: UR 1, SC 1; the list has U1 (UR) and no SC candidate, so the SC vacancy is
    kept for SC (s.4(6)(a): "continue to be reserved for three recruitment years"). 2022 direct: UR 1 and
    the carried SC vacancy; S1 (SC, rank 1) takes the open vacancy on merit (s.4(3)) and S2 (SC) the carried
    one. 2022 promotion (its own register, s.6(2)): UR 1, won by P1.

    The 2022 report: X UR direct: 1 vacancy, 1 open-merit appointment; X SC direct: 1 carried in, 1 reserved
    appointment, 0 carried out; appointees by own category SC 2; promotion X UR: 1 appointment."""
    _solve(tmp_path, "bihar-1991", 2021, "direct.sqlite", [["U1", 1, "UR"]], [["X", "UR", 1], ["X", "SC", 1]])
    _solve(tmp_path, "bihar-1991", 2022, "direct.sqlite", [["S1", 1, "SC"], ["S2", 2, "SC"]],
           [["X", "UR", 1], ["X", "SC", 0]])
    _solve(tmp_path, "bihar-1991", 2022, "promotion.sqlite", [["P1", 1, "UR"]], [["X", "UR", 1]], "promotion")
    r = CliRunner().invoke(app, ["report", "--register", str(tmp_path / "direct.sqlite"), "--register",
                                 str(tmp_path / "promotion.sqlite"), "--year", "2022", "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    rows = read_csv(tmp_path / "rep" / "report.csv")
    ur, sc = _row(rows, "direct", "X", "UR"), _row(rows, "direct", "X", "SC")
    assert (ur["vacancies"], ur["appointed_open_merit"], ur["appointed"]) == ("1", "1", "1")
    assert (sc["carried_in"], sc["appointed_reserved"], sc["carried_out"]) == ("1", "1", "0")
    assert sc["appointees_own_category"] == "2"       # S1 on merit and S2 against the carried vacancy
    assert _row(rows, "promotion", "X", "UR")["appointed_open_merit"] == "1"
    assert _row(rows, "direct", "ALL", "SC")["appointed"] == "1"
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "Direct recruitment" in page and "Promotion" in page and "2022 (calendar year)" in page

    r = CliRunner().invoke(app, ["report", "--register", str(tmp_path / "direct.sqlite"), "--year", "2021",
                                 "--out", str(tmp_path / "rep21")])
    sc21 = _row(read_csv(tmp_path / "rep21" / "report.csv"), "direct", "X", "SC")
    assert (sc21["vacancies"], sc21["appointed"], sc21["carried_out"]) == ("1", "0", "1")


def test_manipur_reports_a_financial_year_due_the_next_july(tmp_path):
    """Manipur s.2(b) and s.13(1): recruitment year 2021 is April 2021 to March 2022, and its report is due by
    31 July 2022. A year the register does not hold is an input error (exit 2), and nothing is written."""
    _solve(tmp_path, "manipur-1976", 2021, "m.sqlite", [["U1", 1, "UR"]], [["X", "UR", 1]])
    r = CliRunner().invoke(app, ["report", "--register", str(tmp_path / "m.sqlite"), "--year", "2021", "--out",
                                 str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "2021-22 (financial year, 1 April 2021 to 31 March 2022)" in page and "31 July 2022" in page
    r = CliRunner().invoke(app, ["report", "--register", str(tmp_path / "m.sqlite"), "--year", "2023", "--out",
                                 str(tmp_path / "none")])
    assert r.exit_code == 2 and "holds no year 2023" in r.output and not (tmp_path / "none").exists()
