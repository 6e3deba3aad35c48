"""The CP-SAT engine: the rules as constraints of a stable-assignment model (stage 3, defining engine).

Stability is stated with cutoffs (Azevedo and Leshno, "A supply and demand framework for two-sided matching
markets", JPE 2016): each pool admits a merit prefix of its eligible candidates, encoded as monotone
literals ``a[p][k] => a[p][k-1]``; a candidate holds the first pool in their preference order that admits
them; a pool may leave someone eligible unadmitted only when it is full. With the linear capacities of
`solver.pools` this says: nobody eligible for a vacancy who prefers it is left out while someone of worse
merit holds it, open before own category before exchange, fallback and de-reservation.

Horizontal minimums (Rajesh Kumar Daria 2007; Saurav Yadav 2020) split a compartment's prefix in two: the
beneficiaries' cutoff may reach below the general one only while the compartment holds at most its minimum
of beneficiaries, and must admit every beneficiary while it holds fewer.
"""
from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from ..errors import PolicyConflict, TimeLimit, Unsupported
from ..pools import Pool, Pools, exchanges, group, hall_terms, merit_only_class, runs, signatures
from .assignment import Assignment, free_for, mark_adjusted, natural_tops
from .greedy import check_supported


class _Chains:
    """Admission literals of one pool: one chain, or under horizontal minimums one per trait signature
    (which of the pool's traits a candidate counts for; signature 0 = none).

    Chains stop at `depth`: whoever a pool admits holds it or a pool they prefer, so no stable assignment
    admits more than the pool's capacity plus the capacity of every pool anyone might prefer to it. Past that
    depth nobody is admitted, and a pool whose chain was cut is necessarily full."""

    def __init__(self, model: cp_model.CpModel, pool: Pool, depth: int):
        self.elig = np.flatnonzero(pool.eligible)
        sig = signatures(pool, self.elig)
        self.sigs = sorted(set(sig.tolist())) if pool.minimums else [0]
        self.full_groups = [self.elig[sig == s] for s in self.sigs]
        self.truncated = any(len(g) > depth for g in self.full_groups)
        self.groups = [g[:depth] for g in self.full_groups]
        self.lits = []
        self.lit_of: dict[int, cp_model.IntVar] = {}
        for g in self.groups:
            lits = [model.new_bool_var("") for _ in range(len(g))]
            for a, b in zip(lits[1:], lits[:-1]):
                model.add_implication(a, b)
            self.lits.append(lits)
            self.lit_of.update(zip(g.tolist(), lits))
        self.depth = depth
        self.merit: dict[int, cp_model.IntVar] = {}     # see _merit_cutoff
        self.top_free: dict[int, object] = {}            # in the merit top and free


