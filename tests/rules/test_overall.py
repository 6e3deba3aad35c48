"""Overall horizontal minimums (horizontal.mode = "overall"): the minimum belongs to the post, and a shortfall
is met by the best remaining beneficiaries, each adjusted against her own category (Anil Kumar Gupta v.
State of U.P. 1995, para 18). Every example runs under both engines (CP-SAT without the greedy's hint)."""
import pytest
from conftest import rows_by_id, write_csv

from solver import load_policy
from solver.errors import Unsupported
from solver.io.readers import read_problem
from solver.outcome.reasons import decision_rows
from solver.outcome.reports import summary
from solver.verify import read_allocation, verify

ENGINES = pytest.mark.parametrize("engine", ["greedy", "cpsat"])
OVERALL = ['horizontal.mode="overall"', "ceiling.share=1.0"]
HEADER = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]

# u1 > s1 (SC, migrates to open) > w (SC woman) > s2 (SC) > x (UR woman) > u2
AKG = [["u1", 90, "UR", "M", "", ""], ["s1", 85, "SC", "M", "", ""], ["w", 80, "SC", "F", "", ""],
       ["s2", 75, "SC", "M", "", ""], ["x", 60, "UR", "F", "", ""], ["u2", 50, "UR", "M", "", ""]]
AKG_V = [["X", "UR", 2, 1], ["X", "SC", 2, 1]]   # the post's minimum: 1 + 1 = 2 women


def got(sol):
    return {k: (r["seat_category"], r["route"]) for k, r in rows_by_id(sol.result).items()}


@ENGINES
def test_shortfall_met_by_the_best_remaining_woman_in_her_own_category(run, engine):
    """Anil Kumar Gupta 1995, para 18: open and SC filled on merit hold one woman (w, SC) of the post's two;
    the best remaining woman is x, of no reserved category, so she is adjusted against open, replacing its
    lowest non-beneficiary (s1, who goes on to his SC compartment on merit). Compartmentalised, the same
    table gives the open compartment's women's seat to w (Saurav Yadav 2020) and leaves SC's unfilled."""
    sol = run("central-2004", AKG, AKG_V, engine, OVERALL, hint=False)
    assert got(sol) == {"u1": ("UR", "open_merit"), "x": ("UR", "horizontal_adjustment"),
                        "s1": ("SC", "reserved"), "w": ("SC", "reserved")}
    assert summary(sol.result, {})["horizontal"] == [{"post": "X", "category": "all", "trait": "women", "minimum": 2,
                                                      "held": 2, "by_adjustment": 1, "short": 0}]
    # The reasons tell the one the adjustment displaced (s1) from the one merit alone kept out of open (w).
    why = {r[0]: r[3] for r in decision_rows(sol.result)}
    assert "was displaced from open at X by the minimum for women" in why["s1"]
    assert "below the open merit cutoff at X (rank 2; the seats after it went by adjustment to women)" in why["w"]
    split = got(run("central-2004", AKG, AKG_V, engine, ["ceiling.share=1.0"], hint=False))
    assert split["w"] == ("UR", "horizontal_adjustment") and "x" not in split and "s2" in split


@ENGINES
def test_no_adjustment_when_the_post_meets_its_minimum(run, engine):
    """Anil Kumar Gupta 1995: "if the required number is found, fine". The woman selected on merit in SC
    counts for the post, so the open compartment is left as merit filled it; compartmentalised, the open
    compartment would take her by adjustment."""
    c = [["u1", 90, "UR", "M", "", ""], ["u2", 85, "UR", "M", "", ""], ["w", 80, "SC", "F", "", ""],
         ["x", 60, "UR", "F", "", ""], ["s1", 50, "SC", "M", "", ""]]
    v = [["X", "UR", 2, 1], ["X", "SC", 1, 0]]
    sol = run("central-2004", c, v, engine, OVERALL, hint=False)
    assert got(sol) == {"u1": ("UR", "open_merit"), "u2": ("UR", "open_merit"), "w": ("SC", "reserved")}
    assert rows_by_id(sol.result)["w"]["horizontal"] == "women"   # she serves the post's minimum
    split = got(run("central-2004", c, v, engine, ["ceiling.share=1.0"], hint=False))
    assert split["w"] == ("UR", "horizontal_adjustment") and "u2" not in split


