"""The consolidated reserve list and the fill of vacancies left after service allocation (UPSC CSE Rule 16(4)-(5);
Rule 20(4)-(6) as amended 14 November 2025, read from the gazette and press summaries: `Policy.reserve_list`).
Each answer below is worked by hand from those summaries; the property tests check the engines against
`verify --stage reserve|fill` and plant violations it must find."""
import hypothesis.strategies as st
import numpy as np
import pytest
from conftest import CASES, read_csv, write_csv
from hypothesis import HealthCheck, given, settings
from strategies import instances, materialise
from typer.testing import CliRunner

from solver import load_policy
from solver.chain.solve import solve
from solver.cli import app
from solver.exam.fill import fill
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.exam.reserve import reserve_list
from solver.verify import read_allocation
from solver.verify.fill import check_fill
from solver.verify.stages import check_reserve

# One post. Five open vacancies, one OBC, one SC. Scores fall down the file; S1 and S4 are PwBD (a).
CANDS = [["O1", 100, "OBC", "", ""], ["U1", 99, "UR", "", ""], ["O2", 98, "OBC", "", ""], ["S1", 97, "SC", "", "a"],
         ["U2", 96, "UR", "", ""], ["U3", 95, "UR", "", ""], ["U4", 94, "UR", "", ""], ["O4", 93, "OBC", "", ""],
         ["U5", 92, "UR", "", ""], ["U6", 91, "UR", "", ""], ["O3", 90, "OBC", "true", ""],
         ["S2", 85, "SC", "true", ""], ["O5", 80, "OBC", "true", ""], ["S3", 75, "SC", "true", ""],
         ["S4", 70, "SC", "true", "a"], ["U7", 60, "UR", "", ""], ["O6", 55, "OBC", "true", ""]]
VACS = [["X", "UR", 5], ["X", "OBC", 1], ["X", "SC", 1]]


def solved(tmp_path, cands=CANDS, vacs=VACS, prefs=None, policy="upsc-cse", sets=()):
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed", "pwbd"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], vacs)
    pp = write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs) if prefs else None
    pol = load_policy(policy, list(sets))
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", pp)
    res = solve(pol, prob, "greedy").result
    write_outputs(tmp_path / "out", res, {})
    return pol, prob, res, read_allocation(tmp_path / "out" / "allocation.csv", prob, pol)


def listing(res, r):
    return [(cid, part, kind, k + 2) for k, (cid, part, kind, _, _) in enumerate(r.rows(res.problem.candidates.ids))]


def parts(rows, kind="reserve"):
    out = {}
    for cid, part, k, _ in rows:
        if k == kind:
            out.setdefault(part, []).append(cid)
    return out


def test_each_part_as_large_as_its_members_recommended_at_the_general_standard(tmp_path):
    """The open list is O1, U1, O2, S1, U2: two OBC and one SC candidate recommended at the general standard, and
    one PwBD-1 (S1). O4 takes the OBC vacancy, S2 the SC one. Parts: OBC 2, SC 1, PwBD-1 1, the open part their
    sum, 4 (as CSE 2025's 129 = 26 + 86 + 8 + 6 + 1 + 2). The open part is drawn first from everyone not
    recommended who may hold an open vacancy: U3, U4, U5, U6 (O3, at 90, availed a relaxed standard). Then OBC:
    O3, O5; SC: S3; PwBD-1: S4 (an SC candidate, drawn after the SC part). The Extended List, as large again:
    U7 for the open part, O6 for the OBC part, nobody left for the others."""
    pol, prob, res, alloc = solved(tmp_path)
    assert sorted(np.asarray(prob.candidates.ids)[res.selected]) == sorted(["O1", "U1", "O2", "S1", "U2", "O4", "S2"])
    r = reserve_list(pol, res)
    assert r.sizes == {"UR": 4, "SC": 1, "ST": 0, "OBC": 2, "EWS": 0, "pwbd_a": 1, "pwbd_b": 0}
    rows = listing(res, r)
    assert parts(rows) == {"UR": ["U3", "U4", "U5", "U6"], "OBC": ["O3", "O5"], "SC": ["S3"], "pwbd_a": ["S4"]}
    assert parts(rows, "extended") == {"UR": ["U7"], "OBC": ["O6"]}
    assert check_reserve(pol, prob, alloc, rows) == []


