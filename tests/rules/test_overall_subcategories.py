"""Several overall traits at one post: the PwBD sub-categories (OM 15.01.2018: 4% of a cadre's vacancies, 1%
each for a, b, c and 1% for d and e; RPwD Act 2016 s.34), each minimum the post's (Anil Kumar Gupta 1995,
para 18), a shortfall met by adjusting beneficiaries against their own category.

The definition, and the property that checks both engines against it by brute force, are in
tests/rules/test_overall_definition.py."""

import pytest
from conftest import rows_by_id, write_csv

from solver import load_policy
from solver.errors import Unsupported
from solver.io.readers import read_problem
from solver.outcome.reasons import decision_rows
from solver.outcome.reports import summary
from solver.verify import read_allocation, verify

ENGINES = pytest.mark.parametrize("engine", ["greedy", "cpsat"])
HEAD = ["id", "score", "category", "gender", "creamy_layer", "relaxed", "pwbd"]
AB = ['horizontal.mode="overall"', "ceiling.share=1.0",
      'horizontal.traits=[{name="pwbd_a", share=0.5}, {name="pwbd_b", share=0.5}]']


def got(sol):
    return {k: (r["seat_category"], r["route"]) for k, r in rows_by_id(sol.result).items()}


@ENGINES
def test_each_subcategory_met_where_merit_order_would_leave_one_short(run, engine):
    """OM 15.01.2018 reserves a seat for each sub-category. Open 1, SC 1; the post's minimums pwbd_a 1 and
    pwbd_b 1 (half of 2 each). Merit fills open with u1 and SC with s1: neither served. Taking the remaining
    beneficiaries down the merit list would adjust x1 (a, no reserved category) into open, and then x3 (b, no
    reserved category) finds open full of minimums: b stays short. Adjusting x2 (a, SC) against SC instead
    leaves open for x3, and both minimums are met, so that is the allocation."""
    c = [["u1", 90, "UR", "M", "", "", ""], ["s1", 85, "SC", "M", "", "", ""], ["x1", 80, "UR", "M", "", "", "a"],
         ["x2", 75, "SC", "M", "", "", "a"], ["x3", 70, "UR", "M", "", "", "b"]]
    v = [["X", "UR", 1, ""], ["X", "SC", 1, ""]]
    sol = run("central-2004", c, v, engine, AB, cand_header=HEAD, hint=False)
    assert got(sol) == {"x3": ("UR", "horizontal_adjustment"), "x2": ("SC", "horizontal_adjustment")}
    rows = {r["trait"]: r for r in summary(sol.result, {})["horizontal"]}
    assert rows["pwbd_a"]["short"] == rows["pwbd_b"]["short"] == 0


@ENGINES
def test_best_remaining_beneficiary_of_each_subcategory_in_her_own_category(run, engine):
    """Anil Kumar Gupta 1995, para 18, per sub-category: with room in every compartment, each short minimum
    takes its best remaining beneficiary, adjusted against her own category (y, SC, for a; z, of no reserved
    category, for b), replacing that compartment's lowest appointee who counts for nothing. A beneficiary
    selected on merit (w, pwbd_de, in open) counts and is not displaced."""
    c = [["u1", 95, "UR", "M", "", "", ""], ["w", 92, "UR", "F", "", "", "d"], ["u2", 90, "UR", "M", "", "", ""],
         ["s1", 85, "SC", "M", "", "", ""], ["s2", 84, "SC", "M", "", "", ""], ["y", 80, "SC", "F", "", "", "a"],
         ["z", 78, "UR", "M", "", "", "b"], ["y2", 70, "SC", "M", "", "", "a"]]
    v = [["X", "UR", 3, ""], ["X", "SC", 2, ""]]
    sets = ['horizontal.mode="overall"', "ceiling.share=1.0", ('horizontal.traits=[{name="pwbd_a", share=0.2}, '
                                                             '{name="pwbd_b", share=0.2}, {name="pwbd_de", share=0.2}]')]
    sol = run("central-2004", c, v, engine, sets, cand_header=HEAD, hint=False)
    assert got(sol) == {"u1": ("UR", "open_merit"), "w": ("UR", "open_merit"), "z": ("UR", "horizontal_adjustment"),
                        "s1": ("SC", "reserved"), "y": ("SC", "horizontal_adjustment")}
    # u2 was displaced by z's adjustment for pwbd_b; w's pwbd_de seat, met on merit, displaced nobody.
    why = {r[0]: r[3] for r in decision_rows(sol.result)}
    assert "was displaced from open at X by the minimum for pwbd_b (merit cutoff rank 2)" in why["u2"]


