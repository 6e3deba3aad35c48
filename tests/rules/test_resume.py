"""Deferred acceptance resumed after a cut (`solver.chain.engines.greedy.resume`): a round of counselling solved
again with a few floaters fixed at their own seats is the round before's solve with fewer seats at those pools,
continued. The claim is that a fresh run gives the same assignment (every rejection made with more seats stands
with fewer; deferred acceptance's outcome does not depend on the order of proposals: Roth and Sotomayor 1990,
ch. 5; the same-rank choice is path-independent: Chambers and Yenmez 2017). Checked against a fresh run on
random markets with seat pools, with several lists and ties, and through whole sliding rounds."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_counselling_rounds import counselling, drawn_problem, drawn_round
from strategies import tied_market as _market
from strategies import tied_problem as _problem

from solver.chain.engines.greedy import resumable, resume, solve_greedy
from solver.chain.pools.reuse import with_cut
from solver.chain.solve import solve
from solver.exam import slide as slide_module
from solver.exam.slide import slide


def _cut_and_compare(result, data):
    pools = result.pools
    assert resumable(pools)
    seats = np.array([p.base for p in pools], dtype=np.int64)
    cut = np.array([data.draw(st.integers(0, int(k))) for k in seats], dtype=np.int64)
    resumed = resume(pools, result.assignment, cut)
    fresh = solve_greedy(with_cut(pools, cut), result.problem.n)
    assert resumed.pool.tolist() == fresh.pool.tolist()
    return cut


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=counselling(), data=st.data())
def test_resumed_after_a_cut_is_a_fresh_run_with_seat_pools(tmp_path_factory, m, data):
    """josaa-2025's seat pools (gender pools, home-state quotas, categories), any seats cut anywhere."""
    cands, vacs, prefs, _, ranks = m
    pol, prob = drawn_problem(tmp_path_factory.mktemp("pools"), cands, vacs, prefs, ranks)
    _cut_and_compare(solve(pol, prob, "greedy").result, data)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=_market(), data=st.data())
def test_resumed_after_a_cut_is_a_fresh_run_with_lists_that_cross_and_ties(tmp_path_factory, m, data):
    """Two merit lists and equal ranks (the same-rank rule: seats over the number at a tied last seat)."""
    ids, vacs, ranks, prefs = m
    pol, prob = _problem(tmp_path_factory.mktemp("tied"), ids, vacs, ranks, prefs)
    _cut_and_compare(solve(pol, prob, "greedy").result, data)


def test_a_cut_turns_away_the_worst_holder_who_proposes_on():
    """By hand, through the same-rank market of tests/audit: A (X then Y) holds X, B and D (both Y, tied on
    list `two`) hold Y's one seat, one over the number. Cut X's seat: A is turned away and proposes to Y,
    where she is first on `two`; B and D, of one rank below her, are turned away together (no seat is left for
    their rank); B moves on to X, whose one seat is gone, and D has nothing left. A fresh run says the same."""
    import tempfile
    from pathlib import Path
    pol, prob = _problem(Path(tempfile.mkdtemp()), ["A", "B", "D"], [("X", 1, "one"), ("Y", 1, "two")],
                         [["B", "one", 1], ["A", "one", 2], ["A", "two", 1], ["B", "two", 2], ["D", "two", 2]],
                         {"A": ["X", "Y"], "B": ["Y", "X"], "D": ["Y"]})
    res = solve(pol, prob, "greedy").result
    x = next(p.index for p in res.pools if prob.posts[p.post] == "X" and p.base)
    cut = np.zeros(len(res.pools), dtype=np.int64)
    cut[x] = 1
    got = resume(res.pools, res.assignment, cut)
    named = {prob.candidates.ids[i]: prob.posts[res.pools.pools[k].post] for i, k in enumerate(got.pool) if k >= 0}
    assert named == {"A": "Y"}
    assert got.pool.tolist() == solve_greedy(with_cut(res.pools, cut), prob.n).pool.tolist()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(m=counselling())
