"""Seat pools: the reduction from (policy, seats, candidates) to an assignment problem (stage 2 of the chain).

A pool is a set of vacancies at one post filled on merit from one eligible set. Pools come in phases, each
filled only after the earlier ones are final, because their capacity is what earlier phases left unfilled:

0. open, then each reserved category (open first: Indra Sawhney 1992; Saurav Yadav 2020; Bihar s.4(3);
   central Bill 2004 s.5(2)); horizontal minimums apply here (Rajesh Kumar Daria 2007);
1. same-year exchange within a group (Maharashtra s.4(3); Manipur s.4);
2+k. step k of each fallback chain (Bihar s.4(6): WBC -> SC, ST, EBC, BC);
then recruitment on probation of those who failed the test (Manipur s.8(3), at the posts it names);
last. de-reservation to open (states whose policy allows it).

A candidate prefers an earlier phase, then (within a phase) a more preferred post, then the earlier pool of
that post: open before own category before extra eligibility. Capacity of a pool is linear in earlier pools'
fills: ``base - sum(filled[q] for q in minus)``; both engines and the reports read it from here.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from .policy import Policy
from .problem import Problem
from .ranking import Ranking, first_match
from .routes import Phase, Route
from .vacancy import SeatTable

OPEN_MERIT, RESERVED, EXCHANGE, FALLBACK, DERESERVED, PROBATION = (
    Route.OPEN_MERIT, Route.RESERVED, Route.EXCHANGE, Route.FALLBACK, Route.DERESERVED, Route.PROBATION)
from .frozen import freeze_dicts
from .eligibility import homes, horizontal_fields, member_mask, open_mask, probation_mask
from .sorting import sorted_by


@dataclass(frozen=True)
class Pool:
    index: int
    post: int
    route: str
    phase: int
    precedence: int
    sources: tuple[str, ...]          # categories whose vacancies the pool fills
    admits: np.ndarray                # bool over candidates (merit order): whom the pool's rules admit
    base: int
    minus: tuple[int, ...] = ()
    minimums: dict[str, int] = field(default_factory=dict)  # trait -> minimum (phase 0 only)
    beneficiary: dict[str, np.ndarray] = field(default_factory=dict)  # trait -> bool mask counted
    carried: bool = False             # holds the register's carried vacancies open to exchange partners
    # trait -> who may come in by adjustment, when not every beneficiary may (overall minimums: the open
    # compartment counts every beneficiary but takes by adjustment only those of no reserved category)
    incoming: dict[str, np.ndarray] = field(default_factory=dict)
    counts_each: bool = False         # several traits, an appointee counting for every trait they have
    serves: str = ""                  # the trait whose minimum the pool's seats are held for (service allocation)
    # who ranked the post (a row of `Ranking.ranked_by_post`); None: `admits` is the eligible set as it stands
    ranked: np.ndarray | None = None

    def __post_init__(self):
        freeze_dicts(self)

    @cached_property
    def eligible(self) -> np.ndarray:
        """bool over candidates: who may hold the pool, those it admits who ranked its post. Made when first
        read: JoSAA's 4,635 pools are 800 MB of masks, which the greedy's path (reading the lists, made from
        `admits` and the ranked rows) never needs."""
        return self.admits if self.ranked is None else self.admits & self.ranked

    @property
    def category(self) -> str:
        return self.sources[0]

    def capacity(self, filled: np.ndarray) -> int:
        """Vacancies this pool offers once earlier pools are filled: ``base - sum(filled[minus])``."""
        return max(0, self.base - int(sum(filled[q] for q in self.minus)))


@dataclass(frozen=True)
class Shared:
    """A bound several pools share: their fills together stay within ``base + sum(filled[plus]) -
    sum(filled[minus])``. The recommendation list uses it for open vacancies at a post held by several
    categories, and for the open vacancies a category may take: as many as upgrades took of its own."""

    members: tuple[int, ...]
    base: int
    plus: tuple[int, ...] = ()
    minus: tuple[int, ...] = ()

    def room(self, filled: np.ndarray) -> int:
        return self.base + int(filled[list(self.plus)].sum()) - int(filled[list(self.minus)].sum()) \
            - int(filled[list(self.members)].sum())


@dataclass(frozen=True)
class Pools:
    pools: tuple[Pool, ...]
    ranking: Ranking        # each candidate's ranked posts (Problem.ranking)
    common_order: bool      # every candidate ranks posts the same way (no preferences file)
    selection: "object | None" = None  # solver.selection.Selection when a recommendation list came first
    shared: tuple[Shared, ...] = ()

    def __iter__(self):
        return iter(self.pools)

    def __len__(self):
        return len(self.pools)

    @property
    def post_rank(self) -> np.ndarray:
        """n x P: position of each post in each candidate's list (`Ranking.post_rank`)."""
        return self.ranking.post_rank

    @property
    def merit_only(self) -> bool:
        """Every candidate orders pools alike and no bound is shared: pools can be filled one by one."""
        return self.common_order and not self.shared

    @cached_property
    def minimums_with_preferences(self) -> bool:
        """Horizontal minimums with ranked preferences: several stable assignments exist (a compartment may take
        a beneficiary who would rather be elsewhere), and the candidate-optimal one is the rule."""
        return not self.merit_only and any(p.minimums for p in self.pools)

    @cached_property
    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Phase, post and precedence of every pool, as arrays (the parts of `order_key` a pool fixes)."""
        return (np.array([p.phase for p in self.pools]), np.array([p.post for p in self.pools]),
                np.array([p.precedence for p in self.pools]))

    def order_key(self, pool: Pool, i: int):
        """Preference of candidate i for pool: smaller is better."""
        return (pool.phase, self.ranking.rank(i, pool.post), pool.precedence)

    def preference_lists(self, members: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(candidate, pool) pairs of eligibility (int32), sorted by candidate and then by the candidate's
        preference: phase, post, and the pool's place at that post (open before own category before extra
        eligibility). Those of every pool are computed once (the greedy, the certificate and the reasons all
        read them); treat them as read-only."""
        ci, pi = self._all_lists
        if members is None or len(set(members)) == len(self.pools):
            return ci, pi
        # (a subset of a sorted list, filtered, stays sorted: the keys are the same)
        wanted = np.zeros(len(self.pools), dtype=bool)
        wanted[members] = True
        keep = wanted[pi]
        return ci[keep], pi[keep]

    @cached_property
    def runs(self) -> tuple[np.ndarray, np.ndarray]:
        """Start and end of each candidate's pairs in `preference_lists()` (candidates with none skipped)."""
        return runs(self._all_lists[0])

    @cached_property
    def _all_lists(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.pools:
            return np.zeros(0, np.int32), np.zeros(0, np.int32)
        lists = _lists_by_rows(self)
        if lists is None:
            lists = tuple(a.astype(np.int32) for a in _lists_by_sort(self))
        for a in lists:
            a.flags.writeable = False
        return lists


def _lists_by_rows(pools: Pools) -> tuple[np.ndarray, np.ndarray] | None:
    """The preference lists read off the candidates' ranked rows, phase by phase. Candidates fall into a few
    types by which pools' rules admit them (`admit_types`), so each (post, type) offers a fixed sequence of
    the post's pools of the phase, in their place (precedence, then index); the rows, candidate by candidate
    and each list in order, then give the pairs in order with no sort of 31 million keys and no read of an
    eligibility mask per pool (JoSAA: 0.6-0.8 s, against 2.9 s pool by pool and 5.9 s sorting). None where a
    pool admits someone who did not rank its post (where the policy allocates unranked posts), or where the
    types are too many for the table: then the sort decides."""
    ranking = pools.ranking
    n, n_posts = ranking.n, ranking.posts
    cand_row, post_row = ranking.rows
    if ranking.preferences is not None and any(
            p.ranked is None and (p.admits & ~ranking.ranked_by_post[p.post]).any() for p in pools.pools):
        return None
    kind, admitted = admit_types([p.admits for p in pools.pools])
    n_types = admitted.shape[0]
    phases = sorted({p.phase for p in pools.pools})
    slots = {f: max(collections.Counter(p.post for p in pools.pools if p.phase == f).values()) for f in phases}
    if n_posts * n_types * max(slots.values()) > _TABLE_CELLS:
        return None
    # Each ranked row's (post, type), the row of the tables below it reads: made a block at a time into one
    # array (whole-array temporaries cost JoSAA 0.4 s, most of it the kernel handing out fresh pages).
    wide = np.int64 if n_posts * n_types >= 1 << 31 else np.int32
    kind = kind.astype(wide)
    at = np.empty(len(post_row), wide)
    for r0 in range(0, len(at), _ROWS_AT_ONCE):
        r1 = min(r0 + _ROWS_AT_ONCE, len(at))
        np.multiply(post_row[r0:r1], n_types, out=at[r0:r1], dtype=wide)
        at[r0:r1] += kind[cand_row[r0:r1]]
    out_c, out_p = [], []
    for f in phases:
        table = np.full((n_posts, n_types, slots[f]), -1, dtype=np.int16 if len(pools.pools) < 1 << 15 else np.int32)
        filled = np.zeros((n_posts, n_types), dtype=np.int64)
        for p in sorted((p for p in pools.pools if p.phase == f), key=lambda p: (p.precedence, p.index)):
            who = np.flatnonzero(admitted[:, p.index])   # (the types it admits; a type's pools in their place)
            table[p.post, who, filled[p.post, who]] = p.index
            filled[p.post, who] += 1
        table = table.reshape(n_posts * n_types, slots[f])
        count = filled.reshape(-1).astype(np.uint8 if slots[f] < 256 else np.int64)
        per_row = count[at]
        total = int(per_row.sum(dtype=np.int64))
        ci, pi = np.empty(total, np.int32), np.empty(total, np.int32)
        done = 0
        for r0 in range(0, len(at), _ROWS_AT_ONCE):
            r1 = min(r0 + _ROWS_AT_ONCE, len(at))
            # A block's rows, each with the pools it offers in its slots (-1 for none): read row-major, the
            # cells that hold a pool are the block's pairs in order.
            offered = table[at[r0:r1]]
            k = per_row[r0:r1]
            found = int(k.sum(dtype=np.int64))
            ci[done:done + found] = np.repeat(cand_row[r0:r1], k)
            pi[done:done + found] = offered[offered >= 0]
            done += found
        out_c.append(ci)
        out_p.append(pi)
    del at
    if len(out_c) == 1:
        return out_c[0], out_p[0]
    # Phases merged by candidate: a pair's place is its candidate's start, her pairs of earlier phases, and its
    # place among her pairs of this phase.
    counts = np.array([np.bincount(c, minlength=n) for c in out_c])
    start = np.r_[0, np.cumsum(counts.sum(axis=0))[:-1]]
    before = np.cumsum(counts, axis=0) - counts
    size = int(counts.sum())
    ci, pi = np.empty(size, np.int32), np.empty(size, np.int32)
    for f, (c, p) in enumerate(zip(out_c, out_p)):
        first = np.cumsum(counts[f]) - counts[f]   # her first pair's index in this phase's pairs
        where = (start + before[f] - first)[c] + np.arange(len(c))
        ci[where], pi[where] = c, p
    return ci, pi


_TABLE_CELLS = 1 << 26      # (post, type, slot) cells of one phase's table: 128 MB of int16 at most
_ROWS_AT_ONCE = 1 << 22     # ranked rows read at a time (JoSAA's 19.4 million in 5 blocks)


def admit_types(masks: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Candidates grouped by which of `masks` (bool over candidates, one per pool) admit them: eligibility
    rests on a candidate's category and flags, so a few types stand for 172,782 candidates. Masks shared by
    several pools (one object, or equal ones) are read once.

    Returns
    -------
    (kind, admitted): each candidate's type (0 to T - 1, int64), and T x len(masks) bool: whether each mask
    admits each type.

    Example
    -------
    >>> every, some = np.array([True, True, True]), np.array([True, False, True])
    >>> kind, admitted = admit_types([every, some, every])
    >>> kind.tolist(), admitted.astype(int).tolist()
    ([1, 0, 1], [[1, 0, 1], [1, 1, 1]])
    """
    by_id: dict[int, int] = {}
    by_value: dict[bytes, int] = {}
    distinct: list[np.ndarray] = []
    which = []
    for m in masks:
        k = by_id.get(id(m))
        if k is None:
            k = by_id[id(m)] = by_value.setdefault(np.packbits(m).tobytes(), len(distinct))
            if k == len(distinct):
                distinct.append(m)
        which.append(k)
    if not distinct:
        return np.zeros(0, np.int64), np.zeros((0, 0), bool)
    # Each candidate's signature, the distinct masks' bits packed a byte per eight masks.
    sig = np.ascontiguousarray(np.packbits(np.stack(distinct), axis=0).T)
    first, kind = np.unique(sig.view(np.dtype((np.void, sig.shape[1]))).ravel(), return_index=True,
                            return_inverse=True)[1:]
    return kind.reshape(-1).astype(np.int64), np.stack(distinct)[:, first].T[:, which]


def _lists_by_sort(pools: Pools) -> tuple[np.ndarray, np.ndarray]:
    """The preference lists by sorting every eligible pair on (candidate, phase, rank, place)."""
    members = list(range(len(pools.pools)))
    # Pool-major, each pool's eligible found on its own (stacking the masks first copied 800 MB at JoSAA
    # size: 4.1 s against 0.5 s).
    found = [np.flatnonzero(pools.pools[k].eligible) for k in members]
    counts = [len(f) for f in found]
    ci = np.concatenate(found).astype(np.int64, copy=False)
    m = np.array(members)
    phase_m, post_m, prec_m = (col[m] for col in pools.columns)
    # A pool's place among pools at equal phase and rank: by post, precedence, then index (the order the
    # stable sort by (candidate, phase, rank, post, precedence) gave, equal keys in pool order).
    by_place = np.lexsort((m, prec_m, post_m))
    place = np.empty(len(m), dtype=np.int64)
    place[by_place] = np.arange(len(m))
    # Unranked posts (offered only when the policy says so) come last, in file order.
    ranks = pools.post_rank
    rank = ranks.reshape(-1)[ci * ranks.shape[1] + np.repeat(post_m, counts)] if ranks.flags.c_contiguous \
        else ranks[ci, np.repeat(post_m, counts)]
    rank = rank.astype(np.int64, copy=False)
    phase_m = (phase_m - phase_m.min()).astype(np.int64)
    wc, wr, wp = (max(1, int(x).bit_length()) for x in (len(m), rank.max(initial=0), phase_m.max(initial=0)))
    if int(ci.max(initial=0)).bit_length() + wp + wr + wc > 63:
        order = sorted_by([ci, np.repeat(phase_m, counts), rank, np.repeat(place, counts)])
        return ci[order], np.repeat(m, counts)[order]
    # One packed key per pair, sorted as values and unpacked: no argsort, no gathers by it. A pool's phase and
    # place are one constant of it.
    key = ci << (wp + wr + wc)
    key |= rank << wc
    key |= np.repeat(phase_m << (wr + wc) | place, counts)
    key.sort()
    return key >> (wp + wr + wc), m[by_place][key & ((1 << wc) - 1)]


def group(pools: Pools, members: list[int], free: np.ndarray, filled: np.ndarray) -> Pools:
    """The pools `members` as a problem of their own, indexed afresh: only the candidates `free` (those earlier
    pools left unplaced) are eligible, and capacities taken by the other pools' fills (`filled`, per pool) are
    constants. Used where pools are filled in turn (CP-SAT solving group by group, `solver.overall` placing
    one post's minimums)."""
    local = {k: j for j, k in enumerate(members)}
    out = []
    for j, k in enumerate(members):
        p = pools.pools[k]
        taken = sum(int(filled[q]) for q in p.minus if q not in local)
        out.append(replace(p, index=j, admits=p.admits & free, base=max(0, p.base - taken),
                           minus=tuple(local[q] for q in p.minus if q in local)))
    return replace(pools, pools=tuple(out))


def held_positions(pools: Pools, held: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate with pairs (`Pools.runs`): where her pairs start and end in `preference_lists()`, and
    where the pair of the pool she holds under `held` (a pool per candidate, -1 for none) sits (her end if
    she holds none). Each holder's pair is found by walking her list from the top (`ranking.first_match`:
    held pools sit near it), not by comparing all 31 million pairs."""
    ci, pi = pools.preference_lists()
    start, end = pools.runs
    who = ci[start]
    at_held = end.copy()
    todo = np.flatnonzero(held[who] >= 0)
    at_held[todo] = first_match(pi, start[todo], end[todo], held[who[todo]])
    return start, end, at_held


def preferred_pairs(pools: Pools, held: np.ndarray):
    """The eligibility pairs in preference order (`Pools.preference_lists`), which of them each candidate holds
    under `held` (a pool per candidate, -1 for none), and which she ranks above the pool she holds (every pair
    of one not selected). Returns (ci, pi, holds, wanted)."""
    ci, pi = pools.preference_lists()
    start, end, at_held = held_positions(pools, held)
    h = at_held[at_held < end]
    holds = np.zeros(len(ci), dtype=bool)
    holds[h] = True
    # "Before it": one running count, +1 at the held pair and -1 at her list's end (no end twice).
    step = np.zeros(len(ci) + 1, dtype=np.int8)
    step[h] = 1
    step[end[at_held < end]] -= 1
    return ci, pi, holds, np.cumsum(step[:-1], dtype=np.int8) == 0


def runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of each run of equal values in sorted `keys` (one candidate's pairs, say)."""
    if not len(keys):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    start = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return start, np.r_[start[1:], len(keys)]


def with_minimums(policy: Policy, problem: Problem, pools: Pools, seats: SeatTable, post: int,
                  members: dict) -> Pools:
    """The same pools, the horizontal fields of one post's compartments read again from `seats`."""
    home = homes(policy, problem, seats, problem.posts[post], members) \
        if policy.horizontal.mode == "overall" else None
    out = []
    for p in pools:
        if p.post == post and p.phase == Phase.OWN and not p.carried and p.route in (OPEN_MERIT, RESERVED):
            mins, ben, inc = horizontal_fields(policy, problem, seats, problem.posts[post], p.category, home)
            p = replace(p, minimums=mins, beneficiary=ben, incoming=inc,
                        counts_each=policy.horizontal.multi_trait_counts_each and len(mins) > 1)
        out.append(p)
    return replace(pools, pools=tuple(out))


def build_pools(policy: Policy, problem: Problem, seats: SeatTable) -> Pools:
    """The seat pools of a recruitment, post by post in file order: the own compartments (open first), same-year
    and carried-vacancy exchange, fallback chains, de-reservation (the phases of this module's docstring).

    Parameters
    ----------
    policy, problem : the recruitment.
    seats : the seat table of vacancy determination (`solver.vacancy.determine_seats`, and for overall
        horizontal minimums `solver.overall.distribute`).

    Returns
    -------
    Pools, indexed in the order built.
    """
    b = _Builder(policy, problem)
    overall = policy.horizontal.mode == "overall"
    for j, post in enumerate(problem.posts):
        home = homes(policy, problem, seats, post, b.members) if overall else None
        phase0, carried = own_compartments(b, seats, j, home)
        used_by = exchange_pools(b, j, phase0, carried)
        fallback_pools(b, seats, j, phase0, used_by)
        probation_pools(b, seats, j, phase0, used_by)
        dereserved_pool(b, seats, j, phase0, carried, used_by)
    return Pools(tuple(b.pools), problem.ranking, problem.preferences is None)


class _Builder:
    """The pools as they are added, and the eligibility masks they are made from."""

    def __init__(self, policy: Policy, problem: Problem):
        self.policy, self.problem = policy, problem
        self.pools: list[Pool] = []
        self.openm = open_mask(policy, problem)
        self.members = {code: member_mask(policy, problem, code) for code in policy.reserved_codes}
        self.chain_len = max((len(f.to) for f in policy.fallback), default=0)
        prob = policy.probation
        self.probation = {code: probation_mask(policy, problem, code) for code in prob.categories} if prob else {}
        # Post by post, who ranked it: a row each (a column of the n x P matrix is strided: 8.5 s of JoSAA's
        # 4,635 pools, against one transpose). None without preferences: everyone ranks every post.
        self.ranked_by_post = problem.ranking.ranked_by_post if problem.preferences is not None else None
        self.unions: dict[tuple[str, ...], np.ndarray] = {}

    def union(self, codes) -> np.ndarray:
        """Members of any of `codes`, one mask for every post (the pools share it)."""
        key = tuple(codes)
        if key not in self.unions:
            self.unions[key] = np.logical_or.reduce([self.members[c] for c in codes]) if codes else \
                np.zeros(self.problem.n, dtype=bool)
        return self.unions[key]

    def add(self, post, route, phase, prec, sources, elig, base, minus=(), mins=None, ben=None, carried=False,
            inc=None) -> Pool:
        each = self.policy.horizontal.multi_trait_counts_each and len(mins or {}) > 1
        ranked = self.ranked_by_post[post] if self.ranked_by_post is not None else None
        p = Pool(len(self.pools), post, route, phase, prec, tuple(sources), elig, base, tuple(minus), mins or {},
                 ben or {}, carried, inc or {}, each, ranked=ranked)
        self.pools.append(p)
        return p


def own_compartments(b: _Builder, seats: SeatTable, j: int, home) -> tuple[dict[str, list[Pool]], dict[str, Pool]]:
    """Phase 0 at post j: open, then each category (own categories before those of extra eligibility; in
    promotion by non-selection the reserved ones before open, `Policy.compartment_order`), each with its
    horizontal minimums (open first: Indra Sawhney 1992; Saurav Yadav 2020; Bihar s.4(3); central
    Bill 2004 s.5(2)). Carried vacancies old enough to pass to exchange partners are filled first by their own
    category (so that what the category cannot fill is what passes), in a pool of their own. Returns the
    pools per category and the carried pools per category."""
    policy, post = b.policy, b.problem.posts[j]
    phase0: dict[str, list[Pool]] = {}
    carried: dict[str, Pool] = {}
    for prec, code in enumerate(policy.compartment_order):
        mins, ben, inc = horizontal_fields(policy, b.problem, seats, post, code, home)
        elig = b.openm if code == policy.open else b.members[code]
        phase0[code] = []
        x = seats.exchangeable.get((post, code), 0)
        if x:
            carried[code] = b.add(j, RESERVED, Phase.OWN, 2 * prec - 1, [code], elig, x, carried=True)
            phase0[code].append(carried[code])
        route = OPEN_MERIT if code == policy.open else RESERVED
        phase0[code].append(b.add(j, route, Phase.OWN, 2 * prec, [code], elig, seats.cap(post, code) - x, (), mins,
                                  ben, inc=inc))
    return phase0, carried


def exchange_pools(b: _Builder, j: int, phase0: dict, carried: dict) -> dict[str, list[int]]:
    """Phase 1 at post j: each exchange group's pool (Maharashtra s.4(3); Manipur s.4). Same-year groups
    exchange every vacancy the group's categories left; after-years groups only the carried ones (Bihar
    s.4(6)). Returns, per category, the later pools that take its unfilled vacancies so far."""
    used_by: dict[str, list[int]] = {code: [] for code in b.policy.reserved_codes}
    for g in b.policy.exchange:
        sources = [code for code in g.categories if not g.after_years or code in carried]
        if not sources:
            continue
        elig = b.union(g.categories)
        taken = [q for code in sources for q in (phase0[code] if not g.after_years else [carried[code]])]
        pool = b.add(j, EXCHANGE, Phase.EXCHANGE, 0, sources, elig, sum(q.base for q in taken), [q.index for q in taken])
        for code in sources:
            used_by[code].append(pool.index)
    return used_by


def fallback_pools(b: _Builder, seats: SeatTable, j: int, phase0: dict, used_by: dict) -> None:
    """Phases 2.. at post j: the steps of each fallback chain, one phase per step (Bihar Act 1991 s.4(6):
    WBC's unfilled vacancies to SC, then ST, then EBC, then BC); each step takes what the earlier ones left."""
    post = b.problem.posts[j]
    for k, f in enumerate(b.policy.fallback):
        taken = [q.index for q in phase0[f.from_]] + used_by[f.from_]
        for step, dest in enumerate(f.to):
            pool = b.add(j, FALLBACK, Phase.FALLBACK + step, k, [f.from_, dest], b.members[dest], seats.cap(post, f.from_),
                         taken)
            taken = taken + [pool.index]
        used_by[f.from_] = taken[len(phase0[f.from_]):]


def probation_pools(b: _Builder, seats: SeatTable, j: int, phase0: dict, used_by: dict) -> None:
    """The phase after the fallback chains at post j, where its class admits it: each probation category's
    vacancies still unfilled, to its own members who failed the prescribed test (Manipur Act 1976 s.8(3),
    second proviso: "recruited on probation against the remaining reserved vacancies"), in merit order."""
    prob, post = b.policy.probation, b.problem.posts[j]
    if prob is None or b.problem.post_classes.get(post, "") not in prob.post_classes:
        return
    for k, code in enumerate(prob.categories):
        taken = [q.index for q in phase0[code]] + used_by[code]
        pool = b.add(j, PROBATION, Phase.FALLBACK + b.chain_len, k, [code], b.probation[code],
                     seats.cap(post, code), taken)
        used_by[code].append(pool.index)


def dereserved_pool(b: _Builder, seats: SeatTable, j: int, phase0: dict, carried: dict, used_by: dict) -> None:
    """The last phase at post j, where the policy de-reserves: the carry-forward categories' vacancies nobody
    else took, open to all eligible for open. Bihar s.4(6)(d) (`dereserve_when = "after_exchange"`): only
    the backlog its exchange could not fill (the carried pools and what the after-years exchange took of them)."""
    policy, post = b.policy, b.problem.posts[j]
    if not policy.unfilled.dereserve:
        return
    phase = Phase.FALLBACK + b.chain_len + (policy.probation is not None)
    if policy.unfilled.dereserve_when == "after_exchange":
        codes = [x.code for x in policy.categories if x.carry_forward and x.code in carried]
        after = {q for code in codes for q in used_by[code] if carried[code].index in b.pools[q].minus}
        minus = [carried[code].index for code in codes] + sorted(after)
        if codes:
            b.add(j, DERESERVED, phase, 0, codes, b.openm, sum(carried[code].base for code in codes), minus)
        return
    codes = [x.code for x in policy.categories if x.carry_forward]
    minus = [q.index for code in codes for q in phase0[code]] + sorted({q for code in codes for q in used_by[code]})
    b.add(j, DERESERVED, phase, 0, codes, b.openm, sum(seats.cap(post, code) for code in codes), minus)
