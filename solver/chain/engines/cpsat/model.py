"""The CP-SAT model of a set of pools, built in the steps the rules come in: each pool's admission chains
(a merit prefix), each candidate holding the first pool of their list that admits them, the capacities (a
pool leaves someone eligible out only when full), the shared bounds of a recommendation list, and the
horizontal minimums (`solver.chain.engines.cpsat.horizontal`).

Stability is stated with cutoffs (Azevedo and Leshno, "A supply and demand framework for two-sided matching
markets", JPE 2016): with the linear capacities of `solver.chain.pools` this says that nobody eligible for a
vacancy who prefers it is left out while someone of worse merit holds it, open before own category before
exchange, fallback and de-reservation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from .same_rank import deepened, link_blocks, same_rank_blocks, seats_over_the_number, tied_blocks
from ...compartment import signatures
from ...pools import Pool, Pools, admit_types, runs
from ....data.routes import Phase


class Names:
    """Variable names that read as the law (``admit[OBC@P01][rank 812]``), or none at all: names cost build
    time and memory, so they are off unless asked for (a model dump, an infeasibility core, an audit).

    Parameters
    ----------
    posts : the post names, or None for unnamed variables.
    """

    def __init__(self, posts: tuple[str, ...] | None = None):
        self.posts = posts

    def __bool__(self) -> bool:
        return self.posts is not None

    def pool(self, p: Pool) -> str:
        where = f"{'/'.join(p.sources)}@{self.posts[p.post] if p.post < len(self.posts) else p.post}"
        if p.phase != Phase.OWN or p.carried:
            where += f" {p.route}{' carried' if p.carried else ''} phase {p.phase}"
        return where + (f" for {p.serves}" if p.serves else "")

    def __call__(self, what: str, p: Pool | None = None, i: int | None = None, extra: str = "") -> str:
        if self.posts is None:
            return ""
        return what + (f"[{self.pool(p)}]" if p is not None else "") + (f"[rank {i + 1}]" if i is not None else "") \
            + (f"[{extra}]" if extra else "")


class Chains:
    """Admission literals of one pool: one chain, or under horizontal minimums one per trait signature
    (which of the pool's traits a candidate counts for; signature 0 = none).

    Chains stop at `depth`: whoever a pool admits holds it or a pool they prefer, so no stable assignment
    admits more than the pool's capacity plus the capacity of every pool anyone might prefer to it. Past that
    depth nobody is admitted, and a pool whose chain was cut is necessarily full."""

    def __init__(self, model: cp_model.CpModel, pool: Pool, depth: int, names: Names, rules: "Rules | None" = None,
                 level: np.ndarray | None = None):
        self.elig = pool.in_order(pool.who())   # (its merit list's order)
        # (a candidate as a place on the pool's list: ascending along a chain, so that one chain's members are
        # found among another's by `np.searchsorted`)
        self.key = pool.place_of
        sig = signatures(pool, self.elig)
        self.sigs = sorted(set(sig.tolist())) if pool.minimums else [0]
        self.full_groups = [self.elig[sig == s] for s in self.sigs]
        depth, blocks = _depth(pool, self.elig, depth, rules, level)   # (without minimums: one chain, `elig`)
        self.truncated = any(len(g) > depth for g in self.full_groups)
        self.groups = [g[:depth] for g in self.full_groups]
        self.lits = []
        # per chain, the clauses "the chain admits everyone" (each OR'd with "the pool is full")
        self.tails: list[list[list]] = []
        self.lit_of: dict[int, cp_model.IntVar] = {}
        skip = frozenset()       # (places an audit's chain may pass by: `_link_blocks`)
        for s, g in zip(self.sigs, self.groups):
            label = f"signature {s}" if pool.minimums else ""
            lits = [model.new_bool_var(names("admit", pool, i, label)) for i in g.tolist()]
            if rules is None or pool.minimums:
                _link(model, lits, blocks)
                self.tails.append([[lits[-1]]] if lits else [])
            else:
                tails, skip = _link_blocks(model, pool, g, lits, rules, blocks)
                self.tails.append(tails)
            self.lits.append(lits)
            self.lit_of.update(zip(g.tolist(), lits))
        self.depth = depth
        self.ties = tied_blocks(self.groups, self.lits, blocks, skip)
        self.merit: dict[int, cp_model.IntVar] = {}     # see horizontal.merit_cutoff
        self.top_free: dict[int, object] = {}            # in the merit top and free


def _depth(pool: Pool, members: np.ndarray, depth: int, rules: "Rules | None", level: np.ndarray | None):
    """A chain's depth, and its blocks of the same rank (`same_rank_blocks`; `level`: the levels on the pool's
    list, None without ties): candidates of one rank are admitted together or not at all, so a block at the cut
    is taken whole. Pools with horizontal minimums keep exact capacities (deferred acceptance's `choose`)."""
    if pool.minimums:
        return depth, []
    if rules is not None:     # (an audit's model, or a conflict's: bypassed members and tie blocks deepen it)
        depth = rules.depth(pool, members, depth)
    blocks = same_rank_blocks(level[members]) if level is not None else []
    return deepened(depth, blocks), blocks


def _link(m: cp_model.CpModel, lits: list, blocks: list[tuple[int, int]]) -> None:
    """A chain's literals as a merit prefix (each admitted one's predecessor admitted), and each block of the same
    rank admitted whole."""
    for a, b in zip(lits[1:], lits[:-1]):
        m.add_implication(a, b)
    link_blocks(m, lits, blocks)


def _link_blocks(m: cp_model.CpModel, pool: Pool, members: np.ndarray, lits: list, rules: "Rules",
                 same: list[tuple[int, int]]) -> tuple[list[list], frozenset]:
    """A chain whose merit order the audit loosens: candidates tied on merit (`Rules.ties`, a tie settled only
    by id) form a block admitted in any order, every member of a block before anyone of the next; a candidate
    the audit added to a pool she may not hold (`Rules.ineligible`) is bypassed while her rule's literal holds
    (she then neither holds the pool nor moves its cutoff); a block of the same rank on the pool's list (`same`)
    is admitted whole, but for those bypassed. Returns the clauses "the chain admits everyone", and the places of
    those who may be bypassed."""
    ties = rules.ties if rules.ties is not None else np.full(int(members.max(initial=0)) + 1, -1)
    blocks: list[list[int]] = []
    for k, i in enumerate(members.tolist()):
        if blocks and ties[i] >= 0 and ties[members[blocks[-1][0]]] == ties[i]:
            blocks[-1].append(k)
        else:
            blocks.append([k])
    soft = {k: rules.lit(("eligibility", pool.index, int(i))) for k, i in enumerate(members.tolist())
            if (pool.index, int(i)) in rules.ineligible}
    for t in range(1, len(blocks)):
        for x in blocks[t]:
            for y in blocks[t - 1]:
                if y in soft:
                    # x past her: x needs her admitted only where she may hold the pool; always those before her
                    m.add_bool_or([lits[x].Not(), lits[y], soft[y]])
                    for z in (blocks[t - 2] if t >= 2 else []):
                        m.add_implication(lits[x], lits[z])
                else:
                    m.add_implication(lits[x], lits[y])
    link_blocks(m, lits, same, frozenset(soft))
    return _tails(blocks, soft, lits), frozenset(soft)


def _tails(blocks: list[list[int]], soft: dict, lits: list) -> list[list]:
    """The clauses "the chain admits everyone": each of the last block admitted (or bypassed by her rule), and,
    where one of them may be bypassed, each of the block before it."""
    if not blocks:
        return []
    tails = [[lits[k]] + ([soft[k]] if k in soft else []) for k in blocks[-1]]
    if any(k in soft for k in blocks[-1]) and len(blocks) > 1:
        tails += [[lits[k]] for k in blocks[-2]]
    return tails


class GroupChain:
    """Admission literals of a shared bound: a merit prefix of everyone eligible for any member pool."""

    def __init__(self, m: cp_model.CpModel, pools: Pools, g, names: Names):
        elig = np.flatnonzero(np.any([pools.pools[k].eligible for k in g.members], axis=0))
        self.members = set(g.members)
        self.lits = [m.new_bool_var(names("admit_shared", None, i, f"pools {g.members}")) for i in elig.tolist()]
        for a, b in zip(self.lits[1:], self.lits[:-1]):
            m.add_implication(a, b)
        self.lit_of = dict(zip(elig.tolist(), self.lits))


@dataclass
class Model:
    """The model and its named parts: `holds[p][i]` (candidate i holds pool p), `free[p][i]` (no pool i
    prefers admits i: 1 = always), `gain` (the objective's terms, where there is one)."""

    m: cp_model.CpModel
    pools: Pools
    names: Names
    chains: list[Chains]
    groups: list[GroupChain]
    holds: list[dict[int, cp_model.IntVar]] = field(default_factory=list)
    free: list[dict[int, object]] = field(default_factory=list)
    gain: list = field(default_factory=list)
    rules: "Rules | None" = None

    @property
    def objective(self) -> bool:
        """Horizontal minimums with ranked preferences admit several stable assignments (a compartment may take
        a beneficiary who would rather be elsewhere). The rule is the candidate-optimal one, the deferred-
        acceptance outcome: every candidate does at least as well there as in any other, so it is the unique
        maximiser of the summed (list length - rank) of the pools held."""
        return self.pools.minimums_with_preferences

    def sums(self) -> list:
        return [cp_model.LinearExpr.sum(list(self.holds[p.index].values())) for p in self.pools]


class Rules:
    """Rule instances an audit can switch off (`solver.audit`): each is a literal that, true, enforces it, so
    that CP-SAT can name the ones an infeasible question runs into (its assumptions' core).

    Parameters
    ----------
    ties : per candidate, a tie block (-1: none): candidates of one block are tied on merit with nothing but
        their ids to order them, and a pool may admit them in any order.
    ineligible : (pool, candidate) -> why the candidate may not hold the pool, for a candidate the audit added
        to a pool's eligible set (a relaxed standard, the creamy layer).
    capacity, waste : guard each pool's capacity ("no more appointees than vacancies") and its
        non-wastefulness ("an eligible candidate who wants it is left out only when it is full").
    minimums : guard each pool's horizontal minimums (`guard`), for naming a conflict among the rules.

    Pools with horizontal minimums keep their chains strict (their constraints read merit positions)."""

    def __init__(self, m: cp_model.CpModel | None = None, ties=None, ineligible: dict | None = None,
                 capacity: bool = False, waste: bool = False, minimums: bool = False):
        self.m, self.ties, self.ineligible = m, ties, dict(ineligible or {})
        self.capacity, self.waste, self.minimums = capacity, waste, minimums
        self.lits: dict[tuple, cp_model.IntVar] = {}

    def depth(self, pool: Pool, members: np.ndarray, depth: int) -> int:
        """A chain's depth once some of its members may be bypassed (one more for each) and a tie block at the
        cut is taken whole (any of its members may be the one admitted)."""
        if self.capacity or self.waste:
            return len(members)   # (the depth counts capacities, which the audit may lift: no cut)
        depth += sum(1 for i in members.tolist() if (pool.index, i) in self.ineligible)
        if self.ties is not None and 0 < depth < len(members):
            block = self.ties[members[depth - 1]]
            while block >= 0 and depth < len(members) and self.ties[members[depth]] == block:
                depth += 1
        return depth

    def lit(self, key: tuple):
        """The literal of rule instance `key`: ("capacity", pool), ("waste", pool), ("minimum", pool),
        ("eligibility", pool, i)."""
        if key not in self.lits:
            self.lits[key] = self.m.new_bool_var(f"rule[{key}]")
        return self.lits[key]


def guard(m: cp_model.CpModel, lit, start: int) -> None:
    """Enforce every constraint added since `start` only if `lit` holds, where CP-SAT allows it (linear and
    clause constraints; the min/max definitions of auxiliary counts stay, as they constrain nothing else)."""
    cts = m.proto.constraints
    for k in range(start, len(cts)):
        ct = cts[k]
        if ct.has_linear() or ct.has_bool_or() or ct.has_bool_and():
            ct.enforcement_literal.append(lit.index)


def link_preferences(model: Model) -> None:
    """A candidate holds the first pool in their order of preference that admits them: `holds` = reached
    (no earlier pool admits them) and admitted."""
    m, pools, chains, names = model.m, model.pools, model.chains, model.names
    model.holds = [dict() for _ in pools]
    model.free = [dict() for _ in pools]
    pairs_i, pairs_p = pools.preference_lists()
    for s, e in zip(*runs(pairs_i)):
        i = int(pairs_i[s])
        reached = None  # literal "no earlier pool admits i"; None = true
        mine = [int(p) for p in pairs_p[s:e] if i in chains[p].lit_of]
        for k, p in enumerate(mine):
            pool = pools.pools[p]
            a = admitted(m, chains[p].lit_of[i], [g.lit_of[i] for g in model.groups if p in g.members and i in g.lit_of],
                         names("admitted", pool, i))
            if reached is None:
                x = a
            else:
                x = m.new_bool_var(names("holds", pool, i))
                m.add_bool_and([reached, a]).only_enforce_if(x)
                m.add_bool_or([reached.Not(), a.Not(), x])
            model.holds[p][i] = x
            if model.rules is not None and (p, i) in model.rules.ineligible:
                m.add(x == 0).only_enforce_if(model.rules.lit(("eligibility", p, i)))
            if pool.minimums:
                model.free[p][i] = 1 if reached is None else reached
            if model.objective:
                model.gain.append((len(mine) - k) * x)
            if k + 1 < len(mine):
                if reached is None:
                    nxt = a.Not()
                else:
                    nxt = m.new_bool_var(names("passes", pool, i))
                    m.add_bool_and([reached, a.Not()]).only_enforce_if(nxt)
                    m.add_bool_or([reached.Not(), a, nxt])
                reached = nxt


def shared_bounds(model: Model, sums: list) -> None:
    """A recommendation list's bounds, and merit within each: whoever it turns away is behind everyone it let
    in."""
    m = model.m
    for g, chain in zip(model.pools.shared, model.groups):
        used = sum(sums[k] for k in g.members) + sum(sums[k] for k in g.minus) - sum(sums[k] for k in g.plus)
        m.add(used <= g.base)
        full = m.new_bool_var(model.names("full_shared", extra=f"pools {g.members}"))
        m.add(used >= g.base).only_enforce_if(full)
        if chain.lits:
            m.add_bool_or([chain.lits[-1], full])


def capacity(model: Model, p: Pool, ch: Chains, sums: list) -> None:
    """The pool holds at most its capacity (linear in earlier fills), and leaves one it would admit out only
    when full: each chain admits everyone eligible, or the pool is full."""
    m, rules = model.m, model.rules
    used = sums[p.index] + sum(sums[q] for q in p.minus)
    within = m.add(used <= p.base)
    guards = [rules.lit(("capacity", p.index))] if rules is not None and rules.capacity else []
    if ch.ties:
        seats_over_the_number(model, p, ch, used, within, guards)
    full = m.new_bool_var(model.names("full", p))
    m.add(used >= p.base).only_enforce_if(full)
    if ch.truncated:
        m.add(full == 1)
    waste = []
    if rules is not None:
        if rules.capacity:
            within.only_enforce_if(rules.lit(("capacity", p.index)))
        if rules.waste:
            waste = [rules.lit(("waste", p.index)).Not()]
    for tails in ch.tails:
        for clause in tails:
            m.add_bool_or([*clause, full, *waste])


def admitted(m: cp_model.CpModel, own, shared: list, name: str = ""):
    """Admitted to a pool: by its own cutoff and by the cutoff of every bound it shares."""
    if not shared:
        return own
    a = m.new_bool_var(name)
    m.add_bool_and([own, *shared]).only_enforce_if(a)
    m.add_bool_or([a, own.Not(), *[x.Not() for x in shared]])
    return a


def overlaps(pools: Pools) -> np.ndarray | None:
    """Which pairs of pools some candidate is eligible for both of. Only where pools are filled one by one
    (no preferences, no shared bound: a bound may turn away one its pool's own chain admits): eligibility then
    depends on a candidate's category and flags alone, so few distinct columns need comparing."""
    if not pools.merit_only or not len(pools):
        return None
    kinds = admit_types([p.eligible for p in pools])[1].astype(np.int64)
    return (kinds.T @ kinds) > 0


def depth(pools: Pools, pool: Pool, overlap: np.ndarray | None = None) -> int:
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
