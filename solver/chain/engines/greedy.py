"""The reference greedy: the official procedure, pool by pool (stage 3, reference engine).

Without preferences every candidate ranks posts alike, so filling pools one after another in the global
order (phase, post, precedence) is serial dictatorship down the merit list, vectorised with numpy. With
preferences, each phase runs serial dictatorship candidate by candidate (merit-cum-preference), which with
one merit list for every pool is the unique stable assignment. With several merit lists (a post ranking its
applicants by a list of its own: `solver.data.lists`) every phase runs deferred acceptance, each pool choosing by
its post's list: the candidate-optimal stable assignment; with one list, the same code gives what it always gave.
Horizontal minimums (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007): fill the compartment on merit,
count beneficiaries, and only on a shortfall replace the lowest non-beneficiaries with the best remaining
beneficiaries; never remove anyone for an excess.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..compartment import choose, fill_in_turn, held_vacancies
from ..pools import Pools, runs
from ..pools.lists import held_positions
from ...data.walks import skip_full
from .assignment import Assignment, mark_adjusted
from .support import check_supported


def solve_greedy(pools: Pools, n: int) -> Assignment:
    check_supported(pools)
    t0 = time.perf_counter()
    assign = np.full(n, -1, dtype=np.int64)
    adjusted = np.zeros(n, dtype=bool)
    filled = np.zeros(len(pools), dtype=np.int64)
    if pools.merit_only:
        assign, adjusted = fill_in_turn(pools, n, assign)
    else:
        for phase in sorted({p.phase for p in pools}):
            members = [p.index for p in pools if p.phase == phase]
            if any(k in g.members for g in pools.shared for k in members):
                _serial_dictatorship(pools, members, assign, filled)
            else:
                _deferred_acceptance(pools, members, assign, filled, adjusted)
    return Assignment(assign, adjusted, "greedy", {"seconds": time.perf_counter() - t0})


def _deferred_acceptance(pools: Pools, members: list[int], assign: np.ndarray, filled: np.ndarray,
                         adjusted: np.ndarray) -> None:
    """Candidate-proposing deferred acceptance (Gale and Shapley 1962), vectorised by rounds: every unplaced
    candidate proposes to the next pool on their list, every pool keeps the best of its holders and proposers
    by merit up to capacity. With one merit list for every pool its outcome is serial dictatorship's (the
    unique stable assignment), without a Python loop over (candidate, pool) pairs. A compartment with a
    horizontal minimum chooses among its holders and proposers by `choose` (minimum guarantee)."""
    ci, pi = pools.preference_lists(members)
    if len(ci) == len(pools.preference_lists()[0]) and (assign < 0).all():
        start, end = pools.runs   # (every pair, nobody placed yet: the lists and their runs as made)
    else:
        keep = assign[ci] < 0
        ci, pi = ci[keep], pi[keep]
        start, end = runs(ci)
    if not len(ci):
        return
    cap = np.zeros(len(pools), dtype=np.int64)
    for k in members:
        cap[k] = pools.pools[k].capacity(filled)
    who = ci[start]                      # candidates, in merit order
    ptr = start.copy()                   # next pair each candidate will propose
    held = np.full(len(who), -1)         # pool each candidate holds (-1 none)
    _propose(pools, members, pi, who, ptr, end, held, cap)
    got = held >= 0
    assign[who[got]] = held[got]
    if any(pools.pools[k].minimums for k in members):
        mark_adjusted(pools, assign, adjusted)
    filled += np.bincount(held[got], minlength=len(filled))
    if any(pools.pools[k].held for k in members):   # (a held seat left vacant is no later phase's to fill)
        filled[members] += held_vacancies(pools, assign)[members]


def _propose(pools: Pools, members: list[int], pi: np.ndarray, who: np.ndarray, ptr: np.ndarray, end: np.ndarray,
             held: np.ndarray, cap: np.ndarray) -> None:
    """Deferred acceptance's rounds from a state: `held` (a pool per candidate of `who`, -1 none), `ptr` (the
    pair each will propose next, `end` past her last), `cap` (each pool's seats). Runs until nobody free has a
    pool left to propose to; `held` and `ptr` are updated in place."""
    key = _keys(pools, who)
    level = _keys(pools, who, levels=True) if pools.same_rank else None
    horizontal = np.zeros(len(pools), dtype=bool)
    horizontal[[k for k in members if pools.pools[k].minimums]] = True
    touched = np.zeros(len(pools), dtype=bool)
    # Per pool: its cutoff, the place on its list of its worst holder once full (no minimums: `_cutoffs`). A
    # candidate placed after it would be turned away, and cutoffs only rise, so she skips the pool without
    # proposing: JoSAA's unplaced candidates walked their 112 choices one round each.
    count = np.zeros(len(pools), dtype=np.int64)
    ranked_by = level or key       # (one of the same rank as the worst holder is not turned away)
    cutoff = np.where(~horizontal & (cap <= 0), -1, _OPEN)
    while True:
        free = skip_full(pi, np.flatnonzero((held < 0) & (ptr < end)), ptr, end, cutoff, ranked_by.lists,
                         ranked_by.place)
        if not len(free):
            break
        asked = pi[ptr[free]]
        # Only the pools proposed to this round choose again, among their holders and proposers (a pool
        # nobody proposed to keeps what it holds).
        touched[:] = False
        touched[asked] = True
        holding = np.flatnonzero((held >= 0) & touched[np.maximum(held, 0)])
        cand = np.r_[holding, free]
        pool = np.r_[held[holding], asked]
        # by pool, then the pool's merit (smaller = better)
        order = np.lexsort((key(pool, cand), pool)) if pools.several_lists else np.argsort(pool * len(who) + cand)
        cand, pool = cand[order], pool[order]
        first = np.r_[0, np.flatnonzero(pool[1:] != pool[:-1]) + 1]
        size = np.diff(np.r_[first, len(pool)])
        within = np.arange(len(pool)) - np.repeat(first, size)
        kept = within < cap[pool]
        if level is not None:
            kept |= _same_rank(level(pool, cand), first, size, cap[pool[first]])
        for g in np.flatnonzero(horizontal[pool[first]]).tolist():
            at = slice(first[g], first[g] + size[g])
            k = int(pool[first[g]])
            chosen, _ = choose(pools.pools[k], who[cand[at]], int(cap[k]))
            kept[at] = np.isin(who[cand[at]], chosen)
        n_kept = np.add.reduceat(kept.astype(np.int64), first) if level is not None else \
            np.minimum(cap[pool[first]], size)
        chose = pool[first]
        count[chose] = n_kept
        cutoff[chose] = _cutoffs(chose, np.where(n_kept > 0, cand[first + np.maximum(n_kept, 1) - 1], -1),
                                 count[chose] >= cap[chose], horizontal[chose], ranked_by)
        held[cand[kept]] = pool[kept]
        out = cand[~kept]
        held[out] = -1
        ptr[out] += 1                # the rejected, and displaced holders, move on to their next pool


def resumable(pools: Pools) -> bool:
    """Whether `resume` gives what a fresh run would: one phase of deferred acceptance, no pool with
    horizontal minimums (whose choice is not a cut of a larger one's), no bound shared between pools."""
    return not pools.merit_only and not pools.shared and len({p.phase for p in pools}) == 1 and \
        not any(p.minimums for p in pools)


def resume(pools: Pools, assignment: Assignment, cut: np.ndarray) -> Assignment:
    """The candidate-optimal stable assignment of `pools` with `cut[k]` fewer seats at pool k, continued from
    `assignment`, deferred acceptance's of the market before the cut (`resumable` pools): each cut pool's
    holders propose to it again, it keeps its best up to its seats now, and the rest propose on down their
    lists. A fresh run ends in the same assignment: a pool with fewer seats turns away everyone it turned away
    with more (a choice that is a cut of a larger one; the same-rank rule's too, a path-independent choice:
    Chambers and Yenmez 2017), so every rejection made before the cut still stands, and deferred acceptance's
    outcome does not depend on the order the proposals come in (Roth and Sotomayor 1990, ch. 5)."""
    members = [p.index for p in pools]
    ci, pi = pools.preference_lists()
    start, end, ptr = held_positions(pools, assignment.pool)
    who = ci[start]
    held = assignment.pool[who].copy()
    none = np.zeros(len(pools), dtype=np.int64)
    cap = np.array([p.capacity(none) for p in pools], dtype=np.int64) - cut
    again = np.flatnonzero((held >= 0) & (cut[np.maximum(held, 0)] > 0))
    held[again] = -1                 # (they propose to the pool they held again, at `ptr`)
    _propose(pools, members, pi, who, ptr, end, held, cap)
    out = np.full(len(assignment.pool), -1, dtype=np.int64)
    out[who] = held
    return Assignment(out, np.zeros(len(out), dtype=bool), "greedy", {"resumed": True})


def _keys(pools: Pools, who: np.ndarray, levels: bool = False) -> _Key:
    """key(pool, cand): the place of `who[cand]` in the merit list that orders `pool` (smaller is better). With
    one list the place in `who` itself (candidates in merit order): the order every pool shares. `levels`: the
    place of the first of the same rank instead (`MeritLists.level`)."""
    if not pools.several_lists:
        return _Key()
    # Each list's places of `who` side by side, read at (list of the pool) * len(who) + cand: one gather from
    # 2 x 172,782 places, where position[list, who[cand]] took two (0.1-0.2 s of a JoSAA round's 0.9 s).
    lists = np.array([p.merit_list for p in pools.pools], dtype=np.int64) * len(who)
    place = (pools.lists.level if levels else pools.lists.position)[:, who].reshape(-1)
    return _Key(lists, np.ascontiguousarray(place))


@dataclass(frozen=True)
class _Key:
    """`_keys`' key, and the arrays it reads (`lists`, `place`; None where one list orders every pool), which
    the compiled skip past full pools reads too (`solver.data.walks.skip_full`)."""

    lists: np.ndarray | None = None
    place: np.ndarray | None = None

    def __call__(self, pool, cand):
        return cand if self.lists is None else self.place[self.lists[pool] + cand]


def _same_rank(level: np.ndarray, first: np.ndarray, size: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """The same-rank rule (JoSAA Business Rules, "Multiple student - same rank rule", as summarised: where more
    candidates of the same rank seek a program's last seats than there are seats, all of them are admitted on
    supernumerary seats): over proposals grouped by pool and sorted by its list, those of the level of the last
    one within capacity, in a group larger than its capacity."""
    over = (size > cap) & (cap > 0)
    boundary = level[first + np.clip(cap - 1, 0, np.maximum(size - 1, 0))]
    return np.repeat(over, size) & (level == np.repeat(boundary, size))


def _cutoffs(chose: np.ndarray, worst: np.ndarray, full: np.ndarray, horizontal: np.ndarray, key) -> np.ndarray:
    """The cutoffs of the pools `chose` after they chose: of a full pool without minimums, its worst holder's
    (`worst`, a position in `who`) place on its list, or -1 where it holds nobody and has no room; of any other
    pool `_OPEN` (nobody skips it)."""
    out = np.full(len(chose), _OPEN, dtype=np.int64)
    at = np.flatnonzero(full & ~horizontal)
    out[at] = np.where(worst[at] >= 0, key(chose[at], np.maximum(worst[at], 0)), -1)
    return out


_OPEN = np.iinfo(np.int64).max      # the cutoff of a pool nobody is turned away from unasked


def _serial_dictatorship(pools: Pools, members: list[int], assign: np.ndarray, filled: np.ndarray) -> None:
    """Down the merit list, each unassigned candidate takes the most preferred pool with room
    (merit-cum-preference); room is the pool's own capacity and that of every bound it shares."""
    caps = {k: pools.pools[k].capacity(filled) for k in members}
    groups = {k: [g for g in pools.shared if k in g.members] for k in members}
    ci, pi = pools.preference_lists(members)
    keep = assign[ci] < 0
    ci, pi = ci[keep], pi[keep]
    for k, i in zip(pi.tolist(), ci.tolist()):
        if assign[i] >= 0 or caps[k] <= 0 or any(g.room(filled) <= 0 for g in groups[k]):
            continue
        assign[i] = k
        caps[k] -= 1
        filled[k] += 1
