"""Invariants over random recruitments under all six policies (hypothesis).

- the engines agree: CP-SAT, solved without the greedy's hint, finds the same allocation;
- verify accepts what the engines produce (capacity, eligibility, no justified envy, routes, ceiling);
- no pool is over capacity and nobody is selected twice;
- the output does not depend on the order of the input rows;
- verify rejects planted violations.
"""
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import solve
from solver.outcome.reports import write_outputs
from solver.verify import read_allocation, verify
from strategies import instances, materialise

PROFILE = settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_EXAMPLES", "2000")), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])


def _solve_both(inst):
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    g = solve(pol, prob, "greedy")
    c = solve(pol, prob, "cpsat", hint=False)
    return d, pol, prob, g, c


@PROFILE
@given(instances())
def test_engines_agree_and_verify_accepts(inst):
    d, pol, prob, g, c = _solve_both(inst)
    assert np.array_equal(g.result.assignment.pool, c.result.assignment.pool)
    assert np.array_equal(g.result.assignment.adjusted, c.result.assignment.adjusted)
    assert list(g.result.allocation_rows()) == list(c.result.allocation_rows())
    filled = g.result.assignment.filled(len(g.result.pools))
    for p in g.result.pools:
        assert filled[p.index] <= p.base - sum(filled[q] for q in p.minus)
        assert p.eligible[g.result.assignment.pool == p.index].all()
    write_outputs(d / "out", g.result, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    assert verify(pol, prob, alloc) == []


@PROFILE
@given(instances(traits=True, max_n=30))
def test_several_traits_engines_agree_and_verify_accepts(inst):
    """Women and PwBD minimums in the same compartments, each appointee counting for one (the merit-best set
    meeting the minimums as far as anyone can; Rajesh Kumar Daria 2007): the greedy basis and the CP-SAT
    model agree, and verify accepts, with and without preferences."""
    _available_is_free_for(_agree_and_verify(inst)[3].result)


@PROFILE
@given(instances(each=True, max_n=30))
def test_counting_each_engines_agree_and_verify_accepts(inst):
    """Several traits per compartment, each appointee counting for every trait they have (the definition taken
    here: most of the minimums' seats served, then merit-lexicographic): the greedy's exchanges and the
    CP-SAT model agree, and verify accepts (posts filled in turn; with preferences the option is refused)."""
    _available_is_free_for(_agree_and_verify(inst)[3].result)


def _available_is_free_for(result):
    """Who is free to take each pool, vectorised (`available`), is `free_for` candidate by candidate."""
    from solver.chain.engines.assignment import available, free_for
    pools, assign = result.pools, result.assignment.pool
    for p in pools:
        assert available(pools, assign, p).tolist() == \
            [int(i) for i in np.flatnonzero(p.eligible) if free_for(pools, assign, p, int(i))]


@PROFILE
@given(instances(overall=True, max_n=30))
def test_overall_minimums_engines_agree_and_verify_accepts(inst):
    """Overall women's minimums per post (Anil Kumar Gupta 1995, para 18): the reduction to compartment
    minimums gives both engines the same problem, and verify, which reads the post's minimum directly, accepts
    the result (posts filled in turn; with preferences the option is refused, see solver.chain.overall)."""
    _agree_and_verify(inst)


def _agree_and_verify(inst):
    d, pol, prob, g, c = _solve_both(inst)
    assert np.array_equal(g.result.assignment.pool, c.result.assignment.pool)
    assert np.array_equal(g.result.assignment.adjusted, c.result.assignment.adjusted)
    write_outputs(d / "out", g.result, {})
    assert verify(pol, prob, read_allocation(d / "out" / "allocation.csv", prob, pol)) == []
    return d, pol, prob, g, c


@PROFILE
@given(instances(), st.integers(0, 10**6))
def test_row_order_does_not_matter(inst, seed):
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d / "a", inst)
    pol2, prob2 = materialise(d / "b", inst, shuffle_seed=seed)
    a = list(solve(pol, prob, "greedy").result.allocation_rows())
    b = list(solve(pol2, prob2, "greedy").result.allocation_rows())
    assert a == b


