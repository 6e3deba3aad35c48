"""Several horizontal traits in one compartment, each appointee counting for every trait they have
(`horizontal.multi_trait_counts_each = true`, an option RULES.md leaves to the policy).

The merit-lexicographic rule is taken as the definition where the procedure is ambiguous: of the sets the
compartment may hold, those filling the most of the minimums' seats (sum over traits of min(minimum,
count)), and of those the merit-best. The greedy reaches it by exchanges from the merit top; CP-SAT and
verify state it as "no exchange of one or two improves the set". That statement is what the brute-force
tests below check, over every set of small random compartments."""
import itertools

import numpy as np
import pytest
from conftest import rows_by_id, write_csv
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import load_policy
from solver.chain.compartment import choose
from solver.errors import Unsupported
from solver.io.readers import read_problem
from solver.chain.compartment import exchanges
from solver.chain.pools import Pool
from solver.outcome.reasons import decision_rows
from solver.outcome.reports import summary
from solver.verify import read_allocation, verify
from solver.verify.horizontal import TraitMask, each

ENGINES = pytest.mark.parametrize("engine", ["greedy", "cpsat"])
# (central-dopt holds its PwBD seats, which counting each trait refuses: these take the seats reverting)
EACH = ["horizontal.multi_trait_counts_each=true", "horizontal.held=[]"]
CH = ["id", "score", "category", "gender", "pwbd"]
VH = ["post", "category", "vacancies", "women", "pwbd"]
HEADER = ["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route", "rank"]
# a (neither) > b (woman) > c (pwbd) > d (woman with a disability) > e (neither)
ABCD = [["a", 90, "UR", "M", ""], ["b", 80, "UR", "F", ""], ["c", 70, "UR", "M", "a"], ["d", 60, "UR", "F", "b"],
        ["e", 50, "UR", "M", ""]]


@ENGINES
def test_counting_each_takes_the_merit_best_set_meeting_both(run, engine):
    """Two seats, minimums women 1 and PwBD 1 (RPwD Act 2016 s.34 beside a state women's quota). Replacing
    the lowest non-beneficiary trait by trait gives {b, c}; d alone meets both minimums, so the merit-best
    set meeting them is {a, d} (the merit-lexicographic rule governs). d serves both seats."""
    sol = run("central-dopt", ABCD, [["X", "UR", 2, 1, 1]], engine, EACH, CH, VH, hint=False)
    rows = rows_by_id(sol.result)
    assert {k: (r["route"], r["horizontal"]) for k, r in rows.items()} == {
        "a": ("open_merit", ""), "d": ("horizontal_adjustment", "women;pwbd")}
    assert [(h["trait"], h["held"], h["by_adjustment"], h["short"]) for h in summary(sol.result, {})["horizontal"]] \
        == [("women", 1, 1, 0), ("pwbd", 1, 1, 0)]
    # the procedure as written (replace the lowest who counts for nothing) would have chosen b and c
    assert summary(sol.result, {})["procedure_differs"] == [
        {"post": "X", "category": "UR", "procedure_only": ["b", "c"], "rule_only": ["a", "d"]}]
    why = {r[0]: r[3] for r in decision_rows(sol.result)}
    assert "displaced from open at X by the minimum for women and pwbd, each appointee counting" in why["b"]
    assert why["d"].endswith("by horizontal adjustment for women and pwbd")


@ENGINES
def test_counting_each_no_removal_for_excess(run, engine):
    """Anil Kumar Gupta 1995: a woman with a disability selected on merit meets both minimums; nobody moves."""
    cands = [["A", 90, "UR", "F", "c"], ["B", 80, "UR", "M", ""], ["C", 70, "UR", "F", ""], ["D", 60, "UR", "M", "a"]]
    rows = rows_by_id(run("central-dopt", cands, [["X", "UR", 2, 1, 1]], engine, EACH, CH, VH, hint=False).result)
    assert {k: r["route"] for k, r in rows.items()} == {"A": "open_merit", "B": "open_merit"}