@ENGINES
def test_a_beneficiary_selected_against_wbc_is_not_drawn_into_her_own_category(run, engine, tmp_path):
    """Anil Kumar Gupta 1995, para 18: a short post adjusts the best *remaining* beneficiaries. Bihar's WBC
    (women of SC, ST, EBC and BC; Bihar Act 1991 s.4) holds w, an EBC woman with a pwbd_a disability, on merit.
    pwbd_a's minimum is 2 (half of 4), merit gives it only w, so one more is adjusted against EBC: x, the best
    remaining, replacing e3 (and y, for pwbd_b's minimum of 1, replaces e1). Drawing w from WBC into EBC instead (she outranks x) would refill WBC with e2, who
    counts for nothing, and leave the minimum short while x waits (found by the overall property, seed 62,
    when this case was refused). verify accepts the allocation."""
    c = [["u1", 90, "UR", "M", "", "", ""], ["e1", 88, "EBC", "M", "", "", ""], ["e3", 87, "EBC", "M", "", "", ""],
         ["w", 85, "EBC", "F", "", "", "a"], ["e2", 80, "EBC", "F", "", "", ""], ["x", 70, "EBC", "M", "", "", "a"],
         ["y", 60, "EBC", "M", "", "", "b"]]
    v = [["X", "UR", 1, ""], ["X", "EBC", 2, ""], ["X", "WBC", 1, ""]]
    sets = ['horizontal.mode="overall"', "ceiling.share=1.0", "roster.small_cadre=\"none\"",
            'horizontal.traits=[{name="pwbd_a", share=0.5}, {name="pwbd_b", share=0.25}]']
    sol = run("bihar-1991", c, v, engine, sets, cand_header=HEAD, hint=False)
    assert got(sol) == {"u1": ("UR", "open_merit"), "x": ("EBC", "horizontal_adjustment"),
                        "w": ("WBC", "reserved"), "y": ("EBC", "horizontal_adjustment")}
    header = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
    write_csv(tmp_path / "a.csv", header, sol.result.allocation_rows())
    write_csv(tmp_path / "c.csv", HEAD, c)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [r[:3] for r in v])
    pol = load_policy("bihar-1991", sets)
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    assert verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol)) == []


def test_overlapping_overall_traits_are_refused(run):
    """Women and a PwBD sub-category can meet in one appointee; how the post's two minimums would then share
    her is not settled (docs/limits.md), so it is refused rather than guessed."""
    sets = ['horizontal.mode="overall"', "ceiling.share=1.0",
            'horizontal.traits=[{name="women", share=0.5}, {name="pwbd_a", share=0.5}]']
    with pytest.raises(Unsupported, match="women, pwbd_a at one post"):
        run("central-2004", [["u1", 90, "UR", "F", "", "", "a"]], [["X", "UR", 2, ""]], "greedy", sets,
            cand_header=HEAD)


def test_verify_names_a_subcategory_shortfall_that_could_have_been_met(tmp_path):
    """verify reads the post's minimums itself, each compartment against what the rest of the post holds: the
    engines' allocation is accepted; open left to u1 (who counts for nothing) while pwbd_b is short and x3
    waits for open is named."""
    c = [["u1", 90, "UR", "M", "", "", ""], ["s1", 85, "SC", "M", "", "", ""], ["x2", 75, "SC", "M", "", "", "a"],
         ["x3", 70, "UR", "M", "", "", "b"]]
    write_csv(tmp_path / "c.csv", HEAD, c)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies"], [["X", "UR", 1], ["X", "SC", 1]])
    pol = load_policy("central-2004", AB)
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    header = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]

    def check(rows):
        write_csv(tmp_path / "a.csv", header, rows)
        return {v.rule: v for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))}
    ok = [["x3", "X", "UR", "UR", "pwbd_b", "horizontal_adjustment", 4],
          ["x2", "X", "SC", "SC", "pwbd_a", "horizontal_adjustment", 3]]
    assert check(ok) == {}
    # x2 adjusted, but open left to u1: pwbd_b short while x3 waits and u1 counts for nothing.
    short = [["u1", "X", "UR", "UR", "", "open_merit", 1], ["x2", "X", "SC", "SC", "pwbd_a", "horizontal_adjustment", 3]]
    v = check(short)
    assert v["horizontal shortfall that could have been met"].candidate == "x3"
