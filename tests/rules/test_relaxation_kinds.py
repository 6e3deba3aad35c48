"""Migration after a relaxation, by kind (candidates.csv `relaxed`: age, attempts, fee, qualifying, standard, or
true/false as before; `migration.bars_open`), worked by hand on central-dopt: one post P with one UR and one OBC
vacancy; O1 (OBC) ranks 1st, U1 (UR) 2nd, O2 (OBC) 3rd.

- DoPT OM 01.07.1998, binding as an embargo (Union of India v. Sajib Roy, 2025 INSC 1084): one who availed a
  relaxed age, number of attempts, qualification or standard is not adjusted against an unreserved vacancy:
  O1 takes the OBC vacancy, U1 the open one, O2 none.
- A fee concession is not among them: O1 takes the open vacancy on merit, U1 none, O2 the OBC one.
- The declared question: with a relaxed qualifying mark read as eligibility, not merit (the Maharashtra
  TET/TAIT case), O1 is open merit again.
- A plain `true` keeps its meaning, a relaxed standard."""
import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.errors import InputError
from solver.io.readers import read_problem
from solver.chain.solve import solve

TET = 'migration.bars_open.final=["age", "attempts", "standard"]'


def held(tmp_path, relaxed, sets=(), engine="greedy"):
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "relaxed"],
              [["O1", 1, "OBC", relaxed], ["U1", 2, "UR", ""], ["O2", 3, "OBC", ""]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["P", "UR", 1], ["P", "OBC", 1]])
    pol = load_policy("central-dopt", list(sets))
    res = solve(pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv"), engine).result
    return {r[0]: r[2] for r in res.allocation_rows()}


BARRED = {"O1": "OBC", "U1": "UR"}
OPEN = {"O1": "UR", "O2": "OBC"}


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
@pytest.mark.parametrize("relaxed, sets, want", [
    ("age", (), BARRED), ("attempts", (), BARRED), ("qualifying", (), BARRED), ("standard", (), BARRED),
    ("true", (), BARRED), ("fee", (), OPEN), ("", (), OPEN),
    ("qualifying", (TET,), OPEN), ("age;fee", (TET,), BARRED), ("true", (TET,), BARRED),
    ("age", ("migration.relaxed_may_take_open=true",), OPEN)])
def test_which_relaxation_bars_the_open_list(tmp_path, relaxed, sets, want, engine):
    assert held(tmp_path, relaxed, sets, engine) == want


def test_an_unknown_relaxation_is_refused_at_its_cell(tmp_path):
    with pytest.raises(InputError, match="line 2, column 4 \\(relaxed\\): 'height' is not a relaxation"):
        held(tmp_path, "age;height")


def test_the_shortlisting_stage_reads_its_own_bars(tmp_path):
    """At a shortlisting stage the relaxations that bar are `bars_open.shortlist`: with only a relaxed standard
    barring there, O1 (relaxed qualifying mark, 95) tops the open list of one place, and U1 (90) is left out; with
    the model's own list (qualifying among them), O1 is called in the OBC list and U1 tops the open list. verify
    agrees with each."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed"],
              [["O1", 95, "OBC", "qualifying"], ["U1", 90, "UR", ""], ["O2", 85, "OBC", ""]])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["P", "UR", 1], ["P", "OBC", 1]])
    for sets, want in (([], {"O1": "OBC", "U1": "UR"}), (['migration.bars_open.shortlist=["standard"]'],
                                                         {"O1": "UR", "O2": "OBC"})):
        out = tmp_path / f"s{len(sets)}"
        args = ["--policy", "central-dopt", *[x for s in sets for x in ("--set", s)], "--candidates",
                str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"), "--ratio", "1"]
        r = CliRunner().invoke(app, ["shortlist", *args, "--out", str(out)])
        assert r.exit_code == 0, r.output
        assert {x["candidate_id"]: x["counted_as"] for x in read_csv(out / "shortlist.csv")} == want
        r = CliRunner().invoke(app, ["verify", *args, "--stage", "shortlist", "--shortlist", str(out / "shortlist.csv")])
        assert r.exit_code == 0, r.output