@ENGINES
def test_counting_each_shortfall_met_as_far_as_anyone_can(run, engine):
    """Two seats, minimums women 2 and PwBD 2: at most three of the four seats can be served (c serves two,
    anyone else one more). b (a woman) and d (a man with a disability) would each make three; b has the better
    merit. a, the best, is not taken: with a, only two seats would be served."""
    cands = [["a", 95, "UR", "M", ""], ["b", 90, "UR", "F", ""], ["c", 80, "UR", "F", "a"], ["d", 70, "UR", "M", "b"]]
    rows = rows_by_id(run("central-dopt", cands, [["X", "UR", 2, 2, 2]], engine, EACH, CH, VH, hint=False).result)
    assert sorted(rows) == ["b", "c"] and rows["c"]["horizontal"] == "women;pwbd"


@ENGINES
@pytest.mark.parametrize("for_all", [True, False])
def test_counting_each_open_compartment_for_all_or_general_only(run, engine, for_all):
    """RULES.md option (Saurav Yadav 2020 for "open to all"): s, an SC woman with a disability, is in the open
    merit top. Open to all, she serves both of open's minimums and nobody is adjusted. Read for the general
    category only, she counts for neither there: d, a general woman with a disability, serves both, and s
    takes her own SC seat."""
    cands = [["a", 90, "UR", "M", ""], ["s", 85, "SC", "F", "a"], ["b", 80, "UR", "F", ""],
             ["c", 70, "UR", "M", "b"], ["d", 60, "UR", "F", "c"]]
    sets = EACH + [f"horizontal.open_compartment_for_all={str(for_all).lower()}", "ceiling.share=1.0"]
    rows = rows_by_id(run("central-dopt", cands, [["X", "UR", 2, 1, 1], ["X", "SC", 1, 0, 0]], engine, sets, CH,
                          VH, hint=False).result)
    got = {k: (r["seat_category"], r["route"], r["horizontal"]) for k, r in rows.items()}
    if for_all:
        assert got == {"a": ("UR", "open_merit", ""), "s": ("UR", "open_merit", "women;pwbd")}
    else:
        assert got == {"a": ("UR", "open_merit", ""), "d": ("UR", "horizontal_adjustment", "women;pwbd"),
                       "s": ("SC", "reserved", "")}


def test_counting_each_with_preferences_is_refused(run):
    """Not substitutable (see the message), so deferred acceptance need not reach a stable allocation."""
    with pytest.raises(Unsupported, match="not substitutable"):
        run("central-dopt", ABCD, [["X", "UR", 2, 1, 1], ["Y", "UR", 1, 0, 0]], sets=EACH, cand_header=CH,
            vac_header=VH, prefs=[["a", 1, "X"], ["a", 2, "Y"]])


def test_verify_counting_each(tmp_path):
    """verify accepts {a, d}, names the procedure's {b, c} (a passed over: exchanging b and c for a and d
    serves as many seats) and {a, b} (a PwBD seat left unserved while d was available)."""
    write_csv(tmp_path / "c.csv", CH, ABCD)
    write_csv(tmp_path / "v.csv", VH, [["X", "UR", 2, 1, 1]])
    pol = load_policy("central-dopt", EACH)
    prob = read_problem(pol, tmp_path / "c.csv", tmp_path / "v.csv")

    def rules(rows):
        write_csv(tmp_path / "a.csv", HEADER, rows)
        return {(v.rule, v.candidate) for v in verify(pol, prob, read_allocation(tmp_path / "a.csv", prob, pol))}
    assert rules([["a", "X", "UR", "UR", "", "open_merit", 1],
                  ["d", "X", "UR", "UR", "women;pwbd", "horizontal_adjustment", 4]]) == set()
    assert ("justified envy", "a") in rules([["b", "X", "UR", "UR", "women", "open_merit", 2],
                                             ["c", "X", "UR", "UR", "pwbd", "horizontal_adjustment", 3]])
    assert ("horizontal shortfall that could have been met", "d") in rules(
        [["a", "X", "UR", "UR", "", "open_merit", 1], ["b", "X", "UR", "UR", "women", "open_merit", 2]])


