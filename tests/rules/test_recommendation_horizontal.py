"""Horizontal minimums with a recommendation list (UPSC's PwBD seats): the list meets each category's minimums
summed over the services (Anil Kumar Gupta 1995; OM 15.01.2018: 4% of the vacancies, counted in each
service), and the service allocation (CSE Rule 16(2); Union of India v. Ramesh Ram 2010) holds each
service's minimums as seats of their own for the beneficiaries recommended against that compartment, taken
before its other seats at that service; seats no beneficiary takes revert after every other allocation."""
import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import rows_by_id, write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import load_policy, solve
from solver.errors import Unsupported
from solver.io.readers import read_problem
from solver.outcome.reasons import decision_rows
from solver.outcome.reports import summary, write_outputs
from solver.verify import read_allocation, verify
from strategies import instances, materialise

ENGINES = pytest.mark.parametrize("engine", ["greedy", "cpsat"])
HEAD = ["id", "score", "category", "gender", "creamy_layer", "relaxed", "pwbd"]
VHEAD = ["post", "category", "vacancies", "pwbd"]
ALLOC = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
SETS = ["ceiling.share=1.0"]

# IAS: UR 2 (one held for PwBD), OBC 1; IPS: UR 1, OBC 1 (held for PwBD). Everyone ranks IAS first.
CANDS = [["u1", 99, "UR", "M", "", "", ""], ["u2", 98, "UR", "M", "", "", ""], ["o1", 97, "OBC", "M", "", "", ""],
         ["u3", 96, "UR", "M", "", "", ""], ["o2", 95, "OBC", "M", "", "", ""], ["o3", 94, "OBC", "M", "", "", ""],
         ["p1", 60, "UR", "M", "", "", "a"], ["p2", 50, "OBC", "F", "", "", "b"]]
VACS = [["IAS", "UR", 2, 1], ["IAS", "OBC", 1, ""], ["IPS", "UR", 1, ""], ["IPS", "OBC", 1, 1]]
PREFS = [[c[0], k, post] for c in CANDS for k, post in ((1, "IAS"), (2, "IPS"))]


def got(sol):
    return {k: (r["post"], r["seat_category"], r["horizontal"], r["route"]) for k, r in rows_by_id(sol.result).items()}


def _check(tmp_path, policy, sets, cands, vacs, prefs, rows):
    write_csv(tmp_path / "c.csv", HEAD, cands)
    write_csv(tmp_path / "v.csv", VHEAD, vacs)
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], prefs)
    write_csv(tmp_path / "a.csv", ALLOC, rows)
    pol = load_policy(policy, sets)
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    return {v.rule: v for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))}


@ENGINES
def test_minimums_met_in_the_list_and_held_in_each_service(run, engine, tmp_path):
    """The list's UR and OBC compartments each need one PwBD candidate (IAS's and IPS's minimums, summed): merit
    gives none, so p1 and p2 are recommended by adjustment in place of u3 and o3 (Anil Kumar Gupta 1995). In
    the service allocation IAS's second UR seat is held for PwBD: u2, who ranked IAS first, gets IPS, and p1
    holds the held IAS seat; p2 holds IPS's held OBC seat. verify accepts it."""
    sol = run("upsc-cse", CANDS, VACS, engine, SETS, cand_header=HEAD, vac_header=VHEAD, prefs=PREFS, hint=False)
    assert got(sol) == {"u1": ("IAS", "UR", "", "open_merit"), "u2": ("IPS", "UR", "", "open_merit"),
                        "o1": ("IAS", "OBC", "", "reserved"),
                        "p1": ("IAS", "UR", "pwbd", "horizontal_adjustment"),
                        "p2": ("IPS", "OBC", "pwbd", "horizontal_adjustment")}
    rows = summary(sol.result, {})["horizontal"]
    assert [(r["post"], r["category"], r["held"], r["short"]) for r in rows] == [("IAS", "UR", 1, 0), ("IPS", "OBC", 1, 0)]
    listed = summary(sol.result, {})["recommendation_horizontal"]
    assert [(r["category"], r["minimum"], r["held"], r["by_adjustment"]) for r in listed] == [("UR", 1, 1, 1),
                                                                                              ("OBC", 1, 1, 1)]
    why = {r[0]: r[3] for r in decision_rows(sol.result)}
    assert "below the open cutoff at IAS (ranked 1st) (rank 1; 1 more held for pwbd)" in why["u2"]
    assert why["p1"].endswith("recommended as UR by horizontal adjustment")
    assert _check(tmp_path, "upsc-cse", SETS, CANDS, VACS, PREFS, sol.result.allocation_rows()) == {}


