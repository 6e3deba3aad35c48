"""PwBD candidates at a shortlisting stage: two readings, each worked by hand.

- The UPSC's practice (`shortlist.traits = ["pwbd"]`, upsc-cse's default): a cut-off for PwBD candidates is
  published at every stage, so after the category lists a PwBD list calls the ratio times the PwBD vacancies
  from the PwBD candidates those lists left out.
- Rekha Sharma v. Rajasthan High Court, 2024 INSC 615 (`shortlist.traits = []`): PwBD reservation is horizontal
  (Art. 16(1)); a PwBD candidate "had to secure the minimum cut off marks fixed for such category" he applied
  under, and no separate PwBD cut-off is owed.

The instance: one post, one UR and one OBC vacancy, one PwBD vacancy among them; ratio 2.
Merit: U1 100 (UR), U2 95 (UR), O1 90 (OBC), O2 85 (OBC), B1 80 (UR, PwBD), B2 70 (OBC, PwBD), U3 60 (UR).
- UR list: 2 x 1 = 2 places: U1, U2 (cut-off 95). OBC list: 2 places: O1, O2 (cut-off 85).
- Rekha Sharma: B1 (80 < 95) and B2 (70 < 85) are below their categories' cut-offs: not called.
- The UPSC's list: 2 x 1 = 2 PwBD places, from those left out: B1, B2 (PwBD cut-off 70). U3 stays out.
So B1's and B2's shortlisting turns on the question, and nobody else's."""
import json

import pytest
from conftest import read_csv, write_csv
from typer.testing import CliRunner

from solver import load_policy
from solver.audit.readings import open_options
from solver.audit.shortlisting import audit_shortlist
from solver.cli import app
from solver.exam.shortlist import shortlist
from solver.io.readers import read_problem
from solver.verify.stages import check_shortlist

CANDS = [["U1", 100, "UR", ""], ["U2", 95, "UR", ""], ["O1", 90, "OBC", ""], ["O2", 85, "OBC", ""],
         ["B1", 80, "UR", "c"], ["B2", 70, "OBC", "a"], ["U3", 60, "UR", ""]]
VACS = [["X", "UR", 1, 1], ["X", "OBC", 1, ""]]


@pytest.fixture
def inputs(tmp_path):
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "pwbd"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "pwbd"], VACS)
    return tmp_path


def called(policy, folder):
    prob = read_problem(policy, folder / "c.csv", folder / "v.csv")
    s = shortlist(policy, prob, 2)
    return {str(prob.candidates.ids[i]): s.counted_as[i] for i in s.called.nonzero()[0]}, s, prob


def test_the_upsc_calls_pwbd_candidates_on_a_list_of_their_own(inputs):
    pol = load_policy("upsc-cse")
    got, s, prob = called(pol, inputs)
    assert got == {"U1": "UR", "U2": "UR", "O1": "OBC", "O2": "OBC", "B1": "pwbd", "B2": "pwbd"}
    assert (s.cutoffs["UR"], s.cutoffs["OBC"], s.cutoffs["pwbd"]) == (95, 85, 70)
    ids = {cid: lst for cid, lst in got.items()}
    assert check_shortlist(pol, prob, 2, ids) == []


def test_under_rekha_sharma_a_pwbd_candidate_needs_his_categorys_cut_off(inputs):
    pol = load_policy("upsc-cse", ["shortlist.traits=[]"])
    got, s, prob = called(pol, inputs)
    assert got == {"U1": "UR", "U2": "UR", "O1": "OBC", "O2": "OBC"}
    assert "pwbd" not in s.cutoffs
    assert check_shortlist(pol, prob, 2, got) == []
    # verify holds each reading to its own rule: the PwBD list drawn where the policy owes none is refused
    with_list = {**got, "B1": "pwbd", "B2": "pwbd"}
    assert any("pwbd" in m for m in check_shortlist(pol, prob, 2, with_list))


def test_a_pwbd_candidate_within_his_categorys_cut_off_is_called_either_way(inputs):
    """B1 at 96 passes the UR cut-off: the UR list calls him (U2 drops to the next), whatever the reading."""
    rows = [["B1", 96, "UR", "c"] if r[0] == "B1" else r for r in CANDS]
    write_csv(inputs / "c.csv", ["id", "score", "category", "pwbd"], rows)
    for sets in ([], ["shortlist.traits=[]"]):
        got, _, _ = called(load_policy("upsc-cse", sets), inputs)
        assert got["B1"] == "UR"


def test_the_audit_lists_whose_shortlisting_turns_on_the_question(inputs):
    pol = load_policy("upsc-cse")
    prob = read_problem(pol, inputs / "c.csv", inputs / "v.csv")
    options = open_options(pol, problem=prob, decides="shortlist")
    assert [o.key for o in options] == ["shortlist.traits"]
    a = audit_shortlist(pol, prob, 2, options, lambda sets: load_policy("upsc-cse", list(sets)))
    assert [(r[0], r[2], r[3], r[4]) for r in a.contested] == [("B1", "called", "not called", "pwbd"),
                                                              ("B2", "called", "not called", "pwbd")]
    assert "Rekha Sharma" in a.contested[0][7]


def test_audit_stage_shortlist_on_the_command_line(inputs):
    base = ["audit", "--policy", "upsc-cse", "--candidates", str(inputs / "c.csv"), "--vacancies",
            str(inputs / "v.csv"), "--stage", "shortlist", "--ratio", "2", "--out", str(inputs / "a")]
    r = CliRunner().invoke(app, base)
    assert r.exit_code == 0, r.output
    assert [x["candidate_id"] for x in read_csv(inputs / "a" / "contested.csv")] == ["B1", "B2"]
    doc = json.loads((inputs / "a" / "audit.json").read_text())
    assert doc["stage"] == "shortlist" and doc["contested"] == 2
    assert [x["called"] for x in doc["readings"]] == [6, 4]
    r = CliRunner().invoke(app, [*base[:-2], "--out", str(inputs / "b"), "--ask", "B1"])
    assert r.exit_code == 2 and not (inputs / "b").exists()


def test_nobody_with_a_disability_leaves_the_question_unasked(inputs):
    """`shortlist.traits` can decide a shortlist only where someone is a PwBD candidate (audit.readings.APPLIES)."""
    write_csv(inputs / "c.csv", ["id", "score", "category", "pwbd"], [r[:3] + [""] for r in CANDS])
    pol = load_policy("upsc-cse")
    prob = read_problem(pol, inputs / "c.csv", inputs / "v.csv")
    assert open_options(pol, problem=prob, decides="shortlist") == []