@ENGINES
def test_reserved_woman_in_open_on_merit_is_not_displaced(run, engine):
    """Saurav Yadav 2020: a reserved-category woman who is in the open compartment on merit stays there. She
    counts for the post; the adjustment for the second woman replaces the lowest man (u2), not her."""
    c = [["u1", 90, "UR", "M", "", ""], ["u2", 85, "UR", "M", "", ""], ["r", 80, "SC", "F", "", ""],
         ["s1", 75, "SC", "M", "", ""], ["x", 60, "UR", "F", "", ""]]
    v = [["X", "UR", 3, 2], ["X", "SC", 1, 0]]
    r = got(run("central-2004", c, v, engine, OVERALL, hint=False))
    assert r == {"u1": ("UR", "open_merit"), "r": ("UR", "open_merit"), "x": ("UR", "horizontal_adjustment"),
                 "s1": ("SC", "reserved")}


@ENGINES
def test_cascade_keeps_the_women_already_counted(run, engine):
    """The man x displaces from open (s1) moves to SC on merit and would push out the SC woman w; the post
    would be no better off, so she keeps her seat by adjustment against the next man (s2)."""
    c = [["u1", 90, "UR", "M", "", ""], ["s1", 85, "SC", "M", "", ""], ["s2", 75, "SC", "M", "", ""],
         ["w", 70, "SC", "F", "", ""], ["x", 60, "UR", "F", "", ""]]
    r = got(run("central-2004", c, AKG_V, engine, OVERALL, hint=False))
    assert r == {"u1": ("UR", "open_merit"), "x": ("UR", "horizontal_adjustment"), "s1": ("SC", "reserved"),
                 "w": ("SC", "horizontal_adjustment")}


@ENGINES
def test_overall_minimum_from_the_policy_share(run, engine):
    """A share of the post's vacancies (35% of 4, rounded: 1), not of each compartment (which would round
    35% of 2 to 1 in each, 2 in all)."""
    c = [["u1", 90, "UR", "M", "", ""], ["u2", 85, "UR", "M", "", ""], ["s1", 80, "SC", "M", "", ""],
         ["s2", 75, "SC", "M", "", ""], ["x", 60, "UR", "F", "", ""], ["w", 55, "SC", "F", "", ""]]
    v = [["X", "UR", 2, ""], ["X", "SC", 2, ""]]
    sol = run("central-2004", c, v, engine, [*OVERALL, 'horizontal.traits=[{name="women", share=0.35}]'],
              hint=False)
    assert sol.result.seats.overall == {("X", "women"): 1}
    r = got(sol)
    assert r["x"] == ("UR", "horizontal_adjustment") and "w" not in r and "u2" not in r


def _verify(tmp_path, cands, vacs, rows, sets=OVERALL):
    write_csv(tmp_path / "c.csv", ["id", "score", "category", "gender", "creamy_layer", "relaxed"], cands)
    write_csv(tmp_path / "v.csv", ["post", "category", "vacancies", "women"], vacs)
    write_csv(tmp_path / "a.csv", HEADER, rows)
    pol = load_policy("central-2004", list(sets))
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")
    return {v.rule: v for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))}


def test_verify_accepts_the_procedure_and_names_each_breach(tmp_path):
    """verify reads the post's minimum itself (not the engines' compartment minimums)."""
    ok = [["u1", "X", "UR", "UR", "", "open_merit", 1], ["x", "X", "UR", "UR", "women", "horizontal_adjustment", 5],
          ["s1", "X", "SC", "SC", "", "reserved", 2], ["w", "X", "SC", "SC", "women", "reserved", 3]]
    assert _verify(tmp_path, AKG, AKG_V, ok) == {}
    # u2 instead of x: one woman of two, and x could have replaced a man in open.
    short = [r if r[0] != "x" else ["u2", "X", "UR", "UR", "", "open_merit", 6] for r in ok]
    v = _verify(tmp_path, AKG, AKG_V, short)
    assert "horizontal shortfall that could have been met" in v and v["horizontal shortfall that could have been met"].candidate == "x"
    # w pulled into open by adjustment: she belongs to SC, and the post still has one woman.
    wrong = [["u1", "X", "UR", "UR", "", "open_merit", 1], ["w", "X", "UR", "UR", "women", "horizontal_adjustment", 3],
             ["s1", "X", "SC", "SC", "", "reserved", 2], ["s2", "X", "SC", "SC", "", "reserved", 4]]
    v = _verify(tmp_path, AKG, AKG_V, wrong)
    assert "horizontal adjustment of a non-beneficiary" in v
    assert "Anil Kumar Gupta" in v["horizontal adjustment of a non-beneficiary"].source


