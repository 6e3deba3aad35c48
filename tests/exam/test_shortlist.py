"""Shortlisting for the next stage (`aarakshan shortlist`): the open list first, so that a reserved candidate who
reaches its cut-off is counted in it (Rajasthan High Court v. Rajat Yadav, 2025 INSC 1503, decided 19
December 2025); a relaxed standard keeps one in his category (Deepa E.V. 2017); ties with the last called called; each
category's qualifying score applied first. Each answer is worked by hand."""
import csv
import io
import json

import pytest
import math

import numpy as np
from conftest import read_csv, write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from solver import load_policy
from solver.cli import app
from solver.io.readers import read_problem
from solver.exam.shortlist import shortlist
from solver.verify.stages import check_shortlist

# One UR and one OBC vacancy; at ratio 2, two places in each list.
CANDS = [["O1", 95, "OBC", ""], ["U1", 90, "UR", ""], ["O2", 85, "OBC", ""], ["U2", 80, "UR", ""],
         ["O3", 75, "OBC", ""], ["O4", 70, "OBC", ""], ["U3", 60, "UR", ""]]
VACS = [["X", "UR", 1], ["X", "OBC", 1]]


def run(tmp_path, cands=CANDS, sets=(), ratio=2):
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], VACS)
    pol = load_policy("central-dopt", list(sets))
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    res = shortlist(pol, prob, ratio)
    return pol, prob, res, {prob.candidates.ids[i]: res.counted_as[i] for i in np.flatnonzero(res.called)}


def test_a_reserved_candidate_above_the_open_cut_off_is_counted_in_the_open_list(tmp_path):
    """Rajat Yadav: the open list takes the two best of everyone, O1 (OBC, 95) and U1 (90): open cut-off 90. O1
    does not use an OBC place, so the OBC list is O2 and O3: OBC cut-off 75, below the open one. Listing each
    category on its own would call O1 and O2 as OBC (cut-off 85) and U1 and U2 as open (80), the OBC cut-off
    above the general one, as in the judgment's 230.44 against 196.34."""
    pol, prob, res, got = run(tmp_path)
    assert got == {"O1": "UR", "U1": "UR", "O2": "OBC", "O3": "OBC"}
    assert res.cutoffs == {"UR": 90, "SC": None, "ST": None, "OBC": 75, "EWS": None}
    assert check_shortlist(pol, prob, 2, got) == []
    wrong = {"O1": "OBC", "O2": "OBC", "U1": "UR", "U2": "UR"}
    assert any("O3" in x or "left out" in x for x in check_shortlist(pol, prob, 2, wrong))


def test_a_relaxed_standard_keeps_a_candidate_in_his_category(tmp_path):
    """DoPT OM 01.07.1998; Deepa E.V. 2017 (central-dopt bars a relaxed candidate from open): O1 availed a
    relaxed standard, so the open list is U1 and O2 (cut-off 85), and O1 takes an OBC place with O3."""
    cands = [list(r) for r in CANDS]
    cands[0][3] = "true"
    pol, prob, res, got = run(tmp_path, cands)
    assert got == {"U1": "UR", "O2": "UR", "O1": "OBC", "O3": "OBC"}
    assert check_shortlist(pol, prob, 2, got) == []
    assert any("may not be in" in x for x in check_shortlist(pol, prob, 2, {**got, "O1": "UR", "O2": "OBC"}))


def test_everyone_tied_with_the_last_called_is_called_unless_the_policy_says_otherwise(tmp_path):
    """U1b scores 90 as U1 does, the open list's last: both are called (three in two places); with
    `shortlist.include_ties = false` the merit order (here the file's) leaves U1b out."""
    cands = CANDS[:2] + [["U1b", 90, "UR", ""]] + CANDS[2:]
    pol, prob, res, got = run(tmp_path, cands)
    assert [k for k, v in got.items() if v == "UR"] == ["O1", "U1", "U1b"]
    assert check_shortlist(pol, prob, 2, got) == []
    _, _, _, strict = run(tmp_path, cands, ["shortlist.include_ties=false"])
    assert [k for k, v in strict.items() if v == "UR"] == ["O1", "U1"]


def test_a_qualifying_score_applies_before_the_ratio(tmp_path):
    """`shortlist.qualifying = {OBC = 80}`: O3 (75) and O4 (70) do not qualify, so the OBC list has O2 only."""
    pol, prob, res, got = run(tmp_path, sets=["shortlist.qualifying={OBC=80}"])
    assert got == {"O1": "UR", "U1": "UR", "O2": "OBC"}
    assert check_shortlist(pol, prob, 2, got) == []