def _best(sig: list[int], mins: list[int], cap: int) -> tuple:
    """Brute force: of every set of min(cap, n), the most seats served, then the merit-lexicographic best."""
    def served(s):
        return sum(min(m, sum(sig[i] >> t & 1 for i in s)) for t, m in enumerate(mins))
    return min(itertools.combinations(range(len(sig)), min(cap, len(sig))), key=lambda s: (-served(s), s))


@st.composite
def compartments(draw):
    traits = draw(st.integers(2, 4))
    n = draw(st.integers(1, 9))
    sig = draw(st.lists(st.integers(0, (1 << traits) - 1), min_size=n, max_size=n))
    cap = draw(st.integers(1, n))
    mins = draw(st.lists(st.integers(0, cap), min_size=traits, max_size=traits))
    return sig, mins, cap


@settings(max_examples=300, deadline=None)
@given(compartments())
def test_exchanges_characterise_the_best_set(case):
    """The theorem CP-SAT's model and verify rest on: among every set of min(cap, n) candidates, verify finds no
    violation exactly for the brute-force best, and the greedy's exchanges reach it. Exchanges of one alone
    would not do (the a, b, c, d example above)."""
    sig, mins, cap = case
    n = len(sig)
    names = [f"t{t}" for t in range(len(mins))]
    ben = {t: np.array([s >> k & 1 for s in sig], dtype=bool) for k, t in enumerate(names)}
    masks = {t: TraitMask(m, ben[t], ben[t], ben[t]) for t, m in zip(names, mins)}
    best = _best(sig, mins, cap)
    pool = Pool(0, 0, "open_merit", 0, 0, ("UR",), np.ones(n, dtype=bool), cap, (),
                dict(zip(names, mins)), ben, counts_each=True)
    assert tuple(choose(pool, np.arange(n), cap)[0].tolist()) == best
    ids = [f"c{i}" for i in range(n)]
    moves = exchanges(sorted(set(sig)))
    for s in itertools.combinations(range(n), min(cap, n)):
        holders = np.array(s, dtype=np.int64)
        want = ~np.isin(np.arange(n), holders)
        found = each(masks, "X", "UR", holders, np.full(len(s), "open_merit", dtype=object), want, ids)
        assert (found == []) == (s == best), (s, best, found)
        assert _stuck(s, sig, mins, moves) == (s == best), (s, best)


def _stuck(s: tuple, sig: list[int], mins: list[int], moves: list) -> bool:
    """No improving exchange among `moves` (the pruned list CP-SAT and the greedy use), each class's holders a
    merit prefix."""
    worst = {g: max(i for i in s if sig[i] == g) for g in {sig[i] for i in s}}
    out = [i for i in range(len(sig)) if i not in s]
    best = {g: min(i for i in out if sig[i] == g) for g in {sig[i] for i in out}}
    if any(best[g] < worst[g] for g in worst.keys() & best.keys()):
        return False
    count = [sum(sig[i] >> t & 1 for i in s) for t in range(len(mins))]
    for outs, ins in moves:
        if not (set(outs) <= worst.keys() and set(ins) <= best.keys()):
            continue
        d = [sum(g >> t & 1 for g in ins) - sum(g >> t & 1 for g in outs) for t in range(len(mins))]
        gain = sum(min(m, c + x) - min(m, c) for m, c, x in zip(mins, count, d))
        if gain > 0 or (gain == 0 and min(best[g] for g in ins) < min(worst[g] for g in outs)):
            return False
    return True