def solve_cpsat(pools: Pools, n: int, hint=None, time_limit: float | None = None, workers: int = 1,
                progress=None) -> Assignment:
    """The stable assignment the model defines, solved in the turn the pools are filled (`_turns`): one group at
    a time with the earlier groups' result fixed. Every candidate prefers an earlier group, so a later group's
    constraints never restrict an earlier one (any input has a stable completion), and the whole model's
    solution is the groups' in sequence. Each group's model is the same model, its chains cut at a depth that
    counts only the group's own pools. Where posts are filled in turn (`Pools.merit_only`) a group is a
    (phase, post); with preferences, a phase; with a recommendation list's shared bounds, the whole model."""
    check_supported(pools)
    turns = _turns(pools)
    if turns is None:
        return _solve_model(pools, n, hint, time_limit, workers)
    t0 = time.perf_counter()
    assign = np.full(n, -1, dtype=np.int64)
    filled = np.zeros(len(pools), dtype=np.int64)
    stats = {"build_seconds": 0.0, "solve_seconds": 0.0, "variables": 0, "constraints": 0,
             "hinted": hint is not None, "groups": len(turns)}
    status = "optimal"
    for k, members in enumerate(turns):
        if progress is not None:
            p = pools.pools[members[0]]
            progress(f"CP-SAT, group {k + 1} of {len(turns)} (phase {p.phase}"
                     + (f", post {p.post + 1})" if pools.merit_only else ")"))
        sub = group(pools, members, assign < 0, filled)
        sub_hint = None
        if hint is not None:
            local = np.full(len(pools) + 1, -1, dtype=np.int64)
            local[members] = np.arange(len(members))
            sub_hint = Assignment(local[hint.pool], hint.adjusted, "greedy")
        left = None if time_limit is None else max(0.01, time_limit - (time.perf_counter() - t0))
        a = _solve_model(sub, n, sub_hint, left, workers, adjust=False)
        for key in ("build_seconds", "solve_seconds", "variables", "constraints"):
            stats[key] += a.stats[key]
        if a.stats.get("hint_rejected"):
            stats["hint_rejected"] = True
        if a.status == "time_limit":
            return Assignment(hint.pool, hint.adjusted, "time_limit", stats)
        if a.status == "feasible":
            status = "feasible"
        got = a.pool >= 0
        assign[got] = np.asarray(members)[a.pool[got]]
        filled[members] = np.bincount(a.pool[got], minlength=len(members))
    adjusted = np.zeros(n, dtype=bool)
    mark_adjusted(pools, assign, adjusted)
    stats["seconds"] = time.perf_counter() - t0
    return Assignment(assign, adjusted, status, stats)


def _turns(pools: Pools) -> list[list[int]] | None:
    """The groups of pools in the order they are filled, when there is more than one: (phase, post) where
    posts are filled in turn, else phase (every candidate prefers an earlier phase: exchange, fallback and
    de-reservation fill only what the phases before them left). None with a shared bound (a recommendation
    list), which ties pools across groups."""
    if pools.shared:
        return None
    key = (lambda p: (p.phase, p.post)) if pools.merit_only else (lambda p: (p.phase,))
    keys = sorted({key(p) for p in pools})
    if len(keys) < 2:
        return None
    return [[p.index for p in pools if key(p) == k] for k in keys]


# Peak memory per (candidate, pool) pair of a model, measured on central-dopt with preferences (benchmarks
# README, "Model size"): 3.8 KB at 150 k pairs, 5.4 KB at 600 k; taken as 6 KB so the estimate errs high.
BYTES_PER_PAIR = 6 * 1024


