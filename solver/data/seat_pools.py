"""Seat pools: a program's seats split by quota, gender pool and trait besides the category (JoSAA's seat pools,
`[seat_pools]` in the policy). Each combination is a post of its own, named after its program and the parts
that are not the default (``"IITX-CSE [female]"``, ``"NITY-ME [HS, pwbd]"``), with its categories inside it as
at any post; a choice of the program stands for the pools its candidate may hold, in the policy's order
(`expand`). Where no row names a pool every post is its own program and nothing changes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .routes import NOT_RANKED
from .sorting import signatures
from .walks import first_k

DEFAULT_QUOTA, DEFAULT_GENDER_POOL = "AI", "neutral"


@dataclass(frozen=True)
class SeatPool:
    """The parts of a post besides its categories: its program, quota (with the program's state), gender pool,
    the trait its seats are held for ('' none), and the program's institute (what a slide stays within)."""

    program: str
    quota: str = DEFAULT_QUOTA
    gender_pool: str = DEFAULT_GENDER_POOL
    trait: str = ""
    state: str = ""
    institute: str = ""

    @property
    def name(self) -> str:
        """The post's name: the program, and in brackets the parts that are not the default.

        Example
        -------
        >>> SeatPool("NIT1-ME", quota="HS", trait="pwbd").name
        'NIT1-ME [HS, pwbd]'
        >>> SeatPool("IIT1-CSE").name
        'IIT1-CSE'
        """
        parts = [p for p, default in ((self.quota, DEFAULT_QUOTA), (self.gender_pool, DEFAULT_GENDER_POOL),
                                      (self.trait, "")) if p != default]
        return self.program if not parts else f"{self.program} [{', '.join(parts)}]"


class Holders:
    """Who may hold a pool's seats by its quota, gender pool and trait (the categories inside it are the pools'
    business): a bool mask over candidates per distinct (quota, state, gender pool, trait), made once and shared
    by every pool of that kind (JoSAA: 27,000 pools, a few hundred kinds). `rules`: the policy's `seat_pools`;
    `candidates`: `Candidates`, with `home_state` where a quota turns on it."""

    def __init__(self, rules, candidates):
        self.rules, self.c = rules, candidates
        home = candidates.home_state if candidates.home_state is not None else \
            np.full(len(candidates), "", dtype=object)
        self.states, self.home = np.unique(home.astype(str), return_inverse=True)
        self.masks: dict[tuple, np.ndarray] = {}

    def key(self, pool: SeatPool) -> tuple:
        who = self.rules.quotas[pool.quota].holders
        return who, pool.state if who != "all" else "", pool.gender_pool, pool.trait

    def __call__(self, pool: SeatPool) -> np.ndarray:
        k = self.key(pool)
        if k not in self.masks:
            who, state, gender, trait = k
            ok = np.ones(len(self.c), dtype=bool)
            if gender == "female":
                ok &= self.c.female
            if trait:
                ok &= self.c.trait(trait)
            if who != "all":
                at = np.searchsorted(self.states, state)
                same = self.home == at if at < len(self.states) and self.states[at] == state else \
                    np.zeros(len(self.c), dtype=bool)
                ok &= same if who == "home" else ~same
            self.masks[k] = ok
        return self.masks[k]

    def bar(self, pool: SeatPool, i: int) -> str:
        """What keeps candidate i from `pool`'s seats, in words: the first of its quota, gender pool and trait
        that he does not meet ("HS (for candidates from KA)", "female-only", "held for pwbd"); "" where none.

        Example
        -------
        >>> from types import SimpleNamespace as NS
        >>> class Candidates(NS):
        ...     def __len__(self): return 1
        >>> who = Holders(NS(quotas={"HS": NS(holders="home"), "AI": NS(holders="all")}),
        ...               Candidates(home_state=np.array(["MH"], dtype=object), female=np.array([False])))
        >>> who.bar(SeatPool("Q", quota="HS", state="KA"), 0), who.bar(SeatPool("R", gender_pool="female"), 0)
        ('HS (for candidates from KA)', 'female-only')
        """
        # (the masks `__call__` makes, of the pool's quota, then its quota and gender pool, then the whole pool:
        # the first he fails names the bar)
        who = self.rules.quotas[pool.quota].holders
        steps = ((SeatPool(pool.program, pool.quota, state=pool.state),
                  f"{pool.quota} (for candidates {'from' if who == 'home' else 'not from'} {pool.state})"),
                 (SeatPool(pool.program, pool.quota, pool.gender_pool, state=pool.state), f"{pool.gender_pool}-only"),
                 (pool, f"held for {pool.trait}"))
        return next((words for part, words in steps if not self(part)[i]), "")


def expand(prefs: tuple[np.ndarray, ...], programs: tuple[str, ...], pools: tuple[SeatPool, ...], rules,
           candidates, ranked: np.ndarray | None = None) -> tuple[tuple[np.ndarray, ...], Unheld | None]:
    """Each candidate's ranked programs (indices into `programs`) as ranked posts (indices into `pools`): a
    program's place taken by the pools of it the candidate may hold (`Holders`), in the policy's order
    (`rules.rank`). Vectorised over the pairs, by the candidates' signatures: the kinds of pool they may
    hold. `ranked`: the same choices as one array, candidate after candidate (the reader's rows), where it has
    them: then the lists are not joined again.

    Returns
    -------
    (the lists, `Unheld`): a program none of whose pools the candidate may hold (an HS seat of another state
    only) stands for nothing in his list; the second names where each such one stood, so that the places his
    reasons say count it (`Problem.places`). None where there is none."""
    n = len(candidates)
    key = [rules.rank(p.quota, p.gender_pool, p.trait) for p in pools]
    of = {name: [] for name in programs}
    for v in sorted(range(len(pools)), key=lambda v: (key[v], v)):
        of[pools[v].program].append(v)
    width = max(len(v) for v in of.values())
    table = np.full((len(programs), width), -1, dtype=np.int32)
    for j, name in enumerate(programs):
        table[j, :len(of[name])] = of[name]
    who_may = Holders(rules, candidates)
    kinds = {k: i for i, k in enumerate(dict.fromkeys(who_may.key(p) for p in pools))}
    kind = np.array([kinds[who_may.key(p)] for p in pools], dtype=np.int32)
    may = [who_may(p) for p in {who_may.key(p): p for p in pools}.values()]
    # Candidates alike in every pool kind they may hold share a signature (JoSAA: about 120, by home state,
    # gender and PwD); per signature and program, the pools they may hold in order and how many.
    first, sig = signatures(may) if may else (np.zeros(0, np.int64), np.zeros(n, np.int64))
    sig_may = np.array([m[first] for m in may], dtype=bool).reshape(len(may), len(first)).T[:, kind]   # S x pools
    open_ = sig_may[:, np.maximum(table, 0)] & (table >= 0)                               # S x programs x width
    order = np.argsort(~open_, axis=2, kind="stable")
    listed = np.where(np.take_along_axis(open_, order, axis=2), np.take_along_axis(
        np.broadcast_to(table, open_.shape), order, axis=2), -1)
    count = open_.sum(axis=2)
    sizes = np.fromiter((len(p) for p in prefs), dtype=np.int64, count=n)
    # Each ranked program's cell of `listed` (signature, program), flat: its pools sit at cell + 0, 1, ...
    # (Arrays made once and worked in place: at JoSAA's 19.4 million choices each fresh array is 80-160 MB of
    # pages the kernel hands out one fault at a time, and the faults were most of the time.)
    cell = np.repeat((sig.reshape(-1) * len(programs)).astype(np.int32), sizes)
    if len(cell):
        cell += ranked if ranked is not None else np.concatenate(prefs).astype(np.int32, copy=False)
    k = count.astype(np.int32).reshape(-1)[cell]                 # pools each ranked program stands for
    unheld = _unheld(np.flatnonzero(k == 0), sizes, cell, len(programs), table[:, 0])
    # (the k pools of a ranked program are its cell's first k places)
    flat = first_k(listed.reshape(-1, listed.shape[2]), cell, k)
    del cell
    # (each candidate's first ranked pool's place: his rows' counts summed, over those who ranked any)
    per, some = np.zeros(n, dtype=np.int64), sizes > 0
    if some.any():
        per[some] = np.add.reduceat(k, (np.cumsum(sizes) - sizes)[some], dtype=np.int64)
    bounds = np.r_[0, np.cumsum(per)].tolist()
    return tuple(flat[bounds[i]:bounds[i + 1]] for i in range(n)), unheld


@dataclass(frozen=True)
class Unheld:
    """Programs a candidate ranked none of whose seat pools he may hold, left out of his expanded list
    (`expand`): `who[k]` ranked one after `kept[k]` programs of his list that stand for pools; sorted by
    (who, kept). What `Problem.places` counts in the places the reasons say; `post[k]`, a seat pool of the
    program (the reasons name the program by it: `solver.outcome.bars`)."""

    who: np.ndarray
    kept: np.ndarray
    post: np.ndarray

    def places(self, cands: np.ndarray, place: np.ndarray) -> np.ndarray:
        """Each candidate's place among the programs he ranked, from `place`, his place among those kept: the
        programs left out before it counted (NOT_RANKED, or any place past the lists' length, unchanged).

        Example
        -------
        >>> u = Unheld(np.array([0, 0, 1]), np.array([0, 2, 1]), np.array([5, 6, 5]))   # 0: X a b Y c; 1: a X b
        >>> u.places(np.array([0, 0, 0, 1, 1]), np.array([0, 1, 2, 0, 1])).tolist()     # a, b, c; a, b
        [1, 2, 4, 0, 2]
        """
        place = np.array(place, dtype=np.int64)
        ok = np.flatnonzero(place < NOT_RANKED)
        if not len(ok) or not len(self.who):
            return place
        wide = int(max(place[ok].max(), self.kept.max())) + 1
        key = self.who.astype(np.int64) * wide + self.kept
        c = np.asarray(cands, dtype=np.int64)[ok] * wide
        # (one left out after j kept programs comes before the kept one at place p where j <= p)
        place[ok] += np.searchsorted(key, c + place[ok], side="right") - np.searchsorted(key, c, side="left")
        return place

    def reordered(self, order: np.ndarray, n: int) -> Unheld | None:
        """The same for the candidates `order[k]` at k (of `n` before), as `Problem.reordered` moves them."""
        at = np.full(n, -1, dtype=np.int64)
        at[np.asarray(order)] = np.arange(len(order))
        who = at[self.who]
        keep = who >= 0
        if not keep.any():
            return None
        who, kept, post = who[keep], self.kept[keep], self.post[keep]
        by = np.lexsort((kept, who))
        return Unheld(who[by], kept[by], post[by])

    def ranked(self) -> np.ndarray:
        """The place each program left out has in its candidate's list (0 = first), those before it counted."""
        return self.kept + _in_run(self.who)


def _unheld(rows: np.ndarray, sizes: np.ndarray, cell: np.ndarray, programs: int, first_pool: np.ndarray) \
        -> Unheld | None:
    """`Unheld` from the ranked rows (candidate after candidate, `sizes` each) that stand for no pool; `cell`:
    each row's (signature, program) cell, `first_pool`: each program's first pool."""
    if not len(rows):
        return None
    bounds = np.cumsum(sizes)
    who = np.searchsorted(bounds, rows, side="right")
    # (each one's place in his list, less the programs left out before it in his list)
    return Unheld(who.astype(np.int64), (rows - (bounds[who] - sizes[who]) - _in_run(who)).astype(np.int64),
                  first_pool[cell[rows] % programs].astype(np.int64))


def _in_run(who: np.ndarray) -> np.ndarray:
    """Each entry's index within its run of equal values of `who` (sorted).

    Example
    -------
    >>> _in_run(np.array([0, 0, 2, 2, 2, 5])).tolist()
    [0, 1, 0, 1, 2, 0]
    """
    at = np.arange(len(who))
    return at - np.maximum.accumulate(np.where(np.r_[True, who[1:] != who[:-1]], at, 0))