def test_verify_rejects_removal_for_excess_and_displacing_a_reserved_woman(tmp_path):
    c = [["u1", 90, "UR", "M", "", ""], ["u2", 85, "UR", "M", "", ""], ["w", 80, "SC", "F", "", ""],
         ["x", 60, "UR", "F", "", ""], ["s1", 50, "SC", "M", "", ""]]
    v = [["X", "UR", 2, 1], ["X", "SC", 1, 0]]
    excess = [["u1", "X", "UR", "UR", "", "open_merit", 1], ["x", "X", "UR", "UR", "women", "horizontal_adjustment", 4],
              ["w", "X", "SC", "SC", "", "reserved", 3]]
    assert "removal for excess" in _verify(tmp_path, c, v, excess)
    c = [["u1", 90, "UR", "M", "", ""], ["u2", 85, "UR", "M", "", ""], ["r", 80, "SC", "F", "", ""],
         ["s1", 75, "SC", "M", "", ""], ["x", 60, "UR", "F", "", ""]]
    v = [["X", "UR", 3, 2], ["X", "SC", 1, 0]]
    displaced = [["u1", "X", "UR", "UR", "", "open_merit", 1], ["u2", "X", "UR", "UR", "", "open_merit", 2],
                 ["x", "X", "UR", "UR", "women", "horizontal_adjustment", 5], ["r", "X", "SC", "SC", "", "reserved", 3]]
    out = _verify(tmp_path, c, v, displaced)
    assert "justified envy" in out and out["justified envy"].candidate == "r"


def test_overall_refusals_name_the_reason(run):
    """Refused rather than guessed: preferences (the choice is not substitutable; the message gives the
    example), several traits per post that may overlap (women and pwbd), carried horizontal seats, a
    recommendation list."""
    prefs = [[cid, 1, "X"] for cid, *_ in AKG]
    with pytest.raises(Unsupported, match="not substitutable"):
        run("central-2004", AKG, AKG_V, "greedy", OVERALL, prefs=prefs)
    with pytest.raises(Unsupported, match="women, pwbd at one post"):
        run("central-2004", AKG, [["X", "UR", 2, 1, 1]], "greedy", OVERALL,
            vac_header=["post", "category", "vacancies", "women", "pwbd"])
    with pytest.raises(Unsupported, match="carry_forward"):
        run("central-2004", AKG, AKG_V, "greedy", [*OVERALL, 'horizontal.unfilled="carry_forward"'])
    with pytest.raises(Unsupported, match="recommendation list"):
        run("upsc-cse", AKG, AKG_V, "greedy", OVERALL)


def test_cpsat_solves_unaided_when_the_greedy_answer_breaks_a_rule(run):
    """The certificate's fallback: given an assignment that breaks stability (the open seat handed to the worse
    of two men), CP-SAT cannot find cutoffs for it, says `hint_rejected`, and solves the model unaided."""
    from dataclasses import replace

    import numpy as np

    from solver.chain.engines.cpsat import solve_cpsat
    sol = run("central-2004", AKG, AKG_V, "greedy", OVERALL)
    pools, a = sol.result.pools, sol.result.assignment
    ids = list(sol.result.problem.candidates.ids)
    u1, u2 = ids.index("u1"), ids.index("u2")
    wrong = a.pool.copy()
    wrong[u1], wrong[u2] = wrong[u2], wrong[u1]          # u2 (rank 6) on u1's open seat
    out = solve_cpsat(pools, len(ids), hint=replace(a, pool=wrong))
    assert out.stats.get("hint_rejected") is True
    assert np.array_equal(out.pool, a.pool)


def test_reason_names_why_a_woman_of_a_short_post_was_not_adjusted(run):
    """The post needs two women and has one; the only woman left is of SC, where an adjustment would place her
    (Anil Kumar Gupta 1995: against her own category), and SC's one seat already holds a woman."""
    c = [["u1", 90, "UR", "M", "", ""], ["s1", 85, "SC", "F", "", ""], ["x1", 80, "SC", "F", "", ""]]
    v = [["X", "UR", 1, 1], ["X", "SC", 1, 1]]
    sol = run("central-2004", c, v, "greedy", OVERALL)
    why = {r[0]: r[3] for r in decision_rows(sol.result)}
    assert "the women minimum at X is 1 short, but an adjustment goes to the candidate's own category, SC, and " \
           "every SC seat at X is held by a women beneficiary" in why["x1"]
    assert summary(sol.result, {})["horizontal"][0]["short"] == 1