def test_a_relaxed_standard_keeps_a_candidate_out_of_the_open_part(tmp_path):
    """DoPT OM 01.07.1998; Deepa E.V. 2017: O6 availed a relaxed standard, so the Extended List's open part has
    only U7 and O6 is in the OBC part. Where the policy lets relaxed candidates take open vacancies
    (`migration.relaxed_may_take_open = true`), the open part, drawn first, takes both."""
    pol, prob, res, alloc = solved(tmp_path, sets=["migration.relaxed_may_take_open=true"])
    rows = listing(res, reserve_list(pol, res))
    assert parts(rows, "extended") == {"UR": ["U7", "O6"]}
    assert check_reserve(pol, prob, alloc, rows) == []


def test_verify_finds_a_list_drawn_against_the_rule(tmp_path):
    """Planted: the open part without U5 (too short while U5 is eligible), the OBC part with O4 (recommended),
    and U7 moved from the Extended List into the open part over U5."""
    pol, prob, res, alloc = solved(tmp_path)
    rows = listing(res, reserve_list(pol, res))
    short = [x for x in rows if x[0] != "U5"]
    assert any("U5" in m and "left out" in m for m in check_reserve(pol, prob, alloc, short))
    assert any("O4 was recommended" in m for m in check_reserve(pol, prob, alloc, rows + [("O4", "OBC", "reserve", 99)]))
    swapped = [("U7", p, k, line) if cid == "U5" else (cid, p, k, line) for cid, p, k, line in rows if cid != "U7"]
    assert any("U7" in m for m in check_reserve(pol, prob, alloc, swapped))


def test_one_row_missing_is_one_finding_about_whom_it_leaves_out(tmp_path):
    """Each part is judged against the parts before it as the rule draws them, not as listed: the open part
    without U4 is one finding (U4 left out, candidate_id U4), not that one plus the Extended List's open part
    shifting up to take U4 and leaving U7 out. Drawn by hand: the open part is U3, U4, U5, U6, the Extended
    List's U7 whatever the open part lists."""
    pol, prob, res, alloc = solved(tmp_path)
    rows = listing(res, reserve_list(pol, res))
    found = check_reserve(pol, prob, alloc, [x for x in rows if x[0] != "U4"])
    assert len(found) == 1 and "U4 (merit position 7) is left out of the UR part of the reserve list" in found[0]
    assert (found[0].candidate, found[0].post) == ("U4", "")


def test_the_service_upgrade_case_leaves_the_next_general_candidate_on_the_list():
    """The worked case `service-upgrade` (Rule 16(2), Ramesh Ram 2010): O1 was recommended on merit and took the
    OBC vacancy at X; O2 holds the open vacancy it freed. One OBC candidate at the general standard: an OBC part
    of one (nobody left for it) and an open part of one, G3."""
    case = CASES / "service-upgrade"
    pol = load_policy("upsc-cse")
    prob = read_problem(pol, case / "candidates.csv", case / "vacancies.csv", case / "preferences.csv")
    res = solve(pol, prob, "greedy").result
    r = reserve_list(pol, res)
    assert (r.sizes["UR"], r.sizes["OBC"]) == (1, 1)
    assert parts(listing(res, r)) == {"UR": ["G3"]}


# Two posts. X: UR 1, OBC 1; Y: UR 2. Everyone ranks X first but O1, who ranks Y first.
FILL_CANDS = [["U1", 100, "UR", "", ""], ["U2", 95, "UR", "", ""], ["O1", 92, "OBC", "", ""],
              ["U3", 90, "UR", "", ""], ["O2", 80, "OBC", "true", ""], ["U4", 70, "UR", "", ""],
              ["O3", 60, "OBC", "true", ""], ["U5", 50, "UR", "", ""], ["O4", 40, "OBC", "true", ""]]
