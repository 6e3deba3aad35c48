"""A recommendation list whose candidates are allocated only to the services they ranked
(`migration.allocate_unranked = false`): a recommended candidate whom no ranked service can take is left
without one, and allocation.csv does not show him. `verify` must neither blame the list for his place nor
let a lower candidate take it.

By hand, under upsc-cse (CSE Rule 16(2); Union of India v. Ramesh Ram 2010): IAS and IPS each have one UR
vacancy. A (1st) and B (2nd) rank IAS only; C (3rd) ranks IPS only. Everyone could hold a vacancy at a service
he ranked, so all three compete for the list's two UR places: A and B, on merit. Services: A takes IAS; B finds
it taken and ranked nothing else, so he is left without a service; IPS's vacancy stays empty (to the reserve
list), since C is not on the list."""
import tempfile
from pathlib import Path

import pytest
from conftest import write_csv
from hypothesis import HealthCheck, given, settings
from strategies import instances, materialise

from solver import load_policy, solve
from solver.io.readers import read_problem
from solver.outcome.reports import write_outputs
from solver.verify import read_allocation, verify

HEAD = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
SETS = ["migration.allocate_unranked=false"]


def problem(tmp_path):
    write_csv(tmp_path / "c.csv", ["id", "rank", "category"], [("A", 1, "UR"), ("B", 2, "UR"), ("C", 3, "UR")])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [("IAS", "UR", 1), ("IPS", "UR", 1)])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], [("A", 1, "IAS"), ("B", 1, "IAS"),
                                                                       ("C", 1, "IPS")])
    pol = load_policy("upsc-cse", SETS)
    return pol, read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")


def rules(tmp_path, rows):
    pol, prob = problem(tmp_path)
    write_csv(tmp_path / "a.csv", HEAD, rows)
    return sorted((v.rule, v.candidate) for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol)))


@pytest.mark.parametrize("engine", ["greedy", "cpsat"])
def test_solve_leaves_the_recommended_b_without_a_service(tmp_path, engine):
    pol, prob = problem(tmp_path)
    rows = solve(pol, prob, engine).result.allocation_rows()
    assert [(r[0], r[1]) for r in rows] == [("A", "IAS")]


def test_verify_accepts_the_list_with_b_unplaced(tmp_path):
    """B holds the list's second UR place though no service: the list is not short, C was rightly not on it."""
    assert rules(tmp_path, [["A", "IAS", "UR", "UR", "", "open_merit", 1]]) == []


def test_verify_refuses_c_in_b_s_place(tmp_path):
    """C on the list (holding IPS) in B's place: B ranks above C and competed for the list (a UR vacancy at a
    service he ranked): justified envy on the list."""
    found = rules(tmp_path, [["A", "IAS", "UR", "UR", "", "open_merit", 1],
                             ["C", "IPS", "UR", "UR", "", "open_merit", 3]])
    assert ("recommendation list: justified envy", "B") in found


def test_verify_refuses_b_left_out_where_a_service_he_ranked_had_room(tmp_path):
    """Nobody holds IAS: B (and A) could have had it, so their absence is not a place on the list without a
    service; the vacancy left while they wanted it is named."""
    found = rules(tmp_path, [])
    assert any(rule.endswith("vacancy left while an eligible candidate wanted it") and who == "A"
               for rule, who in found)


def _pwbd(tmp_path, rows):
    """IAS: UR 2, one held for PwBD; A (1st), B (2nd) and P (3rd, PwBD sub-category a) rank IAS alone. The list's
    two UR places, its PwBD minimum 1 (Anil Kumar Gupta 1995): A on merit and P by adjustment, B displaced.
    Services: A takes IAS's other seat, P its PwBD seat."""
    write_csv(tmp_path / "c.csv", ["id", "rank", "category", "pwbd"], [("A", 1, "UR", ""), ("B", 2, "UR", ""),
                                                                       ("P", 3, "UR", "a")])
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "pwbd"], [("IAS", "UR", 2, 1)])
    write_csv(tmp_path / "p.csv", ["candidate_id", "order", "post"], [(x, 1, "IAS") for x in "ABP"])
    pol = load_policy("upsc-cse", SETS)
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv", tmp_path / "p.csv")
    write_csv(tmp_path / "a.csv", HEAD, rows)
    return pol, prob, sorted((v.rule, v.candidate) for v in verify(pol, prob, read_allocation(tmp_path / "a.csv",
                                                                                               prob, pol)))


def test_verify_names_a_shortfalls_beneficiary_left_without_her_seat(tmp_path):
    """The engines give A and P their seats, and verify accepts it. Planted: P left out of the allocation. The list
    must hold her (its PwBD minimum, and she the only PwBD candidate), so verify puts her back on it, and names her
    left without a post while IAS's PwBD seat, which she ranked, stood empty."""
    a, p = ["A", "IAS", "UR", "UR", "", "open_merit", 1], ["P", "IAS", "UR", "UR", "pwbd", "horizontal_adjustment", 3]
    pol, prob, found = _pwbd(tmp_path, [a, p])
    assert found == []
    assert [(r[0], r[4]) for r in solve(pol, prob, "greedy").result.allocation_rows()] == [("A", ""), ("P", "pwbd")]
    _, _, found = _pwbd(tmp_path, [a])
    assert ("recommended candidate left without a post", "P") in found, found


@settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_EXAMPLES", "400")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(instances(traits=True, policies=["upsc-cse"], max_n=30, ranked=True))
def test_verify_accepts_the_engines_list_with_minimums(inst):
    """Random recommendation lists with horizontal minimums (seats revert), services only at posts ranked: verify
    puts the recommended whom no ranked post could take back on the list (a shortfall's beneficiaries first, then
    merit; a Rule 16(2) upgrade offers only a compartment's seats its minimums do not hold) and accepts what the
    engine gives. Fresh draws found it rejecting such lists, which placed someone else on them."""
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, (inst[0], [*inst[1], *SETS], *inst[2:]))
    sol = solve(pol, prob, "greedy")
    write_outputs(d / "out", sol.result, {})
    assert verify(pol, prob, read_allocation(d / "out" / "allocation.csv", prob, pol)) == []