@ENGINES
def test_a_held_seat_no_beneficiary_takes_reverts_last(run, engine, tmp_path):
    """IAS: UR 1; IPS: UR 2, one held for PwBD. p1 (PwBD, first on merit) takes IAS, which she prefers: a
    beneficiary is not sent to a held seat at a post she likes less. u1 takes IPS's other seat; u2 finds IAS
    full and IPS's remaining seat held, and gets it only when it reverts after every other allocation. IPS's
    minimum is then short, which the summary reports."""
    c = [["p1", 99, "UR", "M", "", "", "c"], ["u1", 98, "UR", "M", "", "", ""], ["u2", 97, "UR", "M", "", "", ""],
         ["u3", 96, "UR", "M", "", "", ""]]
    v = [["IAS", "UR", 1, ""], ["IPS", "UR", 2, 1]]
    prefs = [[x[0], k, post] for x in c for k, post in ((1, "IAS"), (2, "IPS"))]
    sol = run("upsc-cse", c, v, engine, SETS, cand_header=HEAD, vac_header=VHEAD, prefs=prefs, hint=False)
    assert got(sol) == {"p1": ("IAS", "UR", "", "open_merit"), "u1": ("IPS", "UR", "", "open_merit"),
                        "u2": ("IPS", "UR", "", "open_merit")}
    assert summary(sol.result, {})["horizontal"][0]["short"] == 1
    why = {r[0]: r[3] for r in decision_rows(sol.result)}
    assert "no beneficiary took (reverted last)" in why["u2"]
    assert _check(tmp_path, "upsc-cse", SETS, c, v, prefs, sol.result.allocation_rows()) == {}


def test_verify_names_a_held_seat_given_away_or_left_empty(tmp_path):
    """Planted in the first example's allocation: u2 on IAS's held seat (she is not a PwBD candidate), and
    p1 moved off IAS's held seat to IPS while u2 takes IAS's other UR seat (the held seat left empty while
    p1, who ranked IAS first, wanted it)."""
    good = [["u1", "IAS", "UR", "UR", "", "open_merit", 1], ["u2", "IPS", "UR", "UR", "", "open_merit", 2],
            ["o1", "IAS", "OBC", "OBC", "", "reserved", 3], ["p1", "IAS", "UR", "UR", "pwbd", "horizontal_adjustment", 7],
            ["p2", "IPS", "OBC", "OBC", "pwbd", "horizontal_adjustment", 8]]
    assert _check(tmp_path, "upsc-cse", SETS, CANDS, VACS, PREFS, good) == {}
    given_away = [r[:] for r in good]
    given_away[1] = ["u2", "IAS", "UR", "UR", "pwbd", "open_merit", 2]
    given_away[3] = ["p1", "IPS", "UR", "UR", "", "horizontal_adjustment", 7]
    v = _check(tmp_path, "upsc-cse", SETS, CANDS, VACS, PREFS, given_away)
    assert v["held horizontal seat of one not recommended for it"].candidate == "u2"
    left_empty = [r[:] for r in given_away]
    left_empty[1][4] = ""
    v = _check(tmp_path, "upsc-cse", SETS, CANDS, VACS, PREFS, left_empty)
    assert v["vacancy left while an eligible candidate wanted it"].candidate == "p1"


@ENGINES
def test_held_seats_fit_in_the_compartment(run, engine, tmp_path):
    """Half of a one-seat compartment for pwbd_a and half for pwbd_b both round to 1, but the compartment has
    one seat to hold: it goes to pwbd_a (RPwD Act 2016 s.34's order a, b, c, d+e), the note says so, and no
    service holds more than its vacancies."""
    c = [["u1", 99, "UR", "M", "", "", ""], ["u2", 98, "UR", "M", "", "", ""], ["a1", 50, "UR", "M", "", "", "a"],
         ["b1", 40, "UR", "M", "", "", "b"]]
    v = [["IAS", "UR", 1, ""], ["IPS", "UR", 1, ""]]
    prefs = [[x[0], k, post] for x in c for k, post in ((1, "IAS"), (2, "IPS"))]
    # (the reverting reading: under upsc-cse's own, `horizontal.held`, a1 fills one of the two seats held for
    # pwbd_a and the other stays vacant: tests/rules/test_held_recommendation.py)
    sets = [*SETS, 'horizontal.traits=[{name="pwbd_a", share=0.5}, {name="pwbd_b", share=0.5}]', "horizontal.held=[]"]
    sol = run("upsc-cse", c, v, engine, sets, cand_header=HEAD, vac_header=VHEAD, prefs=prefs, hint=False)
    assert {k: m for k, m in sol.result.seats.minimums.items() if m} == {("IAS", "UR", "pwbd_a"): 1,
                                                                         ("IPS", "UR", "pwbd_a"): 1}
    assert any("pwbd_b minimum of UR cut from 1 to 0" in n for n in sol.result.seats.notes)
    assert got(sol) == {"a1": ("IAS", "UR", "pwbd_a", "horizontal_adjustment"), "u1": ("IPS", "UR", "", "open_merit")}
    assert _check(tmp_path, "upsc-cse", sets, c, v, prefs, sol.result.allocation_rows()) == {}