FILL_VACS = [["X", "UR", 1], ["X", "OBC", 1], ["Y", "UR", 2]]


def prefs(first_y=("O1",)):
    return [[c[0], k + 1, p] for c in FILL_CANDS
            for k, p in enumerate(["Y", "X"] if c[0] in first_y else ["X", "Y"])]


def filled(tmp_path, declined, engine="greedy", first_y=("O1",)):
    pol, prob, res, alloc = solved(tmp_path, FILL_CANDS, FILL_VACS, prefs(first_y))
    rows = listing(res, reserve_list(pol, res))
    listed = {cid: kind for cid, _, kind, _ in rows}
    before = read_csv(tmp_path / "out" / "allocation.csv")
    return pol, prob, alloc, rows, listed, fill(pol, prob, before, listed, declined, engine,
                                                parts={cid: part for cid, part, _, _ in rows})


def test_a_declined_vacancy_goes_to_the_reserve_list_of_its_category(tmp_path):
    """U1 at X (UR), U2 and O1 (on merit) at Y, O2 at X (OBC). O1 at the general standard makes an open part of
    one (U3) and an OBC part of one (O3); the Extended List U4, O4. O2 declines the OBC vacancy at X: it goes to
    O3 of the OBC part, not to U3 who ranks above him (CSE Rule 16(5): "in each category")."""
    pol, prob, alloc, rows, listed, done = filled(tmp_path, {"O2": "declined"})
    assert parts(rows) == {"UR": ["U3"], "OBC": ["O3"]} and parts(rows, "extended") == {"UR": ["U4"], "OBC": ["O4"]}
    assert [r[:3] for r in done.rows] == [["O3", "X", "OBC"]]
    assert done.report == [["X", "OBC", "O3", "declined", "reserve", "", "O2", "OBC", "reserved"]]


def test_a_vacancy_an_upgrade_freed_is_an_open_one(tmp_path):
    """Rule 16(2), Ramesh Ram 2010: had O1 ranked X first, he would take X's OBC vacancy by an upgrade, and O2 the
    open vacancy at Y it freed. O2 declining then leaves an open vacancy, filled from the open part: U3."""
    pol, prob, alloc, rows, listed, done = filled(tmp_path, {"O2": "declined"}, first_y=())
    assert {alloc.ids[r]: (prob.posts[alloc.post[r]], alloc.route[r]) for r in range(len(alloc.ids))}["O1"] == \
        ("X", "upgrade")
    assert [r[:3] for r in done.rows] == [["U3", "Y", "UR"]]


def test_the_extended_list_serves_only_the_reasons_the_amendment_names(tmp_path):
    """O2, U2 and U1 leave. The reserve list's O3 fills the OBC vacancy, U3 the open one at X (he ranks X first).
    U2's open vacancy at Y is left: he declined, which is not among Rule 20(5)(a)(2)'s reasons, so U4 of the
    Extended List may not take it. Had U2's candidature been cancelled, U4 takes it."""
    gone = {"O2": "declined", "U2": "declined", "U1": "declined"}
    pol, prob, alloc, rows, listed, done = filled(tmp_path, gone)
    assert {r[0]: r[1] for r in done.rows} == {"U3": "X", "O3": "X"}
    assert done.unfilled == [["X", "OBC", 1, 1, 0, ""], ["X", "UR", 1, 1, 0, ""], ["Y", "UR", 1, 0, 1, "unfilled"]]
    _, _, _, _, _, done = filled(tmp_path, {**gone, "U2": "cancelled"})
    assert {r[0]: (r[1], listed[r[0]]) for r in done.rows} == {"U3": ("X", "reserve"), "O3": ("X", "reserve"),
                                                               "U4": ("Y", "extended")}
    assert [r[3] for r in done.report if r[2] == "U4"] == ["cancelled"]