def available_memory() -> int | None:
    """Bytes the machine can still give (MemAvailable), or None where it cannot tell."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def check_model_size(pools: Pools) -> None:
    """Refuse (exit 3) a model that would not fit in memory, before building it, rather than exhaust it."""
    pairs = sum(int(p.eligible.sum()) for p in pools.pools)
    need, have = pairs * BYTES_PER_PAIR, available_memory()
    if have is not None and need > 0.8 * have:
        raise Unsupported(f"the CP-SAT model would have about {pairs:,} candidate-pool pairs, about "
                          f"{need / 2**30:.1f} GiB, more than this machine has free ({have / 2**30:.1f} GiB): use "
                          "--engine greedy (the reference procedure, which verify checks independently), or a "
                          "machine with more memory; --time-limit bounds the search, not the model's size")


def _solve_model(pools: Pools, n: int, hint, time_limit: float | None, workers: int,
                 adjust: bool = True) -> Assignment:
    """The model of `pools`, built and solved. `adjust`: mark who came in by horizontal adjustment (a group
    solved in turn leaves that to the whole assignment)."""
    check_model_size(pools)
    t0 = time.perf_counter()
    m = cp_model.CpModel()
    overlap = _overlaps(pools)
    chains = [_Chains(m, p, _depth(pools, p, overlap)) for p in pools]
    groups = [_GroupChain(m, pools, g) for g in pools.shared]
    # Per candidate: eligible pools in preference order; x = reached and admitted.
    x_of: list[dict[int, cp_model.IntVar]] = [dict() for _ in pools]
    free_of: list[dict[int, object]] = [dict() for _ in pools]  # "no pool i prefers admits i" (1 = always)
    pairs_i, pairs_p = pools.preference_lists()
    starts, ends = runs(pairs_i)
    # Horizontal minimums with ranked preferences admit several stable assignments (a compartment may take a
    # beneficiary who would rather be elsewhere). The rule is the candidate-optimal one, the deferred-
    # acceptance outcome: every candidate does at least as well there as in any other, so it is the unique
    # maximiser of the summed (list length - rank) of the pools held.
    objective = not pools.merit_only and any(p.minimums for p in pools)
    gain = []  # (list length - rank) of the pool each candidate holds
    for s, e in zip(starts, ends):
        i = int(pairs_i[s])
        reached = None  # literal "no earlier pool admits i"; None = true
        mine = [int(p) for p in pairs_p[s:e] if int(i) in chains[p].lit_of]
        for k, p in enumerate(mine):
            a = _admitted(m, chains[p].lit_of[i], [g.lit_of[i] for g in groups if p in g.members and i in g.lit_of])
            if reached is None:
                x = a
            else:
                x = m.new_bool_var("")
                m.add_bool_and([reached, a]).only_enforce_if(x)
                m.add_bool_or([reached.Not(), a.Not(), x])
            x_of[p][i] = x
            if pools.pools[p].minimums:
                free_of[p][i] = 1 if reached is None else reached
            if objective:
                gain.append((len(mine) - k) * x)
            if k + 1 < len(mine):
                if reached is None:
                    nxt = a.Not()
                else:
                    nxt = m.new_bool_var("")
                    m.add_bool_and([reached, a.Not()]).only_enforce_if(nxt)
                    m.add_bool_or([reached.Not(), a, nxt])
                reached = nxt
    sums = [cp_model.LinearExpr.sum(list(x_of[p.index].values())) for p in pools]
    for g, chain in zip(pools.shared, groups):
        # The bound, and merit within it: whoever it turns away is behind everyone it let in.
        used = sum(sums[k] for k in g.members) + sum(sums[k] for k in g.minus) - sum(sums[k] for k in g.plus)
        m.add(used <= g.base)
        full = m.new_bool_var("")
        m.add(used >= g.base).only_enforce_if(full)
        if chain.lits:
            m.add_bool_or([chain.lits[-1], full])
    for p, ch in zip(pools, chains):
        used = sums[p.index] + sum(sums[q] for q in p.minus)
        m.add(used <= p.base)
        full = m.new_bool_var("")
        m.add(used >= p.base).only_enforce_if(full)
        if ch.truncated:
            m.add(full == 1)
        for lits in ch.lits:
            if lits:
                m.add_bool_or([lits[-1], full])
        if p.minimums:
            _horizontal(m, p, ch, x_of[p.index], free_of[p.index], p.base - sum(sums[q] for q in p.minus))
    if objective:
        m.maximize(cp_model.LinearExpr.sum(gain))
    if hint is not None:
        _add_hint(m, pools, chains, x_of, hint)
    build = time.perf_counter() - t0
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = max(1, workers)
    solver.parameters.random_seed = 0
    # Merit breaks every tie, so the model has no symmetry worth finding; on RRB-like instances the search
    # for it took 57 of 58 seconds.
    solver.parameters.symmetry_level = 0
    if hint is not None:
        solver.parameters.cp_model_presolve = False
        # With the greedy's hint the search is a walk down the hint; solving the LP relaxation at its nodes was
        # what took the time (horizontal minimums at 100,000 candidates: 87 s with it, 3.8 s without).
        solver.parameters.linearization_level = 0
    if time_limit:
        solver.parameters.max_time_in_seconds = float(time_limit)
    # Without an objective the model has one solution (one merit list for every pool), so with the greedy's
    # assignment assumed CP-SAT has only to find cutoffs that make it stable and check every constraint: a
    # certificate, not a search. Should the greedy's assignment break a rule of the model, the model is
    # solved for real.
    certify = hint is not None and not m.has_objective()
    if certify:
        # Probing the model before the walk took a second at 100,000 candidates (its whole time budget), and
        # a certificate does not need it: 3.1 s -> 1.4 s of search on bihar-100k-horizontal.
        solver.parameters.cp_model_probing_level = 0
        # (literal indices straight into the proto: a negated literal is -index-1; half a million
        # add_assumption calls took 1.5 s of bpsc-70's build)
        m.proto.assumptions.extend([x.index if hint.pool[i] == p else -x.index - 1
                                    for p, xs in enumerate(x_of) for i, x in xs.items()])
    status = solver.solve(m)
    wall = solver.wall_time
    rejected = certify and status == cp_model.INFEASIBLE
    if rejected:
        m.clear_assumptions()
        status = solver.solve(m)
        wall += solver.wall_time
    stats = {"build_seconds": build, "solve_seconds": wall,
             "variables": len(m.proto.variables), "constraints": len(m.proto.constraints),
             "hinted": hint is not None, **({"hint_rejected": True} if rejected else {})}
    if status == cp_model.MODEL_INVALID:
        raise Unsupported(f"CP-SAT rejected the model as invalid ({solver.status_name(status)}): a defect of "
                          "Aarakshan's, not of the input or the law; --engine greedy gives the reference answer "
                          "(please report the inputs)")
    if status == cp_model.INFEASIBLE:
        raise PolicyConflict("no allocation satisfies every rule at once (CP-SAT proved the stability, capacity "
                             f"and horizontal constraints infeasible: {solver.status_name(status)})")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if hint is None:
            raise TimeLimit("time limit reached before CP-SAT found an allocation")
        return Assignment(hint.pool, hint.adjusted, "time_limit", stats)
    assign = np.full(n, -1, dtype=np.int64)
    adjusted = np.zeros(n, dtype=bool)
    for p in pools:
        for i, x in x_of[p.index].items():
            if solver.boolean_value(x):
                assign[i] = p.index
    if adjust:
        mark_adjusted(pools, assign, adjusted)
    stats["seconds"] = time.perf_counter() - t0
    return Assignment(assign, adjusted, "optimal" if status == cp_model.OPTIMAL else "feasible", stats)


class _GroupChain:
    """Admission literals of a shared bound: a merit prefix of everyone eligible for any member pool."""

    def __init__(self, m: cp_model.CpModel, pools: Pools, g):
        elig = np.flatnonzero(np.any([pools.pools[k].eligible for k in g.members], axis=0))
        self.members = set(g.members)
        self.lits = [m.new_bool_var("") for _ in elig]
        for a, b in zip(self.lits[1:], self.lits[:-1]):
            m.add_implication(a, b)
        self.lit_of = dict(zip(elig.tolist(), self.lits))


def _admitted(m: cp_model.CpModel, own, shared: list):
    """Admitted to a pool: by its own cutoff and by the cutoff of every bound it shares."""
    if not shared:
        return own
    a = m.new_bool_var("")
    m.add_bool_and([own, *shared]).only_enforce_if(a)
    m.add_bool_or([a, own.Not(), *[x.Not() for x in shared]])
    return a


def _overlaps(pools: Pools) -> np.ndarray | None:
    """Which pairs of pools some candidate is eligible for both of. Only where pools are filled one by one
    (no preferences, no shared bound: a bound may turn away one its pool's own chain admits): eligibility then
    depends on a candidate's category and flags alone, so few distinct columns need comparing."""
    if not pools.merit_only or not len(pools):
        return None
    kinds = np.unique(np.stack([p.eligible for p in pools], axis=1), axis=0).astype(np.int64)
    return (kinds.T @ kinds) > 0


def _depth(pools: Pools, pool: Pool, overlap: np.ndarray | None = None) -> int:
    """Capacity of the pool plus that of every pool some candidate may prefer to it (bases bound capacities):
    whoever the pool admits holds it or a pool they prefer, so only pools that share an eligible candidate
    with it count."""
    def maybe_preferred(q: Pool) -> bool:
        if q.index == pool.index or q.phase > pool.phase:
            return False
        if overlap is not None and not overlap[q.index, pool.index]:
            return False
        if q.phase < pool.phase or not pools.common_order:
            return True
        if q.post != pool.post:
            return q.post < pool.post
        return q.precedence < pool.precedence

    return pool.base + sum(q.base for q in pools if maybe_preferred(q))


def _horizontal(m: cp_model.CpModel, p: Pool, ch: _Chains, xs: dict, free: dict, capacity) -> None:
    """Minimum guarantee on the signature chains. For a set Y of the pool's traits let need(Y) be the seats
    Y's minimums reserve, H(Y) the holders who count for some trait of Y, and F(Y) those free to take the pool
    (holding nothing they prefer). By Hall's theorem with deficiency, the holders fill all but
    max_Y (need(Y) - H(Y)) of the minimums' seats, each holder counting once, and no set of the free could
    fill more than all but D = max(0, max_Y need(Y) - min(capacity, F(Y))). So:
    - every need(Y) - H(Y) <= D: a shortfall only where nobody free was left to meet it;
    - a candidate of signature s may be left out while a worse one of signature u is admitted only if taking
      the first for the second would leave a seat unfilled: need(Y) - H(Y) >= D for some Y that u meets and
      s does not. With one trait: a non-beneficiary is passed over for a beneficiary only while the
      compartment holds at most its minimum (no removal for excess), a beneficiary never for a non-beneficiary.
    Together these make the holders the merit-lexicographic best set meeting the minimums as far as anyone
    can (Rajesh Kumar Daria 2007; Saurav Yadav 2020; for several traits, the greedy basis of a matroid)."""
    if p.counts_each:
        _counting_each(m, p, ch, xs, free)
        return
    ys, need, meets = hall_terms(p)
    fixed = [merit_only_class(p, s) and len(g) for s, g in zip(ch.sigs, ch.groups)]
    if any(fixed):
        # Those who count but enter only on merit are in exactly when among the merit top: no adjustment
        # brings them in, and none removes them since they count (one trait: several are refused upstream).
        _merit_cutoff(m, p, ch, free, capacity)
        for k, lits in enumerate(ch.lits):
            if fixed[k]:
                for i, lit in zip(ch.groups[k].tolist(), lits):
                    m.add(lit == (ch.merit[i] if i in ch.merit else 0))  # past the depth: outside the top
    held = [cp_model.LinearExpr.sum([xs[i] for i in g.tolist()]) for g in ch.groups]
    h = [sum(held[k] for k, s in enumerate(ch.sigs) if meets[y, s]) for y in range(len(ys))]
    if len(ys) == 1:
        # One trait: D > 0 only when every beneficiary is admitted, so "H >= need, or every beneficiary
        # admitted" says the same without the free counts (4 times faster at 100,000 candidates).
        d = 0
        classes = [k for k, s in enumerate(ch.sigs) if s and not merit_only_class(p, s) and len(ch.full_groups[k])]
        if classes:
            met = m.new_bool_var("")
            m.add(h[0] >= int(need[0])).only_enforce_if(met)
            if len(ch.full_groups[classes[0]]) > len(ch.lits[classes[0]]):
                m.add(met == 1)  # beneficiaries remain past the cut: the pool is full of better ones
            else:
                m.add_bool_or([met, ch.lits[classes[0]][-1]])
    else:
        d = _deficiency(m, p, ch, free, capacity, need, meets)
        for y in range(len(ys)):
            m.add(int(need[y]) - h[y] <= d)
    tight = {}

    def tight_lit(y: int):
        if y not in tight:
            tight[y] = m.new_bool_var("")
            m.add(int(need[y]) - h[y] >= d).only_enforce_if(tight[y])
        return tight[y]

    for a, s in enumerate(ch.sigs):          # s: left out, better
        for b, u in enumerate(ch.sigs):      # u: admitted, worse
            if a == b or not len(ch.groups[b]) or fixed[a]:
                continue
            allowed = [y for y in range(len(ys)) if meets[y, u] and not meets[y, s]]
            inverted = None
            if allowed:
                inverted = m.new_bool_var("")
                m.add_bool_or([inverted.Not(), *[tight_lit(y) for y in allowed]])
            lits_s = ch.lits[a]
            for k, j in enumerate(np.searchsorted(ch.full_groups[a], ch.groups[b]) - 1):
                if j < 0:
                    continue
                lv = ch.lits[b][k]
                if j >= len(lits_s):        # the better one is past the cut, hence not admitted
                    if inverted is None:
                        m.add(lv == 0)
                    else:
                        m.add_implication(lv, inverted)
                else:
                    m.add_bool_or([lv.Not(), lits_s[j], *([inverted] if inverted is not None else [])])


def _counting_each(m: cp_model.CpModel, p: Pool, ch: _Chains, xs: dict, free: dict) -> None:
    """Each appointee counting for every trait they have (`multi_trait_counts_each`): the holders are the set
    that fills the most of the minimums' seats, then the merit-lexicographic best (issue 4's definition;
    the greedy's `_best_counting_each`). The chains keep each signature class's holders a merit prefix of
    those free to take the pool, so it is enough that no exchange of `solver.pools.exchanges` improves the
    set. An exchange taking classes O out (each one's worst holder) and I in (each one's best free non-holder)
    is possible when all of those exist; it fills g more seats of the minimums (g from each count's distance
    to its minimum); it is better on merit when some class of I has a free non-holder ahead of a holder of
    every class of O. Forbidden: possible with g > 0, or with g = 0 and better on merit.
    "Ahead" is clauses along the chains, as in `_horizontal`: for classes u, v, `ahead[u, v]` must hold when
    some holder of v has a free non-holder of u before him, stated over the smaller of the two classes with
    a prefix "some free non-holder so far" per class and a suffix "some holder from here on". (A maximum over
    ranks per class took 336 s of search on twenty posts of 100,000 candidates; these clauses, 55 s.)"""
    mins = list(p.minimums.values())
    classes = [k for k, g in enumerate(ch.groups) if len(g)]
    waiting_so_far = {}
    for k in classes:
        chain = []
        for i in ch.groups[k].tolist():
            w = m.new_bool_var("")
            f = free.get(i, 1)
            m.add_bool_or([w, xs[i], *([f.Not()] if not isinstance(f, int) else [])])
            if chain:
                m.add_implication(chain[-1], w)
            chain.append(w)
        waiting_so_far[k] = chain
    of = {ch.sigs[k]: k for k in classes}
    moves = [([of[s] for s in o], [of[s] for s in i]) for o, i in exchanges(list(of))]
    held_from: dict[int, list] = {}     # per class, "some holder at or after this member" (built when needed)

    def later_holder(k: int) -> list:
        if k not in held_from:
            chain = [m.new_bool_var("") for _ in ch.groups[k]]
            for pos, i in enumerate(ch.groups[k].tolist()):
                m.add_implication(xs[i], chain[pos])
                if pos:
                    m.add_implication(chain[pos], chain[pos - 1])
            held_from[k] = chain
        return held_from[k]

    ahead = {}
    for u, v in sorted({(u, v) for outs, ins in moves for u in ins for v in outs}):
        lit = ahead[u, v] = m.new_bool_var("")
        gu, gv = ch.groups[u], ch.groups[v]
        if len(gv) <= len(gu):
            # per holder of v: a free non-holder of u before him
            for i, j in zip(gv.tolist(), (np.searchsorted(gu, gv) - 1).tolist()):
                if j >= 0:
                    m.add_bool_or([xs[i].Not(), waiting_so_far[u][j].Not(), lit])
        else:
            # per member of u: a free non-holder of u so far and a holder of v after him (the smaller class)
            after = later_holder(v)
            for j, k in enumerate(np.searchsorted(gv, gu).tolist()):
                if k < len(gv):
                    m.add_bool_or([waiting_so_far[u][j].Not(), after[k].Not(), lit])
    has_holder: dict[int, cp_model.IntVar] = {}

    def some_holder(k: int):
        """A class holds someone: the first link of its suffix chain where one was built, else its own literal."""
        if k in held_from:
            return held_from[k][0]
        if k not in has_holder:
            has_holder[k] = m.new_bool_var("")
            for i in ch.groups[k].tolist():
                m.add_implication(xs[i], has_holder[k])
        return has_holder[k]

    count = [cp_model.LinearExpr.sum([xs[i] for k in classes if ch.sigs[k] >> t & 1
                                      for i in ch.groups[k].tolist()]) for t in range(len(mins))]
    at_most: dict[tuple[int, int], cp_model.IntVar] = {}

    def le(t: int, j: int):
        """count[t] <= mins[t] + j"""
        if (t, j) not in at_most:
            lit = at_most[t, j] = m.new_bool_var("")
            m.add(count[t] <= mins[t] + j).only_enforce_if(lit)
            m.add(count[t] >= mins[t] + j + 1).only_enforce_if(lit.Not())
        return at_most[t, j]

    for outs, ins in moves:
        gain = 0
        for t in range(len(mins)):
            d = sum(ch.sigs[k] >> t & 1 for k in ins) - sum(ch.sigs[k] >> t & 1 for k in outs)
            # seats of minimum t filled more (fewer) by raising (lowering) its count by |d|
            gain += sum(le(t, -j) for j in range(1, d + 1)) - sum(le(t, j) for j in range(-d))
        when = [some_holder(k) for k in outs] + [waiting_so_far[k][-1] for k in ins]
        _unless(m, when, gain, 0)
        if isinstance(gain, int) and gain < 0:
            continue
        for k in ins:
            _unless(m, [*when, *[ahead[k, o] for o in outs]], gain, -1)


def _unless(m: cp_model.CpModel, when: list, expr, bound: int) -> None:
    """expr <= bound wherever every literal of `when` holds (expr may be a plain number)."""
    if isinstance(expr, int):
        if expr > bound:
            m.add_bool_or([w.Not() for w in when])
    else:
        m.add(expr <= bound).only_enforce_if(when)


def _merit_cutoff(m: cp_model.CpModel, p: Pool, ch: _Chains, free: dict, capacity) -> None:
    """`ch.merit[i]`: i is among the pool's merit top, the best `capacity` of the eligible who are free to
    take it (Rajesh Kumar Daria 2007: the compartment is first filled on merit). A monotone chain over the
    eligible, cut at the pool's depth like the others (the top lies within it)."""
    elig = ch.elig[:ch.depth].tolist()
    lits = [m.new_bool_var("") for _ in elig]
    for a, b in zip(lits[1:], lits[:-1]):
        m.add_implication(a, b)
    inside = []
    for i, g in zip(elig, lits):
        f = free.get(i, 1)
        if isinstance(f, int):
            inside.append(g)
            continue
        both = m.new_bool_var("")
        m.add_bool_and([g, f]).only_enforce_if(both)
        m.add_bool_or([g.Not(), f.Not(), both])
        inside.append(both)
    total = cp_model.LinearExpr.sum(inside)
    m.add(total <= capacity)
    everyone = lits[-1] if lits and len(ch.elig) <= ch.depth else None
    if everyone is None:
        m.add(total >= capacity)
    else:
        m.add(total >= capacity).only_enforce_if(everyone.Not())
    ch.merit.update(zip(elig, lits))
    ch.top_free.update(zip(elig, inside))


def _deficiency(m: cp_model.CpModel, p: Pool, ch: _Chains, free: dict, capacity, need, meets):
    """D = max(0, max_Y need(Y) - min(capacity, F(Y))): the seats no set of the free could fill."""
    cap = m.new_int_var(0, p.base, "")
    m.add(cap == capacity)
    forced = []
    for y in range(len(need)):
        classes = [k for k, s in enumerate(ch.sigs) if meets[y, s]]
        if any(len(ch.full_groups[k]) > len(ch.lits[k]) for k in classes):
            # The chain was cut: at least `capacity` of its first `depth` are free (the rest hold pools they
            # prefer, whose capacities the depth counts).
            forced.append(int(need[y]) - cap)
            continue
        f = m.new_int_var(0, p.base, "")
        # (those who enter only on merit are free to take the pool only within its merit top)
        terms = []
        for k in classes:
            who = ch.groups[k].tolist()
            terms += [ch.top_free.get(i, 0) for i in who] if merit_only_class(p, ch.sigs[k]) else [free[i] for i in who]
        m.add_min_equality(f, [cap, cp_model.LinearExpr.sum(terms)])
        forced.append(int(need[y]) - f)
    d = m.new_int_var(0, int(need.max(initial=0)), "")
    m.add_max_equality(d, [0, *forced])
    return d


def _add_hint(m, pools: Pools, chains, x_of, hint: Assignment) -> None:
    """A hint from the greedy: each chain admits up to its last holder, or everyone when not full; every
    "holds" literal says what the greedy did. Written into the proto in one go (hundreds of thousands of
    add_hint calls were a fifth of the model's build time)."""
    filled = hint.filled(len(pools))
    index: list[int] = []
    value: list[int] = []
    for p, ch in zip(pools, chains):
        cap = p.capacity(filled)
        last = [g[hint.pool[g] == p.index][-1:] for g in ch.groups]   # each chain's worst holder, if any
        # (under counts-for-each the classes' cutoffs are left to the solver beyond each one's last holder)
        meets = hall_terms(p)[2] if p.minimums and not p.counts_each else None
        for a, (g, lits) in enumerate(zip(ch.groups, ch.lits)):
            if filled[p.index] < cap:
                upto = len(g)
            else:
                upto = int(np.searchsorted(g, last[a][0])) + 1 if len(last[a]) else 0
                for b, u in enumerate(ch.sigs if meets is not None else ()):
                    # a chain admits everyone ahead of a worse holder it may never be passed over for
                    if b != a and len(last[b]) and not (meets[:, u] & (1 - meets[:, ch.sigs[a]])).any():
                        upto = max(upto, int(np.searchsorted(g, last[b][0])))
            index += [lit.index for lit in lits]
            value += [1] * min(upto, len(lits)) + [0] * max(0, len(lits) - upto)
    tops = natural_tops(pools, hint.pool) if any(ch.merit for ch in chains) else {}
    for p, ch in zip(pools, chains):
        if not ch.merit:
            continue
        # the merit top: everyone up to its last member, or everyone when it is short of the capacity
        top = tops[p.index]
        upto = (int(top[-1]) if len(top) else -1) if len(top) >= p.capacity(filled) else 1 << 62
        for i, g in ch.merit.items():
            index.append(g.index)
            value.append(int(i <= upto))
            both = ch.top_free[i]
            if both is not g:
                index.append(both.index)
                value.append(int(i <= upto and free_for(pools, hint.pool, p, i)))
    chained = set(index)
    for p in pools:
        for i, x in x_of[p.index].items():
            if x.index not in chained:  # "holds" literals that are not chain literals themselves
                index.append(x.index)
                value.append(int(hint.pool[i] == p.index))
    m.proto.solution_hint.vars.extend(index)
    m.proto.solution_hint.values.extend(value)
