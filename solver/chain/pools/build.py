"""The seat pools of a recruitment, post by post (`build_pools`): the own compartments, same-year and carried
exchange, fallback chains, recruitment on probation, de-reservation (the phases of `solver.chain.pools`)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..eligibility import homes, horizontal_fields, member_mask, open_mask, probation_mask
from ...policy import Policy
from ...data.problem import Problem
from ...data.routes import Phase
from ...data.seat_pools import Holders
from ..vacancy import SeatTable
from .types import DERESERVED, EXCHANGE, FALLBACK, OPEN_MERIT, PROBATION, RESERVED, Pool, Pools


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
                        held=held_seats(policy, seats, problem.posts[post], p.category, mins),
                        counts_each=policy.horizontal.multi_trait_counts_each and len(mins) > 1)
        out.append(p)
    return replace(pools, pools=tuple(out))


def held_seats(policy: Policy, seats: SeatTable, post: str, code: str, mins: dict) -> dict[str, int]:
    """`Pool.held`: per trait the policy holds (`horizontal.held`), this year's seats of the compartment's
    minimum, which stay vacant when its beneficiaries do not fill them; the seats carried into the minimum from
    earlier years revert (s.36: "only when there is no person with disability available for the post in that
    year, the employer shall fill up the vacancy by appointment of a person, other than a person with
    disability")."""
    held = {t: m - len(seats.carried_horizontal.get((post, code, t), ())) for t, m in mins.items()
            if t in policy.horizontal.held}
    return {t: h for t, h in held.items() if h > 0}


def build_pools(policy: Policy, problem: Problem, seats: SeatTable) -> Pools:
    """The seat pools of a recruitment, post by post in file order: the own compartments (open first), same-year
    and carried-vacancy exchange, fallback chains, de-reservation (the phases of this module's docstring).

    Parameters
    ----------
    policy, problem : the recruitment.
    seats : the seat table of vacancy determination (`solver.chain.vacancy.determine_seats`, and for overall
        horizontal minimums `solver.chain.overall.distribute`).

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
    return Pools(tuple(b.pools), problem.ranking, problem.preferences is None, lists=problem.lists)


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
        # Who ranked each post: read by a pool off `Ranking.ranked_by_post` (a row per post; a column of the n x P
        # matrix is strided: 8.5 s of JoSAA's 4,635 pools) when its eligible set is first asked for. None without
        # preferences: everyone ranks every post.
        self.ranked_by = problem.ranking if problem.preferences is not None else None
        self.unions: dict[tuple[str, ...], np.ndarray] = {}
        self.holders = Holders(policy.seat_pools, problem.candidates)
        self.narrow: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    def union(self, codes) -> np.ndarray:
        """Members of any of `codes`, one mask for every post (the pools share it)."""
        key = tuple(codes)
        if key not in self.unions:
            self.unions[key] = np.logical_or.reduce([self.members[c] for c in codes]) if codes else \
                np.zeros(self.problem.n, dtype=bool)
        return self.unions[key]

    def narrowed(self, elig: np.ndarray, pool, merit_list: int) -> np.ndarray:
        """`elig` less those a seat pool's quota, gender pool or trait bars, and those absent from the post's
        merit list: one mask per distinct combination, shared by every pool of it (JoSAA's 27,000 pools at
        172,782 candidates would be 4.7 GB of masks made one by one). `elig` is one of the builder's own masks."""
        if pool is None and not merit_list:
            return elig
        key = (id(elig), self.holders.key(pool) if pool is not None else None, merit_list)
        if key not in self.narrow:
            out = elig & self.holders(pool) if pool is not None else elig
            if merit_list:        # (one absent from the post's list may not hold it)
                out = out & self.problem.lists.on(merit_list)
            self.narrow[key] = (elig, out)      # (elig kept: its id stays its own while the key lives)
        return self.narrow[key][1]

    def add(self, post, route, phase, prec, sources, elig, base, minus=(), mins=None, ben=None, carried=False,
            inc=None, held=None) -> Pool:
        each = self.policy.horizontal.multi_trait_counts_each and len(mins or {}) > 1
        merit_list = self.problem.list_of(post, sources[0])     # (its category's row's list, or the post's)
        elig = self.narrowed(elig, self.problem.post_pools[post], merit_list)
        place = self.problem.lists.position[merit_list] if merit_list else None
        p = Pool(len(self.pools), post, route, phase, prec, tuple(sources), elig, base, tuple(minus), mins or {},
                 ben or {}, carried, inc or {}, each, ranked_by=self.ranked_by, merit_list=merit_list, place=place,
                 held=held or {})
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
                                  ben, inc=inc, held=held_seats(policy, seats, post, code, mins)))
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
    if not policy.unfilled.in_first_round:
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