def test_verify_checks_the_fill(tmp_path):
    """The engines' fill passes (U3 takes U2's open vacancy at Y); planted: U4 of the Extended List there instead,
    on a vacancy only the reserve list serves, and over U3 (90 against 70)."""
    gone = {"O2": "declined", "U2": "declined"}
    pol, prob, alloc, rows, listed, done = filled(tmp_path, gone)
    write_csv(tmp_path / "f.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"],
              done.rows)
    part = {cid: p for cid, p, _, _ in rows}
    assert check_fill(pol, prob, alloc, listed, gone, read_allocation(tmp_path / "f.csv", prob, pol), part) == []
    bad = [["U4" if r[0] == "U3" else r[0], *r[1:6], 6 if r[0] == "U3" else r[6]] for r in done.rows]
    write_csv(tmp_path / "g.csv", ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"],
              bad)
    found = check_fill(pol, prob, alloc, listed, gone, read_allocation(tmp_path / "g.csv", prob, pol), part)
    assert any("Extended List fills" in m for m in found) and any("U3" in m and "passed over" in m for m in found)


# Three services, each with a general vacancy; IRS also an OBC one. Merit: G1 (UR), O1 (OBC, on general merit),
# G2, G3 (UR), OB (OBC), G4, O2, G5 (UR), O3 (OBC); every one ranks IAS, IPS, IRS. (O1's general-standard selection
# makes a general part of one and an OBC part of one.)
PART_CANDS = [["G1", 100, "UR", "", ""], ["O1", 95, "OBC", "", ""], ["G2", 90, "UR", "", ""],
              ["OB", 85, "OBC", "", ""], ["G4", 80, "UR", "", ""], ["O2", 75, "OBC", "", ""],
              ["G5", 70, "UR", "", ""], ["O3", 65, "OBC", "", ""], ["G6", 60, "UR", "", ""]]
PART_VACS = [["IAS", "UR", 1], ["IPS", "UR", 1], ["IRS", "UR", 1], ["IRS", "OBC", 1]]


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_a_general_vacancy_is_filled_from_the_general_part_only(tmp_path, engine):
    """By hand (docs/pipeline.md: "by the vacancy's category (a general vacancy from the general part ...)";
    UPSC's account of the list: the general part is sized by the meritorious reserved): G1 takes IAS, O1 IPS on
    general merit, G2 IRS (UR), OB IRS (OBC). One recommended at the general standard (O1): a general part of one,
    G4; an OBC part of one, O2; the Extended List G5 (general) and O3 (OBC).

    G1 and O1 decline, G2 leaves IRS for limited preferences. Round 1: the general part's G4 takes the better of
    the two declined general vacancies (IAS); the other (IPS) has no one left in the general part, and O2 of the
    OBC part may not take it. Round 2, the Extended List, only for limited preferences: G5 takes IRS's general
    vacancy. IPS's general vacancy stays unfilled, and O2 stays on the list. Read as one pool (`open_first`),
    O2 took IPS."""
    pol, prob, res, alloc = solved(tmp_path, PART_CANDS, PART_VACS,
                                   [[c[0], k + 1, p] for c in PART_CANDS for k, p in enumerate(["IAS", "IPS", "IRS"])])
    assert {alloc.ids[r]: prob.posts[alloc.post[r]] + " " + alloc.seat[r] for r in range(len(alloc.ids))} == \
        {"G1": "IAS UR", "O1": "IPS UR", "G2": "IRS UR", "OB": "IRS OBC"}
    rows = listing(res, reserve_list(pol, res))
    assert parts(rows) == {"UR": ["G4"], "OBC": ["O2"]} and parts(rows, "extended") == {"UR": ["G5"], "OBC": ["O3"]}
    listed, part = {cid: kind for cid, _, kind, _ in rows}, {cid: p for cid, p, _, _ in rows}
    before = read_csv(tmp_path / "out" / "allocation.csv")
    gone = {"G1": "declined", "O1": "declined", "G2": "limited_preferences"}
    done = fill(pol, prob, before, listed, gone, engine, parts=part)
    assert {r[0]: (r[1], r[2]) for r in done.rows} == {"G4": ("IAS", "UR"), "G5": ("IRS", "UR")}
    assert ["IPS", "UR", 1, 0, 1, "unfilled"] in done.unfilled
    head = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
    write_csv(tmp_path / "f.csv", head, done.rows)
    assert check_fill(pol, prob, alloc, listed, gone, read_allocation(tmp_path / "f.csv", prob, pol), part) == []
    # planted: the open-first reading's answer, O2 of the OBC part on IPS's general vacancy
    write_csv(tmp_path / "g.csv", head, [*done.rows, ["O2", "IPS", "UR", "UR", "", "open_merit", 6]])
    found = check_fill(pol, prob, alloc, listed, gone, read_allocation(tmp_path / "g.csv", prob, pol), part)
    assert any("O2 of the list's OBC part fills a UR vacancy at IPS" in m for m in found)
    one_pool = load_policy("upsc-cse", ["reserve_list.fill=open_first"])
    again = fill(one_pool, prob, before, listed, gone, engine, parts=part)
    assert {r[0]: r[1] for r in again.rows}["O2"] == "IPS"