def test_the_command_and_the_next_stage(tmp_path):
    """`shortlist` writes the three files; `verify --stage shortlist` accepts them and rejects a planted
    change; `solve --shortlist` refuses a candidate the shortlist did not call (exit 2, naming his line)."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category"], [r[:3] for r in CANDS])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], VACS)
    base = ["--policy", "central-dopt", "--candidates", tmp_path / "c.csv", "--vacancies", tmp_path / "v.csv"]
    r = CliRunner().invoke(app, ["shortlist", *map(str, base), "--ratio", "2", "--out", str(tmp_path / "s"),
                                 "--stage", "main examination"])
    assert r.exit_code == 0, r.output
    assert [x["candidate_id"] for x in read_csv(tmp_path / "s" / "shortlist.csv")] == ["O1", "U1", "O2", "O3"]
    cut = {x["category"]: x["last_score"] for x in read_csv(tmp_path / "s" / "cutoffs.csv")}
    assert (cut["UR"], cut["OBC"]) == ("90", "75")
    check = ["verify", *map(str, base), "--stage", "shortlist", "--ratio", "2", "--shortlist"]
    assert CliRunner().invoke(app, [*check, str(tmp_path / "s" / "shortlist.csv")]).exit_code == 0
    write_csv(tmp_path / "bad.csv", ["candidate_id", "counted_as", "route"],
              [["O1", "UR", "open"], ["U2", "UR", "open"], ["O2", "OBC", "reserved"], ["O3", "OBC", "reserved"]])
    bad = CliRunner().invoke(app, [*check, str(tmp_path / "bad.csv")])
    assert bad.exit_code == 1 and "U1 (score 90) is left out of the UR list" in bad.output
    # the CSV's candidate_id column names whom a finding is about; a finding about a whole list leaves it empty
    found = list(csv.DictReader(io.StringIO(bad.output[bad.output.index("rule,"):])))
    assert {r["candidate_id"] for r in found if "U1 (score 90)" in r["detail"]} == {"U1"}
    assert all(r["candidate_id"] == "" for r in found if r["detail"].startswith("the "))
    write_csv(tmp_path / "next.csv", ["id", "score", "category"], [["O1", 300, "OBC"], ["U3", 280, "UR"]])
    r = CliRunner().invoke(app, ["solve", "--policy", "central-dopt", "--candidates", str(tmp_path / "next.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--out", str(tmp_path / "o"),
                                 "--shortlist", str(tmp_path / "s" / "shortlist.csv")])
    assert r.exit_code == 2 and "line 3" in r.output and "U3 was not called" in r.output
    assert not (tmp_path / "o").exists()


def test_each_stage_names_the_previous_stages_outputs_by_sha256(tmp_path):
    """The chain of custody: a shortlist's summary names the shortlist it narrowed, the final solve's the
    shortlist it took, and a fill's every file of the run it filled, each by SHA-256."""
    from solver.outcome.reports import sha256_file

    write_csv(tmp_path / "c.csv", ["id", "score", "category"], [r[:3] for r in CANDS])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], VACS)
    base = ["--policy", "central-dopt", "--vacancies", str(tmp_path / "v.csv")]
    r = CliRunner()
    assert r.invoke(app, ["shortlist", *base, "--candidates", str(tmp_path / "c.csv"), "--ratio", "3",
                          "--out", str(tmp_path / "s1")]).exit_code == 0
    first = tmp_path / "s1" / "shortlist.csv"
    called = {x["candidate_id"] for x in read_csv(first)}
    write_csv(tmp_path / "c2.csv", ["id", "score", "category"], [r[:3] for r in CANDS if r[0] in called])
    res = r.invoke(app, ["shortlist", *base, "--candidates", str(tmp_path / "c2.csv"), "--ratio", "2",
                         "--shortlist", str(first), "--out", str(tmp_path / "s2")])
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "s2" / "summary.json").read_text())
    assert doc["provenance"]["inputs"]["shortlist"]["sha256"] == sha256_file(first)
    second = tmp_path / "s2" / "shortlist.csv"
    final = [r[:3] for r in CANDS if r[0] in {x["candidate_id"] for x in read_csv(second)}]
    write_csv(tmp_path / "c3.csv", ["id", "score", "category"], final)
    res = r.invoke(app, ["solve", *base, "--candidates", str(tmp_path / "c3.csv"), "--shortlist", str(second),
                         "--reserve-list", "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert doc["provenance"]["inputs"]["shortlist"]["sha256"] == sha256_file(second)
    gone = read_csv(tmp_path / "o" / "allocation.csv")[0]["candidate_id"]
    write_csv(tmp_path / "d.csv", ["candidate_id", "reason"], [[gone, "declined"]])
    res = r.invoke(app, ["fill", "--result", str(tmp_path / "o"), "--declined", str(tmp_path / "d.csv"),
                         "--out", str(tmp_path / "f")])
    assert res.exit_code == 0, res.output
    files = json.loads((tmp_path / "f" / "summary.json").read_text())["previous"]["files"]
    assert files["allocation.csv"] == sha256_file(tmp_path / "o" / "allocation.csv")
    assert files["summary.json"] == sha256_file(tmp_path / "o" / "summary.json")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["UR", "OBC", "SC", "EWS"]), st.integers(50, 60), st.booleans()),
                min_size=1, max_size=25),
       st.tuples(st.integers(1, 3), st.integers(0, 2), st.integers(0, 1), st.integers(0, 1)),
       st.sampled_from([1, 1.5, 2, 3]), st.booleans())
