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

from ..errors import PolicyConflict, TimeLimit
from ..pools import Pool, Pools, runs
from .assignment import Assignment, mark_adjusted
from .greedy import check_supported


class _Chains:
    """Admission literals of one pool: one chain, or two (beneficiaries, others) under a horizontal minimum.

    Chains stop at `depth`: whoever a pool admits holds it or a pool they prefer, so no stable assignment
    admits more than the pool's capacity plus the capacity of every pool anyone might prefer to it. Past that
    depth nobody is admitted, and a pool whose chain was cut is necessarily full."""

    def __init__(self, model: cp_model.CpModel, pool: Pool, depth: int):
        self.elig = np.flatnonzero(pool.eligible)
        self.trait = next(iter(pool.minimums), None)
        ben = pool.beneficiary[self.trait][self.elig] if self.trait else np.zeros(len(self.elig), dtype=bool)
        self.groups = [self.elig[ben], self.elig[~ben]] if self.trait else [self.elig]
        self.truncated = any(len(g) > depth for g in self.groups)
        self.full_groups = self.groups
        self.groups = [g[:depth] for g in self.groups]
        self.lits = []
        self.lit_of: dict[int, cp_model.IntVar] = {}
        for g in self.groups:
            lits = [model.new_bool_var("") for _ in range(len(g))]
            for a, b in zip(lits[1:], lits[:-1]):
                model.add_implication(a, b)
            self.lits.append(lits)
            self.lit_of.update(zip(g.tolist(), lits))


def solve_cpsat(pools: Pools, n: int, hint=None, time_limit: float | None = None, workers: int = 1) -> Assignment:
    check_supported(pools)
    t0 = time.perf_counter()
    m = cp_model.CpModel()
    chains = [_Chains(m, p, _depth(pools, p)) for p in pools]
    groups = [_GroupChain(m, pools, g) for g in pools.shared]
    # Per candidate: eligible pools in preference order; x = reached and admitted.
    x_of: list[dict[int, cp_model.IntVar]] = [dict() for _ in pools]
    pairs_i, pairs_p = pools.preference_lists()
    starts, ends = runs(pairs_i)
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
            gain.append((len(mine) - k) * x)
            if k + 1 < len(mine):
                nxt = m.new_bool_var("")
                if reached is None:
                    m.add(nxt == 1 - a)
                else:
                    m.add_bool_and([reached, a.Not()]).only_enforce_if(nxt)
                    m.add_bool_or([reached.Not(), a, nxt])
                reached = nxt
    sums = [sum(x_of[p.index].values()) for p in pools]
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
        if ch.trait:
            _horizontal(m, p, ch, x_of[p.index])
    if not pools.merit_only and any(p.minimums for p in pools):
        # Horizontal minimums with ranked preferences admit several stable assignments (a compartment may
        # take a beneficiary who would rather be elsewhere). The rule is the candidate-optimal one, the
        # deferred-acceptance outcome: every candidate does at least as well there as in any other, so it is
        # the unique maximiser of the summed (list length - rank) of the pools held.
        m.maximize(sum(gain))
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
    if time_limit:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.solve(m)
    stats = {"build_seconds": build, "solve_seconds": solver.wall_time,
             "variables": len(m.proto.variables), "constraints": len(m.proto.constraints),
             "hinted": hint is not None}
    if status == cp_model.INFEASIBLE or status == cp_model.MODEL_INVALID:
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


def _depth(pools: Pools, pool: Pool) -> int:
    """Capacity of the pool plus that of every pool some candidate may prefer to it (bases bound capacities)."""
    def maybe_preferred(q: Pool) -> bool:
        if q.index == pool.index or q.phase > pool.phase:
            return False
        if q.phase < pool.phase or not pools.common_order:
            return True
        if q.post != pool.post:
            return q.post < pool.post
        return q.precedence < pool.precedence

    return pool.base + sum(q.base for q in pools if maybe_preferred(q))


def _last_other_better(ch: _Chains) -> np.ndarray:
    """For each kept beneficiary, the index among all others of the last non-beneficiary ahead of them (-1 none)."""
    return np.searchsorted(ch.full_groups[1], ch.groups[0]) - 1


def _horizontal(m: cp_model.CpModel, p: Pool, ch: _Chains, xs: dict) -> None:
    minimum = p.minimums[ch.trait]
    ben, oth = ch.groups
    lt, lo = ch.lits
    count = sum(xs[i] for i in ben.tolist())
    # Beneficiaries ahead of an admitted non-beneficiary are admitted too (merit still rules). A beneficiary
    # past the cut chain is never admitted, so neither is a non-beneficiary behind them.
    for k, j in enumerate(np.searchsorted(ch.full_groups[0], oth) - 1):
        if j >= len(lt):
            m.add(lo[k] == 0)
        elif j >= 0:
            m.add_implication(lo[k], lt[j])
    # Reaching below the general cutoff (an adjustment) is allowed only up to the minimum: no removal for excess.
    extended = m.new_bool_var("")
    for k, j in enumerate(_last_other_better(ch)):
        if j >= len(lo):
            m.add_implication(lt[k], extended)   # a non-beneficiary ahead is past the cut, hence not admitted
        elif j >= 0:
            m.add_bool_or([lt[k].Not(), lo[j], extended])
    m.add(count <= minimum).only_enforce_if(extended)
    # A shortfall that remaining beneficiaries could meet must be met.
    met = m.new_bool_var("")
    m.add(count >= minimum).only_enforce_if(met)
    if lt:
        m.add_bool_or([met, lt[-1]])
        if len(ch.full_groups[0]) > len(lt):
            m.add(met == 1)  # beneficiaries remain past the cut: the minimum is met


def _add_hint(m, pools: Pools, chains, x_of, hint: Assignment) -> None:
    """A hint from the greedy: each chain admits up to its last holder, or everyone when not full; every
    "holds" literal says what the greedy did. Written into the proto in one go (hundreds of thousands of
    add_hint calls were a fifth of the model's build time)."""
    filled = hint.filled(len(pools))
    index: list[int] = []
    value: list[int] = []
    for p, ch in zip(pools, chains):
        cap = p.capacity(filled)
        for gi, (g, lits) in enumerate(zip(ch.groups, ch.lits)):
            held = np.flatnonzero(hint.pool[g] == p.index)
            if filled[p.index] < cap:
                upto = len(g)
            else:
                upto = int(held[-1]) + 1 if len(held) else 0
                if ch.trait and gi == 0:
                    others = np.flatnonzero(hint.pool[ch.groups[1]] == p.index)
                    if len(others):
                        upto = max(upto, int(np.searchsorted(g, ch.groups[1][others[-1]])))
            index += [lit.index for lit in lits]
            value += [1] * min(upto, len(lits)) + [0] * max(0, len(lits) - upto)
    chained = set(index)
    for p in pools:
        for i, x in x_of[p.index].items():
            if x.index not in chained:  # "holds" literals that are not chain literals themselves
                index.append(x.index)
                value.append(int(hint.pool[i] == p.index))
    m.proto.solution_hint.vars.extend(index)
    m.proto.solution_hint.values.extend(value)