def _plant(inst, mutate):
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    sol = solve(pol, prob, "greedy")
    write_outputs(d / "out", sol.result, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    return pol, prob, sol, alloc, mutate(pol, prob, sol, alloc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(allow_prefs=False, allow_horizontal=False))
def test_verify_rejects_a_removed_appointee(inst):
    """Drop the best-ranked appointee: someone eligible is now out while a worse candidate holds a vacancy, or a
    vacancy is wasted; either way verify must object whenever an eligible replacement exists."""
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    sol = solve(pol, prob, "greedy")
    write_outputs(d / "out", sol.result, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    if len(alloc.cand) == 0:
        return
    k = int(np.argmin(alloc.cand))
    keep = [r for r in range(len(alloc.cand)) if r != k]
    for f in ("seat", "counted", "horizontal", "route", "ids"):
        setattr(alloc, f, [getattr(alloc, f)[r] for r in keep])
    alloc.cand, alloc.post = alloc.cand[keep], alloc.post[keep]
    assert verify(pol, prob, alloc), "removing the top appointee must break a rule"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(overall=True, max_n=30))
def test_verify_rejects_undoing_an_overall_adjustment(inst):
    """Anil Kumar Gupta 1995: put back the man an overall adjustment displaced (the best unselected man who may
    hold that vacancy, or, under the PwBD sub-categories' minimums, the best who counts for none of them): the
    post is short of its minimum while the beneficiary who met it waits, and verify must say so."""
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    sol = solve(pol, prob, "greedy")
    write_outputs(d / "out", sol.result, {})
    alloc = read_allocation(d / "out" / "allocation.csv", prob, pol)
    c = prob.candidates

    def needed(r) -> bool:
        """Without her the post would hold fewer than its minimum of a trait she has. (A beneficiary merit put
        at the post whom a cascade would have pushed out is kept by her compartment's minimum and reads
        `horizontal_adjustment` too, though her trait may be in excess: docs/limits.md.)"""
        at = alloc.cand[(alloc.post == alloc.post[r]) & np.isin(alloc.route, ["open_merit", "reserved",
                                                                               "horizontal_adjustment"])]
        return any(c.trait(t)[alloc.cand[r]] and int(c.trait(t)[at].sum()) <= m
                   for (p, t), m in sol.result.seats.overall.items() if p == prob.posts[alloc.post[r]])
    rows = [r for r in range(len(alloc.cand)) if alloc.route[r] == "horizontal_adjustment" and needed(r)]
    if not rows:
        return
    from solver.verify.allocation import may_hold
    r = rows[0]
    taken = set(alloc.cand.tolist())
    counts = np.any([c.trait(t.name) for t in pol.horizontal.traits], axis=0)
    men = [i for i in np.flatnonzero(may_hold(pol, prob, alloc.seat[r]) & ~counts) if int(i) not in taken]
    if not men:
        return
    alloc.cand = alloc.cand.copy()
    alloc.cand[r] = men[0]
    alloc.route[r] = "open_merit" if alloc.seat[r] == pol.open else "reserved"
    alloc.horizontal[r] = ""
    assert verify(pol, prob, alloc), "undoing an adjustment the post needed must break a rule"


@settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_EXAMPLES", "2000")) // 4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(instances(), instances(traits=True), instances(overall=True)))
def test_greedy_answer_satisfies_the_model(inst):
    """With the greedy's assignment assumed, CP-SAT finds cutoffs that make it stable under every constraint
    (the certificate `aarakshan solve` uses by default), and that is what CP-SAT finds unaided. Where the
    model has an objective (horizontal minimums with preferences) the hint is only a hint."""
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    hinted = solve(pol, prob, "cpsat", hint=True).result.assignment
    unaided = solve(pol, prob, "cpsat", hint=False).result.assignment
    assert not hinted.stats.get("hint_rejected")
    assert np.array_equal(hinted.pool, unaided.pool) and np.array_equal(hinted.adjusted, unaided.adjusted)


@settings(PROFILE, max_examples=max(1, PROFILE.max_examples // 4))
@given(instances(max_n=30))
def test_solving_in_turn_is_the_whole_model(inst):
    """CP-SAT solved one group at a time, earlier groups fixed ((phase, post) where posts are filled in turn,
    a phase with preferences), gives the solution of the whole model solved at once (solve_cpsat). Each group is
    made a model of its own here (`BATCH_PAIRS` 0; one with no eligible pair joins the one before), where small consecutive groups are otherwise solved together."""
    from unittest import mock

    from solver.chain.engines.cpsat import solve_model
    from solver.chain.engines.cpsat.solve import turn_groups
    d = Path(tempfile.mkdtemp())
    pol, prob = materialise(d, inst)
    with mock.patch("solver.chain.engines.cpsat.solve.BATCH_PAIRS", 0):
        res = solve(pol, prob, "cpsat", hint=False).result
    if "groups" in res.assignment.stats:    # (a group no candidate is eligible for joins the one before it)
        assert res.assignment.stats["models"] <= res.assignment.stats["groups"]
    whole = solve_model(res.pools, prob.n, None, None, 1)
    assert np.array_equal(res.assignment.pool, whole.pool)
    assert np.array_equal(res.assignment.adjusted, whole.adjusted)
    assert ("groups" in res.assignment.stats) == (turn_groups(res.pools) is not None)


def test_named_variables_read_as_the_law_and_change_nothing():
    """As OR-Tools samples do (named variables): with post names the model's variables read as the rules
    they state (admit[OBC@P02][rank 3]); the assignment is the same as with unnamed ones."""
    from solver import load_policy
    from solver.chain.engines.cpsat import solve_cpsat
    from solver.chain.engines.cpsat.build import build
    from solver.chain.engines.cpsat.model import Names
    from solver.data.instances import generate, write_instance
    from solver.io.readers import read_problem
    from solver.chain.pools import build_pools
    from solver.chain.vacancy import determine_seats
    policy = load_policy("central-dopt")
    folder = write_instance(tempfile.mkdtemp(), *generate(policy, 300, 40, seed=3, posts=2, preferences=2))
    prob = read_problem(policy, folder / "candidates.csv", folder / "vacancies.csv", folder / "preferences.csv")
    seats = determine_seats(policy, prob)
    pools = build_pools(policy, prob, seats)
    plain, named = solve_cpsat(pools, prob.n), solve_cpsat(pools, prob.n, names=prob.posts)
    assert np.array_equal(plain.pool, named.pool) and np.array_equal(plain.adjusted, named.adjusted)
    proto = build(pools, Names(prob.posts)).m.proto
    names = [proto.variables[k].name for k in range(len(proto.variables))]
    assert all(names), "every variable named"
    obc = next(p for p in pools if p.category == "OBC" and p.post == 1 and p.phase == 0)
    first = int(np.flatnonzero(obc.eligible)[0])
    assert f"admit[OBC@P02][rank {first + 1}]" in names
    assert not any(build(pools).m.proto.variables[k].name for k in range(3))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=5), st.integers(0, 300), st.integers(0, 2**32 - 1),
       st.booleans())
def test_the_packed_sort_is_lexsort(highs, n, seed, wide):
    """`sorting.sorted_by` (one packed int64 key, one stable argsort) orders rows exactly as the
    5-key `np.lexsort` it replaced, ties in the original order; keys too wide to pack fall back to lexsort."""
    from solver.data.sorting import sorted_by
    rng = np.random.default_rng(seed)
    keys = [rng.integers(-3, (2**40 if wide else h), n) for h in highs]
    assert np.array_equal(sorted_by(keys), np.lexsort(tuple(reversed(keys))))


@settings(PROFILE, max_examples=min(PROFILE.max_examples, 300))
@given(st.one_of(instances(), instances(ranked=True), instances(traits=True)))
def test_preference_lists_are_each_candidates_pools_in_order(inst):
    """`Pools.preference_lists` against its definition: every eligible (candidate, pool) pair, by candidate,
    phase, rank of the post in her list, post, precedence, then pool. Both ways of making them: read off the
    ranked rows phase by phase (the default), and the packed-key sort (where a pool admits the unranked)."""
    from solver.chain.pools.lists import _lists_by_rows, _lists_by_sort
    _, pol, prob, g, _ = _solve_both(inst)
    pools = g.result.pools
    pairs = [(i, p.index) for p in pools for i in np.flatnonzero(p.eligible).tolist()]
    ref = sorted(pairs, key=lambda x: (x[0], pools.pools[x[1]].phase, int(pools.post_rank[x[0], pools.pools[x[1]].post]),
                                       pools.pools[x[1]].post, pools.pools[x[1]].precedence, x[1]))
    ci, pi = pools.preference_lists()
    assert list(zip(ci.tolist(), pi.tolist())) == ref
    from solver.data.routes import NOT_RANKED
    unranked = any(int(pools.post_rank[i, pools.pools[k].post]) >= NOT_RANKED for i, k in pairs)
    rows = _lists_by_rows(pools)
    assert (rows is None) == unranked
    for made in (rows, _lists_by_sort(pools)) if rows is not None else (_lists_by_sort(pools),):
        assert list(zip(*(a.tolist() for a in made))) == ref
    if rows is not None:    # (the rows read a few at a time, as JoSAA's 24 million are: blocks end mid-candidate)
        from unittest import mock
        with mock.patch("solver.chain.pools.lists._ROWS_AT_ONCE", 3):
            assert list(zip(*(a.tolist() for a in _lists_by_rows(pools)))) == ref
    members = [p.index for p in pools if p.phase == 0]
    ci0, pi0 = pools.preference_lists(members)
    assert list(zip(ci0.tolist(), pi0.tolist())) == [x for x in ref if pools.pools[x[1]].phase == 0]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 30), st.integers(1, 20), st.integers(0, 2**32 - 1))
