"""Overall horizontal minimums checked against their definition by brute force (Anil Kumar Gupta 1995, para 18;
for the PwBD sub-categories, OM 15.01.2018).

The definition: the post's allocation is the compartmentalised one (each compartment's minimums met by its own
beneficiaries, an adjustment placing a beneficiary in her own category's compartment) under a placement of
the post's minimums in its compartments. A placement keeps every beneficiary merit put at the post where
merit put her (the procedure replaces the lowest appointee who is not a beneficiary), and of those
placements the post takes the one whose allocation serves the most of the minimums' seats, then makes the
fewest adjustments, then adjusts the merit-lexicographically best beneficiaries (the best remaining first),
then holds the merit-lexicographically best appointees. The property tries every placement of a small post
and asks that both engines hold one of the best."""
import itertools
import os
import random
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
from conftest import write_csv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import load_policy, solve
from solver.chain.engines.greedy import solve_greedy
from solver.io.readers import read_problem
from solver.chain.overall import adjustees
from solver.chain.eligibility import homes, member_mask
from solver.chain.pools import build_pools, with_minimums
from solver.chain.vacancy import determine_seats

HEAD = ["id", "score", "category", "gender", "creamy_layer", "relaxed", "pwbd"]


@st.composite
def posts(draw):
    """One post of open and up to two reserved compartments, a few candidates, and a women's minimum or two or
    three PwBD sub-categories' minimums, each the post's."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(2, 10))
    policy = draw(st.sampled_from(["central-2004", "bihar-1991"]))
    # Bihar's WBC (women of SC, ST, EBC and BC) holds women whom their own compartment could draw in by adjustment.
    # At most three compartments: the placements tried grow as (seats + 1) ** compartments per trait.
    codes = ["UR", "SC", "OBC"][:draw(st.integers(2, 3))] if policy == "central-2004" else \
        ["UR", "WBC", *rng.sample(["EBC", "BC"], draw(st.integers(0, 1)))]
    # Dense: most candidates count for some minimum, so compartments run out of room for adjustments.
    pwbd = ["", "a", "b", "d"] if draw(st.booleans()) else ["", "", "a", "b", "c", "d"]
    kinds = [c for c in codes if c != "WBC"] + (["EBC"] if "WBC" in codes else [])
    cands = [[f"c{k}", s, rng.choice(kinds), rng.choice("MMF"), "", "", rng.choice(pwbd)]
             for k, s in enumerate(rng.sample(range(1, 200), n))]
    vacs = [["X", code, rng.randint(0, 3), ""] for code in codes]
    traits = draw(st.sampled_from([("women",), ("pwbd_a", "pwbd_b"), ("pwbd_a", "pwbd_b", "pwbd_de")]))
    share = draw(st.sampled_from([0.25, 0.34, 0.5, 0.75]))
    sets = ['horizontal.mode="overall"', "ceiling.share=1.0", "horizontal.traits=[" + ", ".join(
        f'{{name="{t}", share={share}}}' for t in traits) + "]", 'roster.small_cadre="none"',
        *draw(st.lists(st.just("horizontal.open_compartment_for_all=false"), max_size=1))]
    return policy, cands, vacs, sets


def _by_definition(pol, prob) -> list[dict]:
    """Every allocation of the post the definition admits: each placement of the post's minimums in its
    compartments (at most a minimum's seats in all, at most a compartment's seats in it) tried in turn."""
    seats = determine_seats(pol, prob)
    wanted = {t: m for (_, t), m in seats.overall.items()}
    members = {code: member_mask(pol, prob, code) for code in pol.reserved_codes}
    pools = build_pools(pol, prob, seats)
    main = [p for p in pools if p.phase == 0 and not p.carried and p.base > 0]
    phase0 = [p.index for p in pools if p.phase == 0]

    def outcome(mins, held=None):
        ps = with_minimums(pol, prob, pools, replace(seats, minimums=mins, merit_held={"X": held or {}}), 0, members)
        assign = solve_greedy(ps, prob.n).pool
        return {int(i): ps.pools[assign[i]].category for i in np.flatnonzero(np.isin(assign, phase0))}

    merit = outcome({})
    counts = np.zeros(prob.n, dtype=bool)
    for t in wanted:
        counts |= prob.candidates.trait(t)
    # An adjustment takes the best *remaining* beneficiaries: none merit put in another compartment of the post.
    held_on_merit = {i: code for i, code in merit.items() if counts[i]}
    codes, home = [pol.open, *pol.reserved_codes], homes(pol, prob, seats, "X", members)
    ways = []
    for t, m in wanted.items():
        # The literal procedure keeps every counted holder: a placement may hold as many as merit put there.
        m = max(m, int(prob.candidates.trait(t)[list(merit)].sum()))
        ways.append([dict(zip([p.category for p in main], split)) for split in
                     itertools.product(*(range(min(m, p.base) + 1) for p in main)) if sum(split) <= m])
    found = []
    for choice in itertools.product(*ways):
        mins = {("X", code, t): k for t, split in zip(wanted, choice) for code, k in split.items() if k}
        if any(sum(k for (_, c, _), k in mins.items() if c == p.category) > p.base for p in main):
            continue
        held = outcome(mins, held_on_merit)
        served = sum(min(m, int(prob.candidates.trait(t)[list(held)].sum())) for t, m in wanted.items())
        adjusted = sorted(set(held) - set(merit))
        # The procedure moves no beneficiary merit put at the post: not to another compartment, not out; and it
        # adjusts a beneficiary against her own category (open for one of none): not against Bihar's WBC.
        if all(held.get(i) == code for i, code in merit.items() if counts[i]) and \
                all(held[i] == codes[home[i]] for i in adjusted if counts[i]):
            found.append(((-served, len(adjusted), adjusted, sorted(held)), held))
    best = min(k for k, _ in found)
    return [held for k, held in found if k == best]


@settings(max_examples=int(os.environ.get("AARAKSHAN_EXAMPLES", "2000")) // 10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(posts())
def test_the_engines_hold_what_the_definition_admits(inst):
    """Both engines, CP-SAT unaided, hold one of the allocations the definition admits."""
    policy, cands, vacs, sets = inst
    with tempfile.TemporaryDirectory() as d:
        write_csv(Path(d) / "candidates.csv", HEAD, cands)
        write_csv(Path(d) / "vacancies.csv", ["post", "category", "vacancies", "women"], vacs)
        pol = load_policy(policy, sets)
        prob = read_problem(pol, Path(d) / "candidates.csv", Path(d) / "vacancies.csv", None)
        admitted = _by_definition(pol, prob)
        for engine in ("greedy", "cpsat"):
            res = solve(pol, prob, engine, hint=False).result
            held = {int(i): res.pools.pools[k].category for i, k in enumerate(res.assignment.pool)
                    if k >= 0 and res.pools.pools[k].phase == 0}
            assert held in admitted, (engine, held, admitted)


@st.composite
def choices(draw):
    """Waiting beneficiaries (merit order) of a few traits and homes, shortfalls and rooms."""
    traits, homes = ["a", "b", "de"][:draw(st.integers(1, 3))], ["UR", "SC", "OBC"][:draw(st.integers(1, 3))]
    cells = [(i, draw(st.sampled_from(traits)), draw(st.sampled_from(homes))) for i in range(draw(st.integers(0, 9)))]
    return (cells, {t: draw(st.integers(0, 3)) for t in traits}, {c: draw(st.integers(0, 3)) for c in homes})


@settings(max_examples=int(os.environ.get("AARAKSHAN_EXAMPLES", "2000")) // 4, deadline=None)
@given(choices())
def test_adjustees_are_the_most_then_the_best(inst):
    """`solver.chain.overall.adjustees` against every subset: as many as the shortfalls and rooms allow, then the
    merit-lexicographically best (Anil Kumar Gupta 1995: the best remaining beneficiaries first)."""
    cells, short, room = inst
    fits = [s for r in range(len(cells) + 1) for s in itertools.combinations(cells, r)
            if all(sum(1 for _, t, _ in s if t == k) <= v for k, v in short.items())
            and all(sum(1 for _, _, c in s if c == k) <= v for k, v in room.items())]
    best = min(fits, key=lambda s: (-len(s), [i for i, _, _ in s]))
    assert adjustees(cells, short, room) == list(best)
