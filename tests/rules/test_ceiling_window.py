"""`ceiling.roster_window`, an open question declared in central-dopt, central-2004 and upsc-cse: is a year
that is a window of a post's running roster held to the 50% ceiling when that window is over half reserved?
Points 12-16 of the 200-point direct-recruitment roster (DoPT OM 02.07.1997, with EWS by OM 31.01.2019) are
OBC, UR, ST, SC, OBC: four of five reserved (80%), though the roster keeps the share over its cycle.

- "counted" (the default; Art. 16(4B): the ceiling is on "the vacancies of that year"; Indra Sawhney 1992):
  the year breaks the ceiling and, with `ceiling.excess = "refuse"`, is refused (exit 3);
- "roster_governs" (R.K. Sabharwal 1995; DoPT OM 02.07.1997): the roster's points decide, 1 UR, 2 OBC, 1 ST,
  1 SC, and verify does not call the year's window a broken ceiling."""
import pytest
from conftest import write_csv
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.io.readers import read_problem
from solver.verify import read_allocation, verify

CANDS = [(f"U{k}", k, "UR") for k in range(1, 4)] + [("O1", 4, "OBC"), ("O2", 5, "OBC"), ("S1", 6, "SC"),
                                                      ("T1", 7, "ST")]


def inputs(tmp_path):
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "roster_start"], [("P", "TOTAL", 5, 12)])
    return ["--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv")]


@pytest.mark.parametrize("policy", ["central-dopt", "central-2004", "upsc-cse"])
def test_the_window_counted_breaks_the_ceiling(tmp_path, policy):
    r = CliRunner().invoke(app, ["solve", "--policy", policy, *inputs(tmp_path), "--out", str(tmp_path / "o")])
    assert r.exit_code == 3, r.output
    assert "4 of 5 vacancies are reserved" in r.output and not (tmp_path / "o").exists()


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_the_roster_governs_its_window(tmp_path, engine):
    sets = ["--set", "ceiling.roster_window=roster_governs"]
    r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", *sets, *inputs(tmp_path), "--engine", engine,
                                 "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    rows = (tmp_path / "o" / "allocation.csv").read_text().splitlines()[1:]
    assert sorted((x.split(",")[0], x.split(",")[2]) for x in rows) == \
        [("O1", "OBC"), ("O2", "OBC"), ("S1", "SC"), ("T1", "ST"), ("U1", "UR")]
    r = CliRunner().invoke(app, ["verify", "--policy", "central-dopt", *sets, *inputs(tmp_path), "--allocation",
                                 str(tmp_path / "o" / "allocation.csv")])
    assert r.exit_code == 0, r.output
    # the same allocation read with the window counted: the ceiling is broken, twice (vacancies, appointments)
    pol = load_policy("central-dopt")
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    found = [v.rule for v in verify(pol, prob, read_allocation(tmp_path / "o" / "allocation.csv", prob, pol))]
    assert found.count("ceiling broken") == 2


def test_the_audit_asks_the_question_only_where_a_roster_splits_a_row(tmp_path):
    """The declared question decides a recruitment only where a TOTAL row is split by the running roster: the
    audit solves it there and says it cannot decide per-category rows."""
    from solver.audit.readings import open_options
    pol = load_policy("central-dopt")
    args = inputs(tmp_path)
    with_roster = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    assert "ceiling.roster_window" in [o.key for o in open_options(pol, [], True, with_roster)]
    write_csv(tmp_path / "w.csv", ["post", "category", "vacancies"], [("P", "UR", 3), ("P", "OBC", 2)])
    rows = read_problem(pol, tmp_path / "c.csv", tmp_path / "w.csv")
    assert "ceiling.roster_window" not in [o.key for o in open_options(pol, [], True, rows)]
    r = CliRunner().invoke(app, ["audit", "--policy", "central-dopt", "--candidates", args[1], "--vacancies",
                                 str(tmp_path / "w.csv"), "--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    assert "open question ceiling.roster_window cannot decide this recruitment" in " ".join(r.output.split())