def test_refused_combinations_say_why(run):
    """Overall minimums are refused with a preferences file, so with a recommendation list too; two traits that
    one appointee can have (women and PwBD) would leave her two held seats to choose from."""
    prefs = [["u1", 1, "IAS"]]
    with pytest.raises(Unsupported, match="overall.*recommendation list"):
        run("upsc-cse", [["u1", 9, "UR", "F", "", "", "a"]], [["IAS", "UR", 2, 1]], "greedy",
            [*SETS, 'horizontal.mode="overall"', "horizontal.held=[]"], cand_header=HEAD, vac_header=VHEAD, prefs=prefs)
    with pytest.raises(Unsupported, match="pwbd, women with a recommendation list"):
        run("upsc-cse", [["u1", 9, "UR", "F", "", "", "a"]], [["IAS", "UR", 2, 1, 1]], "greedy", SETS,
            cand_header=HEAD, vac_header=["post", "category", "vacancies", "pwbd", "women"], prefs=prefs)


@settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_EXAMPLES", "2000")) // 4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(instances(traits=True, max_n=30, policies=["upsc-cse"]), st.integers(0, 10**6))
def test_verify_rejects_a_held_seat_moved(inst, seed):
    """On random recommendation-list instances with minimums: take a held seat's label off its holder (she now
    holds one of the compartment's other seats while the held one is empty, though she came to it first), or
    give the label to a holder at the same post and compartment who is not a beneficiary recommended for it;
    verify must object either way."""
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    sol = solve(pol, prob, "greedy")
    write_outputs(d / "out", sol.result, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    labelled = [r for r in range(len(alloc.cand)) if alloc.horizontal[r]]
    if not labelled:
        return
    r = labelled[np.random.default_rng(seed).integers(len(labelled))]
    trait, saved = alloc.horizontal[r], list(alloc.horizontal)
    alloc.horizontal[r] = ""
    assert verify(pol, prob, alloc), "a held seat's holder relabelled as holding another seat must break a rule"
    alloc.horizontal = saved
    ben = prob.candidates.trait(trait)
    others = [q for q in range(len(alloc.cand)) if alloc.post[q] == alloc.post[r] and alloc.seat[q] == alloc.seat[r]
              and not alloc.horizontal[q] and not ben[alloc.cand[q]]]
    if others:
        alloc.horizontal[others[0]], alloc.horizontal[r] = trait, ""
        assert verify(pol, prob, alloc), "a held seat given to a non-beneficiary must break a rule"


@settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_EXAMPLES", "2000")) // 4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(instances(max_n=30, policies=["upsc-cse"], ranked=True), st.integers(0, 10**6))
def test_verify_rejects_two_appointees_swapped_between_services(inst, seed):
    """Merit-cum-preference (CSE Rule 16(2)): swap the services of two appointees who hold the same kind of seat
    (the same category, route and held trait; neither on a reverted seat, which comes after everything) and who
    both ranked both services. The better one got her service while the other's was open to her, so she ranked
    it higher; after the swap she is passed over there for worse merit, and verify must say so."""
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    sol = solve(pol, prob, "greedy")
    write_outputs(d / "out", sol.result, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    ranked = prob.post_rank < (1 << 20)
    pools, pool = sol.result.pools.pools, sol.result.assignment.pool
    rows = [r for r in range(len(alloc.cand)) if pools[pool[alloc.cand[r]]].phase < 4]
    pairs = [(a, b) for a in rows for b in rows if alloc.cand[a] < alloc.cand[b] and alloc.post[a] != alloc.post[b]
             and (alloc.seat[a], alloc.route[a], alloc.counted[a], alloc.horizontal[a])
             == (alloc.seat[b], alloc.route[b], alloc.counted[b], alloc.horizontal[b])
             and alloc.route[a] in ("open_merit", "reserved", "horizontal_adjustment")
             and ranked[alloc.cand[a], [alloc.post[a], alloc.post[b]]].all()
             and ranked[alloc.cand[b], [alloc.post[a], alloc.post[b]]].all()]
    if not pairs:
        return
    a, b = pairs[np.random.default_rng(seed).integers(len(pairs))]
    alloc.post = alloc.post.copy()
    alloc.post[a], alloc.post[b] = alloc.post[b], alloc.post[a]
    assert verify(pol, prob, alloc), "two appointees swapped against merit-cum-preference must break a rule"