def test_fill_from_the_command_line_checks_its_inputs(tmp_path):
    """`aarakshan fill --result DIR`: the run's inputs are read again from its summary.json, each checked by
    SHA-256; a folder solved without --reserve-list, a reason not among the four and a candidate who holds no
    vacancy are refused (exit 2, file, line and column), and nothing is written."""
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed", "pwbd"], FILL_CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], FILL_VACS)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs())
    base = ["solve", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
            str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--engine", "greedy", "--quiet"]
    r = CliRunner()
    assert r.invoke(app, [*base, "--out", str(tmp_path / "plain")]).exit_code == 0
    assert r.invoke(app, [*base, "--out", str(tmp_path / "out"), "--reserve-list"]).exit_code == 0
    write_csv(tmp_path / "d.csv", ["candidate_id", "reason"], [["O2", "declined"]])
    fill_args = ["fill", "--declined", str(tmp_path / "d.csv"), "--out", str(tmp_path / "f")]
    res = r.invoke(app, [*fill_args, "--result", str(tmp_path / "plain")])
    assert res.exit_code == 2 and "reserve_list.csv" in res.output and not (tmp_path / "f").exists()
    for rows, what in (([["O2", "resigned"]], "line 2, column 2 (reason)"), ([["U5", "declined"]], "line 2, column 1")):
        write_csv(tmp_path / "bad.csv", ["candidate_id", "reason"], rows)
        res = r.invoke(app, ["fill", "--declined", str(tmp_path / "bad.csv"), "--out", str(tmp_path / "f"),
                             "--result", str(tmp_path / "out")])
        assert res.exit_code == 2 and what in res.output and not (tmp_path / "f").exists()
    res = r.invoke(app, [*fill_args, "--result", str(tmp_path / "out"), "--engine", "both"])
    assert res.exit_code == 0, res.output
    assert read_csv(tmp_path / "f" / "filled_from_reserve.csv")[0]["candidate_id"] == "O3"
    summary = (tmp_path / "f" / "summary.json").read_text()
    assert '"reserve_list.csv"' in summary and '"stage": "fill"' in summary and '"filled": 1,' in summary
    assert "1 of 1 vacancies filled" in res.output
    decisions = {d["candidate_id"]: d for d in read_csv(tmp_path / "f" / "decisions.csv")}
    assert decisions["O3"]["selected"] == "true" and "left by O2 (declined)" in decisions["O3"]["reason"]
    assert all(d["selected"] == "false" for k, d in decisions.items() if k != "O3")
    cut = read_csv(tmp_path / "f" / "cutoffs.csv")
    assert [(c["category"], c["filled"]) for c in cut] == [("OBC", "1")]
    verify = ["verify", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
              str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--allocation",
              str(tmp_path / "out" / "allocation.csv"), "--reserve-list", str(tmp_path / "out" / "reserve_list.csv")]
    assert r.invoke(app, [*verify, "--stage", "reserve"]).exit_code == 0
    res = r.invoke(app, [*verify, "--stage", "fill", "--declined", str(tmp_path / "d.csv"), "--fill",
                         str(tmp_path / "f" / "allocation.csv")])
    assert res.exit_code == 0, res.output
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed", "pwbd"], FILL_CANDS[:-1])
    res = r.invoke(app, [*fill_args, "--result", str(tmp_path / "out")])
    assert res.exit_code == 2 and "changed since" in res.output


def test_fill_refuses_a_reserve_list_changed_since_the_run_wrote_it(tmp_path):
    """summary.json records the SHA-256 of each file the run wrote (`outputs`); fill reads the run's
    allocation.csv and reserve_list.csv only as written: a reserve list with a row removed (here the one who
    would fill the vacancy) is refused naming the file, where before fill filled from the edited list and
    exit 0. A summary from before the digests were recorded (no `outputs`) is read as before."""
    import json
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "relaxed", "pwbd"], FILL_CANDS)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], FILL_VACS)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs())
    r = CliRunner()
    res = r.invoke(app, ["solve", "--policy", "upsc-cse", "--candidates", str(tmp_path / "c.csv"), "--vacancies",
                         str(tmp_path / "v.csv"), "--preferences", str(tmp_path / "p.csv"), "--engine", "greedy",
                         "--quiet", "--out", str(tmp_path / "out"), "--reserve-list"])
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert sorted(summary["outputs"]) == ["allocation.csv", "choices.npy", "cutoffs.csv", "decisions.csv",
                                          "reserve_list.csv", "unfilled.csv"]
    write_csv(tmp_path / "d.csv", ["candidate_id", "reason"], [["O2", "declined"]])
    fill_args = ["fill", "--declined", str(tmp_path / "d.csv"), "--result", str(tmp_path / "out")]
    listed = (tmp_path / "out" / "reserve_list.csv").read_text().splitlines(keepends=True)
    assert any(line.startswith("O3,") for line in listed)
    (tmp_path / "out" / "reserve_list.csv").write_text("".join(x for x in listed if not x.startswith("O3,")))
    res = r.invoke(app, [*fill_args, "--out", str(tmp_path / "f")])
    assert res.exit_code == 2 and "reserve_list.csv: changed since the run wrote it" in res.output
    assert not (tmp_path / "f").exists()
    (tmp_path / "out" / "summary.json").write_text(json.dumps({k: v for k, v in summary.items()
                                                               if k not in ("outputs", "digest")}))
    res = r.invoke(app, [*fill_args, "--out", str(tmp_path / "f")])
    assert res.exit_code == 0, res.output


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(inst=instances(max_n=18, policies=["central-dopt", "upsc-cse", "bihar-1991"]), data=st.data())
def test_engines_list_and_fill_as_verify_checks(tmp_path_factory, inst, data):
    """On random recruitments: verify accepts the reserve list and both engines' fill (which agree) of a random
    set of declines; removing a filler leaves a vacancy verify finds unfilled."""
    d = tmp_path_factory.mktemp("r")
    pol, prob = materialise(d, inst)
    res = solve(pol, prob, "greedy").result
    write_outputs(d / "out", res, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    rows = listing(res, reserve_list(pol, res))
    assert check_reserve(pol, prob, alloc, rows) == []
    if rows:
        assert check_reserve(pol, prob, alloc, rows[1:]) != []
    before = read_csv(d / "out" / "allocation.csv")
    if not before:
        return
    reasons = ["declined", "limited_preferences", "invalid_claim", "cancelled"]
    gone = {r["candidate_id"]: data.draw(st.sampled_from(reasons)) for r in before if data.draw(st.booleans())}
    listed = {cid: kind for cid, _, kind, _ in rows}
    part = {cid: p for cid, p, _, _ in rows}
    done = fill(pol, prob, before, listed, gone, "greedy", parts=part)
    assert fill(pol, prob, before, listed, gone, "cpsat", parts=part).rows == done.rows
    head = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
    write_csv(d / "f.csv", head, done.rows)
    assert check_fill(pol, prob, alloc, listed, gone, read_allocation(d / "f.csv", prob, pol), part) == []
    if done.rows:
        write_csv(d / "g.csv", head, done.rows[1:])
        assert check_fill(pol, prob, alloc, listed, gone, read_allocation(d / "g.csv", prob, pol), part) != []