def test_a_sliding_round_is_the_same_resumed_or_solved_afresh(tmp_path_factory, m):
    """Whole sliding rounds on random seat pools and responses: the round resumed after each fixing is the round
    solved afresh each time, row for row, move for move, solve for solve (markets this small seldom leave a
    floater out: the next test drives rounds that do resume)."""
    pol, prob, alloc, said = drawn_round(tmp_path_factory.mktemp("round"), m)
    resumed = slide(pol, prob, [dict(r) for r in alloc], said)
    kept = slide_module.resumable
    slide_module.resumable = lambda pools: False
    try:
        fresh = slide(pol, prob, [dict(r) for r in alloc], said)
    finally:
        slide_module.resumable = kept
    assert (resumed.rows, resumed.moves, resumed.rounds, resumed.gone) == \
        (fresh.rows, fresh.moves, fresh.rounds, fresh.gone)


def test_not_resumed_where_a_fresh_run_could_differ(tmp_path):
    """Pools with horizontal minimums choose by the minimum guarantee, not a cut of a larger choice; pools of
    several phases pass what one leaves to the next; pools filled in turn without preferences are not deferred
    acceptance's: none is resumed (the round is solved afresh)."""
    from dataclasses import replace
    from test_counselling_rounds import first_round
    pol, prob, _ = first_round(tmp_path)
    pools = solve(pol, prob, "greedy").result.pools
    assert resumable(pools)
    one = pools.pools[0]
    assert not resumable(replace(pools, pools=(replace(one, minimums={"women": 1}), *pools.pools[1:])))
    assert not resumable(replace(pools, pools=(replace(one, phase=1), *pools.pools[1:])))
    assert not resumable(replace(pools, common_order=True))      # (everyone ranks alike: filled in turn)


def test_rounds_of_a_counselling_are_the_same_resumed_or_solved_afresh(tmp_path, monkeypatch):
    """The counselling benchmark's generator at 3,000 candidates (two lists, every kind of seat pool) and its
    responses (half freeze, 30% float, 15% slide, 5% withdraw; a freeze final), rounds 2 to 5: each round resumed
    after its fixings is the round solved afresh each time, and some round does resume (small random markets
    seldom leave a floater out)."""
    import csv

    import numpy as np
    from benchmarks.counselling import write
    from solver import load_policy
    from solver.io.readers import read_problem
    from solver.outcome.reports import write_outputs
    f = write(tmp_path / "in", 3000, 120_000, programs=80, seats=1200)
    pol = load_policy("josaa-2025")
    prob = read_problem(pol, f / "candidates.csv", f / "vacancies.csv", f / "preferences.csv", ranks=f / "ranks.csv")
    write_outputs(tmp_path / "r1", solve(pol, prob, "greedy").result, {})
    with open(tmp_path / "r1" / "allocation.csv", encoding="utf-8") as fh:
        alloc = [dict(r) for r in csv.DictReader(fh)]
    resumed = []
    monkeypatch.setattr(slide_module, "resume", lambda *a: resumed.append(1) or resume(*a))
    rng, frozen, gone = np.random.default_rng(7), set(), frozenset()
    for _ in range(2, 6):
        said = {r["candidate_id"]: "freeze" if r["candidate_id"] in frozen else
                str(rng.choice(["freeze", "float", "slide", "withdraw"], p=[0.5, 0.3, 0.15, 0.05])) for r in alloc}
        frozen |= {c for c, a in said.items() if a == "freeze"}
        done = slide(pol, prob, alloc, said, gone=gone)
        with monkeypatch.context() as m:
            m.setattr(slide_module, "resumable", lambda pools: False)
            fresh = slide(pol, prob, alloc, said, gone=gone)
        assert (done.rows, done.moves, done.rounds, done.gone) == (fresh.rows, fresh.moves, fresh.rounds, fresh.gone)
        gone = frozenset(done.gone)
        alloc = [dict(zip(["candidate_id", "post", "seat_category", "counted_as", "horizontal", "route"], r[:6]))
                 for r in done.rows]
    assert resumed