def test_no_list_leaves_out_one_who_scores_above_someone_in_it(tmp_path_factory, people, vac, ratio, ties):
    """On random stages: verify accepts every shortlist; nobody left out of a list he may be in scores above
    (or, with ties, as) its last called; no list calls more than its places but for ties."""
    tmp = tmp_path_factory.mktemp("sl")
    cands = [[f"C{k:02d}", s, cat, "true" if relaxed and cat != "UR" else ""] for k, (cat, s, relaxed)
             in enumerate(people)]
    write_csv(tmp / "c.csv", ["id", "score", "category", "relaxed"], cands)
    write_csv(tmp / "v.csv", ["post", "category", "vacancies"],
              [["X", code, k] for code, k in zip(("UR", "OBC", "SC", "EWS"), vac)])
    pol = load_policy("central-dopt", [f"shortlist.include_ties={str(ties).lower()}", "ceiling.share=1.0"])
    prob = read_problem(pol, tmp / "c.csv", tmp / "v.csv")
    res = shortlist(pol, prob, ratio)
    got = {prob.candidates.ids[i]: res.counted_as[i] for i in np.flatnonzero(res.called)}
    assert check_shortlist(pol, prob, ratio, got) == []
    for code, places in res.places.items():
        members = [i for i in np.flatnonzero(res.counted_as == code)]
        assert len(members) <= places or (ties and len({prob.candidates.score[i] for i in members[places - 1:]}) == 1)
        assert places == math.ceil(ratio * res.vacancies.get(code, 0) - 1e-9)


def test_a_pwbd_list_calls_from_the_beneficiaries_the_category_lists_left_out(tmp_path):
    """X has UR 2 (one for PwBD) and OBC 1; at ratio 2: UR 4 places, OBC 2, PwBD 2 (`shortlist.traits`). The UR
    list calls U1, P4 (PwBD, on the general standard), U2, U3; OBC calls O1, O2. The PwBD list then calls the
    two best PwBD candidates left out, P1 (UR) and P2 (OBC): P4 does not use up a PwBD place, as one called on the
    open list uses up none of his category's. P3 is not called: the PwBD cut-off is P2's 70."""
    rows = [["U1", 100, "UR", ""], ["P4", 99, "UR", "a"], ["U2", 98, "UR", ""], ["U3", 97, "UR", ""],
            ["U4", 96, "UR", ""], ["O1", 94, "OBC", ""], ["O2", 93, "OBC", ""], ["O3", 92, "OBC", ""],
            ["P1", 80, "UR", "b"], ["P2", 70, "OBC", "c"], ["P3", 60, "UR", "a"]]
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "pwbd"], rows)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "pwbd"], [["X", "UR", 2, 1], ["X", "OBC", 1, 0]])
    pol = load_policy("central-dopt", ['shortlist.traits=["pwbd"]'])
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    res = shortlist(pol, prob, 2)
    got = {prob.candidates.ids[i]: res.counted_as[i] for i in np.flatnonzero(res.called)}
    assert got == {"U1": "UR", "P4": "UR", "U2": "UR", "U3": "UR", "O1": "OBC", "O2": "OBC", "P1": "pwbd",
                   "P2": "pwbd"}
    assert res.places["pwbd"] == 2 and res.cutoffs["pwbd"] == 70
    assert check_shortlist(pol, prob, 2, got) == []
    planted = {**{k: v for k, v in got.items() if k != "P2"}, "P3": "pwbd"}
    assert any("P2 (score 70) is left out of the pwbd list" in x for x in check_shortlist(pol, prob, 2, planted))
    assert any("list 'women'" in x for x in check_shortlist(pol, prob, 2, {**got, "U4": "women"}))