def test_admit_types_group_candidates_by_the_masks_that_admit_them(n, k, seed):
    """`pools.admit_types`, which the lists read instead of a mask per pool: two candidates share a type
    exactly when every mask treats them alike, and the table says what each mask does to each type. Over 8
    masks the signature spans several bytes; a mask given twice (one object, or an equal copy) is one."""
    from solver.chain.pools import admit_types
    rng = np.random.default_rng(seed)
    distinct = [rng.random(n) < rng.random() for _ in range(max(1, k // 2))]
    masks = [distinct[j] if rng.random() < 0.5 else distinct[j].copy() for j in rng.integers(0, len(distinct), k)]
    kind, admitted = admit_types(masks)
    table = np.array(masks, dtype=bool).reshape(k, n)
    sig = [tuple(c) for c in table.T.tolist()]
    assert admitted.shape == (len(set(sig)), k)
    assert np.array_equal(admitted[kind].T, table)
    assert all((kind[i] == kind[j]) == (sig[i] == sig[j]) for i in range(n) for j in range(n))


@settings(PROFILE, max_examples=min(PROFILE.max_examples, 200))
@given(st.one_of(instances(ranked=True), instances(traits=True)), st.integers(0, 2**32 - 1))
def test_preference_lists_of_grouped_pools_follow_their_masks(inst, seed):
    """Pools filled in turn (`pools.group`: a subset, only the candidates earlier pools left free) admit by
    masks of their own, a fresh one per pool: their lists must still be each candidate's eligible pairs in
    order, and `Pool.eligible` what the pool admits among those who ranked its post."""
    from solver.chain.pools import group
    _, pol, prob, g, _ = _solve_both(inst)
    pools = g.result.pools
    rng = np.random.default_rng(seed)
    members = sorted(rng.choice(len(pools), rng.integers(1, len(pools) + 1), replace=False).tolist())
    free = rng.random(prob.n) < 0.7
    sub = group(pools, members, free, np.zeros(len(pools), dtype=np.int64))
    for q, k in zip(sub.pools, members):
        assert np.array_equal(q.eligible, pools.pools[k].eligible & free)
        if q.ranked is not None:   # (a service allocation's pools may admit the unranked: no row to restrict by)
            assert np.array_equal(q.eligible, q.admits & prob.ranked[:, q.post])
    if not pools.shared:     # (pools holding their candidates as indices, the certificate's, grouped alike)
        from solver.chain.engines.cpsat.certificate import certificate_pools
        cut = certificate_pools(pools, g.result.assignment.pool)
        for q, k in zip(group(cut, members, free, np.zeros(len(pools), dtype=np.int64)).pools, members):
            assert np.array_equal(q.who(), np.flatnonzero(cut.pools[k].eligible & free))
    key = {p.index: (p.phase, p.post, p.precedence) for p in sub.pools}
    pairs = [(i, p.index) for p in sub.pools for i in np.flatnonzero(p.eligible).tolist()]
    ref = sorted(pairs, key=lambda x: (x[0], key[x[1]][0], int(prob.post_rank[x[0], key[x[1]][1]]), key[x[1]][1],
                                       key[x[1]][2], x[1]))
    assert list(zip(*(a.tolist() for a in sub.preference_lists()))) == (ref and list(zip(*zip(*ref))))


_FIELDS = st.one_of(st.text(alphabet=st.sampled_from('ab ,"\n\r;é'), max_size=6), st.integers(-10**12, 10**12),
                    st.floats(allow_nan=True), st.none(), st.booleans(), st.just(np.int64(7)), st.just(np.float64(0.1)))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(_FIELDS, max_size=5), max_size=6))
def test_csv_text_is_what_the_csv_module_writes(rows):
    """`reports.csv_text` joins plain rows itself (decisions.csv at JoSAA size, 2.5x faster): every output
    file must stay byte for byte what `csv.writer(lineterminator="\\n")` writes, whatever the fields hold
    (commas, quotes, line breaks, empty fields, a lone empty field, numbers, None)."""
    import csv
    import io
    from solver.io.staging import csv_text
    want = io.StringIO()
    csv.writer(want, lineterminator="\n").writerows(rows)
    assert csv_text(rows) == want.getvalue()


def test_preference_lists_of_a_pool_open_to_the_unranked_come_from_the_sort():
    """Where a pool admits a candidate who did not rank its post (a policy allocating unranked posts), the
    ranked rows cannot offer that pair: `_lists_by_rows` says so (None) and the packed-key sort makes the
    lists, the unranked post last."""
    from solver.chain.pools import Pool, Pools
    from solver.chain.pools.lists import _lists_by_rows
    from solver.data.ranking import Ranking
    ranking = Ranking((np.array([0, 1]), np.array([1])), n=2, posts=2)   # candidate 1 ranks only post 1
    pools = Pools((Pool(0, 0, "open_merit", 0, 0, ("UR",), np.array([True, True]), 1),
                   Pool(1, 1, "open_merit", 0, 0, ("UR",), np.array([True, True]), 1)), ranking, False)
    assert _lists_by_rows(pools) is None
    ci, pi = pools.preference_lists()
    assert list(zip(ci.tolist(), pi.tolist())) == [(0, 0), (0, 1), (1, 1), (1, 0)]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_ranks_read_off_the_lists_are_the_rank_matrix(n, posts, seed):
    """`Ranking.ranks` walks each candidate's list where the n x P matrix has not been made (the reasons' ranks
    at JoSAA size); it must give what the matrix gives, NOT_RANKED for a post not ranked."""
    from solver.data.ranking import Ranking
    rng = np.random.default_rng(seed)
    prefs = tuple(rng.permutation(posts)[:rng.integers(0, posts + 1)] for _ in range(n))
    cands, want = rng.integers(0, n, 40), rng.integers(0, posts, 40)
    walked = Ranking(prefs, n, posts).ranks(cands, want)
    matrix = Ranking(prefs, n, posts)
    assert np.array_equal(walked, matrix.post_rank[cands, want]) and "post_rank" in matrix.__dict__
    assert np.array_equal(matrix.ranks(cands, want), walked)


@settings(PROFILE, max_examples=min(PROFILE.max_examples, 200))
@given(st.one_of(instances(ranked=True), instances(traits=True)), st.integers(0, 2**32 - 1))
def test_preferred_pairs_are_those_before_the_held_pool(inst, seed):
    """`pools.preferred_pairs` (held pairs found by walking each list, "before it" by a running count) against
    its definition: a pair is held if its pool is the candidate's, wanted if it comes before her held pair in
    her list (every pair of one holding nothing). Checked on the greedy's assignment and on a random one."""
    from solver.chain.pools import preferred_pairs
    _, pol, prob, g, _ = _solve_both(inst)
    pools = g.result.pools
    rng = np.random.default_rng(seed)
    ci_all, pi_all = pools.preference_lists()
    other = np.full(prob.n, -1)
    for i in rng.permutation(prob.n)[:prob.n // 2]:   # any eligible pool, or none
        mine = pi_all[ci_all == i]
        if len(mine):
            other[i] = rng.choice(mine)
    for held in (g.result.assignment.pool, other):
        ci, pi, holds, wanted = preferred_pairs(pools, held)
        ref_holds = held[ci] == pi
        ref_wanted = np.zeros(len(ci), bool)
        for i in np.unique(ci):
            at = np.flatnonzero(ci == i)
            h = at[ref_holds[at]]
            ref_wanted[at[at < h[0]] if len(h) else at] = True
        assert np.array_equal(holds, ref_holds) and np.array_equal(wanted, ref_wanted)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(instances(), instances(traits=True), instances(overall=True), instances(allow_prefs=False)))
def test_the_candidates_lists_hold_every_pair_a_pool_may_take(inst):
    """The candidate-pool pairs of the candidates' lists (`Pools.preference_lists`) are the pools' eligible sets
    (those each admits who ranked its post), pair for pair: the model-size estimate counts the one for the other
    (`solver.chain.engines.cpsat.size.pairs`)."""
    from solver.chain.engines.cpsat.size import pairs
    _, _, _, g, _ = _solve_both(inst)
    pools = g.result.pools
    ci, pi = pools.preference_lists()
    got = {(int(i), int(p)) for i, p in zip(ci, pi)}
    assert got == {(int(i), p.index) for p in pools.pools for i in np.flatnonzero(p.eligible)}
    assert pairs(pools) == len(got)