def test_the_final_merit_adds_the_stages_the_policy_counts(tmp_path):
    """CSE: the main examination and the interview count, the preliminary does not (Plan of Examination). A 700 +
    180 = 880, B 720 + 150 = 870, C 690 + 200 = 890: C, A, B, though B led the main examination and A the
    preliminary. A counted stage not given, or a candidate without its score, is bad input (exit 2)."""
    write_csv(tmp_path / "c.csv", ["id", "category"], [["A", "UR"], ["B", "OBC"], ["C", "UR"]])
    write_csv(tmp_path / "m.csv", ["candidate_id", "score"], [["A", 700], ["B", 720], ["C", 690]])
    write_csv(tmp_path / "i.csv", ["candidate_id", "score"], [["A", 180], ["B", 150], ["C", 200]])
    write_csv(tmp_path / "p.csv", ["candidate_id", "score"], [["A", 99], ["B", 10], ["C", 5]])
    args = ["merit", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"), "--stage",
            f"main={tmp_path / 'm.csv'}", "--stage", f"interview={tmp_path / 'i.csv'}"]
    r = CliRunner().invoke(app, [*args, "--stage", f"prelims={tmp_path / 'p.csv'}", "--out", str(tmp_path / "f.csv")])
    assert r.exit_code == 0, r.output
    assert "prelims stage's scores are not counted" in r.output
    assert {x["id"]: x["score"] for x in read_csv(tmp_path / "f.csv")} == {"A": "880", "B": "870", "C": "890"}
    pol = load_policy("upsc-cse")
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1]])
    prob = read_problem(pol, tmp_path / "f.csv", tmp_path / "v.csv")
    assert list(prob.candidates.ids) == ["C", "A", "B"]
    r = CliRunner().invoke(app, [*args[:-2], "--out", str(tmp_path / "g.csv")])
    assert r.exit_code == 2 and "counts the interview stage" in r.output and not (tmp_path / "g.csv").exists()
    write_csv(tmp_path / "i.csv", ["candidate_id", "score"], [["A", 180], ["C", 200]])
    r = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "h.csv")])
    assert r.exit_code == 2 and "B has no score at the interview stage" in r.output


@pytest.mark.parametrize("ratio", ["0", "-1", "nan", "inf", "1e307"])
def test_shortlist_and_its_verify_refuse_the_same_ratios(tmp_path, ratio):
    """A ratio must be positive and finite (1e307 x the vacancies overflowed to a traceback): `shortlist` and
    `verify --stage shortlist` refuse the same ratios with the same words, where verify once said "every rule
    of the shortlist holds" for 0 or -1 and crashed on nan."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], VACS)
    write_csv(tmp_path / "s.csv", ["candidate_id", "counted_as", "route"], [["O1", "UR", "open_merit"]])
    common = ["--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"), "--vacancies", str(tmp_path / "v.csv"),
              "--ratio", ratio]
    made = CliRunner().invoke(app, ["shortlist", *common, "--stage", "main", "--out", str(tmp_path / "out")])
    checked = CliRunner().invoke(app, ["verify", *common, "--stage", "shortlist", "--shortlist", str(tmp_path / "s.csv")])
    for r in (made, checked):
        assert r.exit_code == 2, r.output
        assert "--ratio: the ratio must be a positive number" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "out").exists()


def test_a_shortlist_naming_a_candidate_twice_is_refused(tmp_path):
    """A candidate is called once, in one list: a shortlist.csv naming him twice is refused at the second line."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed"], CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], VACS)
    write_csv(tmp_path / "s.csv", ["candidate_id", "counted_as", "route"],
              [["O1", "UR", "open_merit"], ["U1", "UR", "open_merit"], ["O1", "OBC", "reserved"]])
    r = CliRunner().invoke(app, ["verify", "--policy", "central-dopt", "--candidates", str(tmp_path / "c.csv"),
                                 "--vacancies", str(tmp_path / "v.csv"), "--ratio", "2", "--stage", "shortlist",
                                 "--shortlist", str(tmp_path / "s.csv")])
    assert r.exit_code == 2
    assert "s.csv, line 4, column 1 (candidate_id): duplicate candidate_id 'O1' (first on line 2)" in r.output


def test_the_final_merit_refuses_an_infinite_sum_and_tells_of_unknown_ids(tmp_path):
    """Two stage scores of 1e308 sum past a float (they were written as inf); a stage file scoring someone the
    candidates file lacks is said, with his line, where it was ignored without a word."""
    write_csv(tmp_path / "c.csv", ["id", "category"], [["A", "UR"], ["B", "OBC"]])
    write_csv(tmp_path / "m.csv", ["candidate_id", "score"], [["A", "1e308"], ["B", 700], ["Z", 10]])
    write_csv(tmp_path / "i.csv", ["candidate_id", "score"], [["A", "1e308"], ["B", 150]])
    r = CliRunner().invoke(app, ["merit", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"), "--stage",
                                 f"main={tmp_path / 'm.csv'}", "--stage", f"interview={tmp_path / 'i.csv'}",
                                 "--out", str(tmp_path / "f.csv")])
    assert r.exit_code == 2
    out = " ".join(r.output.split())
    assert "1 candidate(s) scored at the main stage are not in the candidates file (the first, Z, on line 4)" in out
    assert "c.csv, line 2" in out and "A's final score is not a finite number" in out
    assert not (tmp_path / "f.csv").exists()
